import ArgumentParser
import Foundation

/// The completion scripts `ootd completions SHELL` prints: argument-parser's, taught at their
/// top level the global options every command takes before its name (`ootd --db F block
/// rou<TAB>` offered the command names instead of `routine`, as if `--db` were the command).
/// Each script's own top-level list of options gets `--db` (with its value) and `--no-color`,
/// in the script's own words: zsh's spec lines are copied from a command's, which the script
/// already writes.
enum CompletionScript {
  static func text(for shell: CompletionShell) -> String {
    let script = Ootd.completionScript(for: shell)
    switch shell {
    case .bash:
      let top = replacing(
        "local -a non_repeating_flags=(--version -h --help)",
        with: "local -a non_repeating_flags=(--no-color --version -h --help)", after: "\n_ootd() {\n", in: script)
      return replacing(
        "local -a non_repeating_options=()", with: "local -a non_repeating_options=(--db)", after: "\n_ootd() {\n",
        in: top)
    case .zsh:
      let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
      guard let db = lines.first(where: { $0.drop(while: { $0 == " " }).hasPrefix("'--db[") }),
        let noColor = lines.first(where: { $0.drop(while: { $0 == " " }).hasPrefix("'--no-color[") })
      else { return script }
      let version = "        '--version[Show the version.]'"
      return replacing(version, with: "\(db)\n\(noColor)\n\(version)", after: "\n_ootd() {\n", in: script)
    default:
      return replacing(
        "__ootd_parse_subcommand 0 'version' 'h/help'",
        with: "__ootd_parse_subcommand 0 'db=' 'no-color' 'version' 'h/help'", after: "case 'ootd'\n", in: script)
    }
  }

  /// `script` with the first `old` after `anchor` replaced by `new`; unchanged when either is
  /// missing (a test checks each shell's script has the globals at its top level).
  static func replacing(_ old: String, with new: String, after anchor: String, in script: String) -> String {
    guard let start = script.range(of: anchor)?.upperBound,
      let found = script.range(of: old, range: start..<script.endIndex)
    else { return script }
    return script.replacingCharacters(in: found, with: new)
  }
}
