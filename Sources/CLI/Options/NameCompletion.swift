import ArgumentParser
import Core
import Foundation
import Storage

/// Shell completion of names that live in the database (blocks, projects) and of day words.
enum NameCompletion {
  /// `today`, `tomorrow`, `yesterday` for date options.
  static let days = CompletionKind.list(["today", "tomorrow", "yesterday"])

  /// Where a todo can go: a day, or `someday`, the backlog (`add --on`, `edit --on`).
  static let placements = CompletionKind.list(["today", "tomorrow", "yesterday", Placement.backlogWord])

  /// The names of the task blocks in the user's database.
  static let blocks = CompletionKind.custom { words, _, prefix in
    names(words, prefix) { try $0.blocks().map(\.name) }
  }

  /// The names of the projects in the user's database.
  static let projects = CompletionKind.custom { words, _, prefix in
    names(words, prefix) { try $0.projects(.all).map(\.project.name) }
  }

  /// Names from the database the command line names (`--db`, else the environment's), starting
  /// with `prefix`. Never creates a database: none there, no names.
  private static func names(
    _ words: [String], _ prefix: String, _ fetch: (AppDatabase) throws -> [String]
  ) -> [String] {
    let option = words.firstIndex(of: "--db").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
    guard let path = try? AppEnvironment.live().databasePath(option: option),
      FileManager.default.fileExists(atPath: path),
      let database = try? AppDatabase.open(path: path),
      let names = try? fetch(database)
    else { return [] }
    return names.filter { $0.hasPrefix(prefix) }
  }
}
