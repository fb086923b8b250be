import ArgumentParser
import Core
import Foundation
import Interchange
import Storage
import Glibc

/// `{"added","updated","unchanged","skipped","projects"}`, plus `skippedReasons`, `dryRun` and
/// `conflicts` (a sentence per todo imported mended by the rules, ``TodoRules``).
struct ImportJSON: Encodable {
  let result: ImportResult
  let dryRun: Bool

  enum CodingKeys: String, CodingKey {
    case added, updated, unchanged, skipped, projects, skippedReasons, dryRun, conflicts
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(result.added, forKey: .added)
    try c.encode(result.updated, forKey: .updated)
    try c.encode(result.unchanged, forKey: .unchanged)
    try c.encode(result.skippedCount, forKey: .skipped)
    try c.encode(result.projects, forKey: .projects)
    try c.encode(result.skipped, forKey: .skippedReasons)
    try c.encode(dryRun, forKey: .dryRun)
    try c.encode(result.conflicts, forKey: .conflicts)
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
    if dryRun { lines.append("Dry run: nothing was changed.") }
    return lines.joined(separator: "\n")
  }
}
