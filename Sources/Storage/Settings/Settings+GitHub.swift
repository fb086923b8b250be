import Core
import GRDB

/// What the user set, kept in the key/value tables (``KeyValueTable``): the GitHub settings, the
/// remote connection's settings (Settings+Remote.swift) and the label → priority rules for
/// imported issues. Not journaled, never synced. Reached as `database.settings`.
public struct Settings: DatabaseStore {
  let writer: any DatabaseWriter
  let path: String
}

extension AppDatabase {
  /// The user's settings in this database.
  public var settings: Settings { Settings(writer: writer, path: path) }
}

/// A GitHub setting ootd remembers. The token is never one of them.
public enum GitHubSetting: String, Sendable, CaseIterable {
  /// The GitHub login whose commits ootd tracks.
  case login
  /// The REST API base URL (GitHub Enterprise Server: `https://HOST/api/v3`).
  case apiURL
}

extension Settings {
  /// Saves (or, with nil, forgets) a GitHub setting.
  public func setGitHubSetting(_ setting: GitHubSetting, to value: String?) throws(StorageError) {
    try write { db in try KeyValueTable.gitHubSettings.set(db, setting.rawValue, to: value) }
  }

  /// A saved GitHub setting, or nil.
  public func gitHubSetting(_ setting: GitHubSetting) throws(StorageError) -> String? {
    try read { db in try KeyValueTable.gitHubSettings.value(db, setting.rawValue, as: String.self) }
  }

  // MARK: Label priorities

  /// The label → priority rules: the user's (see ``setLabelPriority(_:_:)``) over the built-in.
  public func labelPriorityRules() throws(StorageError) -> LabelPriorityRules {
    try read { db in
      var custom: [String: Priority] = [:]
      for row in try KeyValueTable.labelPriorities.all(db) {
        if let priority = Priority(rank: row[1]) { custom[row[0]] = priority }
      }
      return LabelPriorityRules(custom: custom)
    }
  }

  /// Makes issues labelled `label` (any case) get `priority`, or forgets the user's rule for it
  /// when nil (the built-in rules apply again). A setting: not journaled.
  public func setLabelPriority(_ label: String, _ priority: Priority?) throws(StorageError) {
    try write { db in
      try KeyValueTable.labelPriorities.set(db, label, to: priority?.rank)
    }
  }
}
