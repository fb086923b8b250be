import Foundation
import GRDB

// What a long-running session (`ootd tui`) needs of its one connection beyond a command's:
// each of its actions recorded in the journal under its own command line, and a cheap way to
// see that another process changed the file.

extension AppDatabase {
  /// This database's connection, recording the changes made through it as `command` (what
  /// `ootd log` shows and `ootd undo` names): each action of a session is the command it stands
  /// for (`done 12 13`). It never gives the file back; the original keeps that duty.
  public func recording(as command: String) -> AppDatabase {
    AppDatabase(writer: writer, path: path, command: command, routineDay: routineDay)
  }

  /// SQLite's `PRAGMA data_version` on this connection: it moves when another connection (an
  /// `ootd` in another terminal, a sync) commits, never for this connection's own writes.
  public func dataVersion() throws(StorageError) -> Int {
    try read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? -1 }
  }
}
