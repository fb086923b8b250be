import Foundation
import GRDB
import GRDBSQLite

/// One cached statement run once a row, each row's values bound straight to SQLite with GRDB's
/// own binding (``DatabaseValue``'s `bind(to:at:)`: the values and types a statement's
/// arguments give) and stepped with `sqlite3_step`: no ``StatementArguments`` a row, no JSON.
///
/// What the set-wise writes of a first pull use (issue 24): its todos, their journal rows and
/// their stamps were sent as one JSON array a statement, which SQLite's `json_each` rendered
/// row by row and `->>` parsed again (a seventh of a first pull's CPU), after Swift had spent
/// as much writing it.
struct RowStatement {
  private let statement: Statement
  private let handle: SQLiteStatement
  /// The next parameter to bind (1-based).
  private var index: CInt = 1

  init(_ db: Database, sql: String) throws {
    statement = try db.cachedStatement(sql: sql)
    handle = statement.sqliteStatement
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds the next parameter. A text is bound from the string's own UTF-8 bytes, up to its
  /// first NUL as GRDB's binding takes it: GRDB's passes the `String` as a C string, which copies
  /// it into a new array first (an allocation a text, some 15 a row of an import).
  mutating func bind(_ value: DatabaseValue) {
    if case .string(var text) = value.storage {
      let index = index
      let handle = handle
      text.withUTF8 { bytes in
        // (The first NUL found by `memchr`: `firstIndex(of:)` went a byte at a time, 330
        // instructions a text of a first pull's, whose journal texts are ~600 bytes.)
        guard let start = bytes.baseAddress else {
          _ = sqlite3_bind_text(handle, index, "", 0, Self.transient)
          return
        }
        let nul = memchr(start, 0, bytes.count)
        let length = nul.map { nul in UnsafeRawPointer(nul) - UnsafeRawPointer(start) } ?? bytes.count
        guard length > 0 else {
          _ = sqlite3_bind_text(handle, index, "", 0, Self.transient)
          return
        }
        _ = sqlite3_bind_text(
          handle, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), CInt(length), Self.transient)
      }
    } else {
      _ = value.bind(to: handle, at: index)
    }
    index += 1
  }

  /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes before the call returns.
  private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

  mutating func bind(_ value: Int64) { bind(value.databaseValue) }

  mutating func bind(_ value: String?) { bind(value?.databaseValue ?? .null) }

  /// Runs the statement with the parameters bound since the last run, which must be all of
  /// them; throws SQLite's error as GRDB reports a statement's (a constraint, a type).
  mutating func run() throws {
    precondition(index == sqlite3_bind_parameter_count(handle) + 1, "every parameter bound")
    let code = sqlite3_step(handle)
    index = 1
    guard code == SQLITE_DONE || code == SQLITE_ROW else {
      let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
      sqlite3_reset(handle)
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }
    sqlite3_reset(handle)
  }
}
