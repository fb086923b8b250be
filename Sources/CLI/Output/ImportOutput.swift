import ArgumentParser
import Core
import Foundation
import Interchange
import Storage
import Glibc

/// `{"added","updated","unchanged","skipped","projects"}`, plus `skippedReasons`, `dryRun`,
/// `conflicts` (a sentence per todo imported mended by the rules, ``TodoRules``) and `blocks`
/// (the blocks created), `renumbered` (new todos whose number in the file was taken here),
/// `repeatedUUIDs` (items that named an earlier item's uuid, ``RepeatedUUID``).
struct ImportJSON: JSONShape {
  let result: ImportResult
  let dryRun: Bool

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("added")
    writer.integer(result.added)
    writer.key("blocks")
    writer.strings(result.blocks)
    writer.key("conflicts")
    writer.strings(result.conflicts)
    writer.key("dryRun")
    writer.bool(dryRun)
    writer.key("projects")
    writer.strings(result.projects)
    writer.key("renumbered")
    writer.integer(result.renumbered)
    writer.key("repeatedUUIDs")
    writer.integer(result.repeated.values.reduce(0, +))
    writer.key("skipped")
    writer.integer(result.skippedCount)
    writer.key("skippedReasons")
    writer.object(result.skipped) { writer, count in writer.integer(count) }
    writer.key("unchanged")
    writer.integer(result.unchanged)
    writer.key("updated")
    writer.integer(result.updated)
    writer.endObject()
  }
}

/// The text an import prints.
enum ImportSummary {
  static func text(_ result: ImportResult, dryRun: Bool) -> String {
    var lines = [
      (dryRun ? "Would import: " : "Imported: ")
        + "\(counted(result.added, "todo")) added, \(result.updated) updated, "
        + "\(result.unchanged) unchanged, \(result.skippedCount) skipped"
    ]
    for (reason, n) in result.skipped.sorted(by: { $0.key < $1.key }) {
      lines.append("  skipped \(n): \(reason)")
    }
    for (outcome, n) in result.repeated.sorted(by: { $0.key < $1.key }) {
      lines.append("  repeated uuid \(n): \(outcome)")
    }
    if result.renumbered > 0 {
      lines.append(
        "  \(counted(result.renumbered, "todo")) took another number: the file's is or was a todo's here")
    }
    // Each todo the rules mended, in words; a few, and how many more (--json lists them all).
    let shown = 10
    for sentence in result.conflicts.prefix(shown) {
      lines.append("  conflict: " + TerminalText.printable(sentence))
    }
    if result.conflicts.count > shown {
      lines.append("  and \(result.conflicts.count - shown) more conflicts (--json lists them all)")
    }
    if !result.projects.isEmpty {
      // A few names and how many more: an import can create thousands (--json lists them all).
      lines.append(
        (dryRun ? "Would create projects: " : "Created projects: ")
          + TerminalText.printable(ShortList.text(result.projects)))
    }
    if !result.blocks.isEmpty {
      lines.append(
        (dryRun ? "Would create blocks: " : "Created blocks: ") + TerminalText.printable(ShortList.text(result.blocks)))
    }
    if dryRun { lines.append("Dry run: nothing was changed.") }
    return lines.joined(separator: "\n")
  }
}
