import GRDB

/// What every store of the one database shares: the writer ``AppDatabase`` opened (one
/// connection per command, as GRDB's demo keeps one writer), the file's path for error messages,
/// and the one way to run a transaction with the one error mapping.
///
/// A store is a tiny `Sendable` struct over that writer, reached from ``AppDatabase``
/// (`database.gitHub`, `database.settings`, `database.sync`), its methods in files named after
/// it. One public method is one transaction: ``write(_:)``, ``read(_:)``, or
/// ``readStatement(_:)`` for a single statement.
protocol DatabaseStore: Sendable {
  /// The database's one writer.
  var writer: any DatabaseWriter { get }
  /// The file the database lives in (`:memory:` for an in-memory database).
  var path: String { get }
}

extension DatabaseStore {
  /// Translates a GRDB or SQLite error into a ``StorageError``.
  static func map(_ error: any Error, path: String) -> StorageError {
    AppDatabase.map(error, path: path)
  }

  /// Runs `body` in one write transaction, mapping errors to ``StorageError``.
  func write<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
    do {
      return try writer.write { db in try body(db) }
    } catch {
      throw Self.map(error, path: path)
    }
  }

  /// Runs `body`, which runs a single statement, outside any transaction, mapping errors to
  /// ``StorageError``: one statement reads one snapshot by itself, and skips the `BEGIN` and
  /// `COMMIT` that ``read(_:)`` prepares. For a body of several statements, use ``read(_:)``.
  func readStatement<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
    do {
      return try writer.unsafeRead { db in try body(db) }
    } catch {
      throw Self.map(error, path: path)
    }
  }

  /// Runs `body` in one read transaction, mapping errors to ``StorageError``.
  ///
  /// What GRDB's `read` does (`query_only` on, a deferred transaction, rolled back when `body`
  /// throws), with its `BEGIN` and `COMMIT` run as plain statements: GRDB runs them
  /// through its SQL literal, whose `joined()` was the dashboard's first call of the standard
  /// library's generic one, and that first call resolves an associated type by a scan of the
  /// binary's conformance records (0.31 M instructions, issue 25; see
  /// ``Array/concatenated(separator:)``). Prepared each time, not cached: a command reads a few
  /// times, and the statement cache's first use costs more than the two prepares.
  func read<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
    do {
      return try writer.unsafeRead { db in
        try db.readOnly {
          // (GRDB's `read` runs inside a transaction already open as it is.)
          guard !db.isInsideTransaction else { return try body(db) }
          try db.makeStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
          let value: T
          do {
            value = try body(db)
            // As GRDB's: a transaction SQLite rolled back by itself (an I/O error) is reported
            // as aborted, not as a `COMMIT` without a transaction.
            guard db.isInsideTransaction else {
              throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted")
            }
            try db.makeStatement(sql: "COMMIT TRANSACTION").execute()
          } catch {
            // As GRDB's: the first error is the one thrown (a failed rollback is not).
            if db.isInsideTransaction { try? db.makeStatement(sql: "ROLLBACK TRANSACTION").execute() }
            throw error
          }
          return value
        }
      }
    } catch {
      throw Self.map(error, path: path)
    }
  }
}
