import Core
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

extension AppDatabase {
  /// What the journal's latest entry touched: the uuids of its todos, those todos as they are
  /// now (a deleted one is missing), and whether it touched a project or a block too. A session
  /// reads these again after its own change (``recording(as:)``), not the whole day: at 100,000
  /// todos on a day that is the difference between a key press in a frame and one in a second.
  public func todosOfLatestEntry() throws(StorageError) -> (uuids: [String], todos: [Todo], others: Bool) {
    try read { db in
      guard let change = try Int64.fetchOne(db, sql: "SELECT max(id) FROM journalChange") else {
        return ([], [], false)
      }
      var uuids: [String] = []
      var seen = Set<String>()
      var others = false
      let rows = try Row.fetchCursor(
        db.cachedStatement(sql: "SELECT entity, row FROM journalOperation WHERE changeId = ?"), arguments: [change])
      while let row = try rows.next() {
        let entity: String = row[0]
        let uuid: String = row[1]
        if entity != "todo" {
          others = true
        } else if seen.insert(uuid).inserted {
          uuids.append(uuid)
        }
      }
      guard !uuids.isEmpty else { return ([], [], others) }
      let todos = try TodoRecord.todos(
        db, where: "todo.uuid IN (SELECT value FROM json_each(?))",
        [String(decoding: try JSONEncoder().encode(uuids), as: UTF8.self)])
      return (uuids, todos, others)
    }
  }
}
