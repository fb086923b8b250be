import Core

/// The `ootd add --block NAME` that a hint on an empty day suggests: only a block that exists
/// (`algorithm` while it does, else the first block, built-in ones first), so a removed block is
/// never named; nil when there are no blocks left.
func addBlockHint(_ blocks: [TaskBlock]) -> String? {
  (blocks.first { $0.name == "algorithm" } ?? blocks.first).map { "ootd add --block \($0.name)" }
}
