import GRDB

/// One key/value table of settings (`githubSetting`, `remoteSetting`, `githubLabelPriority`,
/// `syncState`): the one read, upsert and delete they all use, so a new setting table is one
/// line here and no new SQL. The statements are cached: `syncState` is read and written per
/// pulled record.
struct KeyValueTable: Sendable {
  private let select: String
  private let selectAll: String
  private let upsert: String
  private let delete: String

  /// The table `name`, keyed by column `key`, holding column `value`.
  init(_ name: String, key: String = "key", value: String = "value") {
    select = "SELECT \(value) FROM \(name) WHERE \(key) = ?"
    selectAll = "SELECT \(key), \(value) FROM \(name)"
    // REPLACE rather than DO UPDATE: a key compared without case (a label) takes the new spelling.
    upsert = "INSERT OR REPLACE INTO \(name) (\(key), \(value)) VALUES (?, ?)"
    delete = "DELETE FROM \(name) WHERE \(key) = ?"
  }

  /// The GitHub settings (``GitHubSetting``).
  static let gitHubSettings = KeyValueTable("githubSetting")
  /// The PostgreSQL connection's settings (``RemoteSetting``).
  static let remoteSettings = KeyValueTable("remoteSetting")
  /// The user's label → priority rules for imported issues.
  static let labelPriorities = KeyValueTable("githubLabelPriority", key: "label", value: "priority")
  /// The sync's cursors, first clock and file identity.
  static let syncState = KeyValueTable("syncState")

  /// The value under `key`, or nil.
  func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ db: Database, _ key: String, as type: Value.Type = Value.self
  ) throws -> Value? {
    try Value.fetchOne(db.cachedStatement(sql: select), arguments: [key])
  }

  /// Every key with its value.
  func all(_ db: Database) throws -> [Row] {
    try Row.fetchAll(db.cachedStatement(sql: selectAll))
  }

  /// Saves `value` under `key`, or forgets the key when `value` is nil.
  func set(_ db: Database, _ key: String, to value: (any DatabaseValueConvertible)?) throws {
    if let value {
      try db.cachedStatement(sql: upsert).execute(arguments: [key, value])
    } else {
      try db.cachedStatement(sql: delete).execute(arguments: [key])
    }
  }
}
