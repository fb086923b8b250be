import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Migration v18-caldav and the CalDAV link and states (issue 27): no password column, a link
/// to another collection forgets the states, states round-trip their base fields.
@Suite struct CalDAVStateTests {
  static let base: Fields = [
    "title": .text("Read, \"SICP\""), "priority": .integer(0), "day": .null, "done": .bool(true),
    "doneAt": .text("20261122T083000Z"), "dropped": .bool(false), "notes": .text("a\nb"), "tags": .null,
    "project": .text("ootd"), "block": .null,
  ]

  @Test func migrationLinkAndStates() throws {
    let scratch = Scratch()
    let path = scratch.path()
    let database = try AppDatabase.open(path: path)
    let columns = try withRawDatabase(path) { db in
      try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info('caldavLink')").map { $0[0] as String }
    }
    #expect(columns == ["id", "url", "user", "displayName", "syncToken", "ctag", "lastSync"])
    #expect(try database.calDAVLink() == nil)

    try database.setCalDAVLink(CalDAVLink(url: "https://a.example/tasks/", user: "alice", displayName: "Tasks"))
    let state = CalDAVTodoState(uuid: "u1", href: "/tasks/u1.ics", etag: "\"1\"", base: Self.base)
    try database.recordCalDAVStates([CalDAVStateChange(uuid: "u1", state: state)])
    try database.finishCalDAVSync(syncToken: "t1", ctag: "c1", now: Date(timeIntervalSince1970: 1_795_000_000))
    #expect(try database.calDAVStates()["u1"] == state)
    #expect(try database.calDAVLink()?.syncToken == "t1")

    // The same collection again keeps the token and states; another forgets both.
    try database.setCalDAVLink(CalDAVLink(url: "https://a.example/tasks/", user: "alice"))
    #expect(try database.calDAVLink()?.syncToken == "t1")
    #expect(try database.calDAVStates().count == 1)
    try database.setCalDAVLink(CalDAVLink(url: "https://b.example/tasks/", user: "alice"))
    #expect(try database.calDAVLink()?.syncToken == nil)
    #expect(try database.calDAVStates().isEmpty)

    // A resource renamed by the server: the old path's link goes.
    try database.recordCalDAVStates([CalDAVStateChange(uuid: "u1", state: state)])
    var moved = state
    moved.uuid = "u2"
    try database.recordCalDAVStates([CalDAVStateChange(uuid: "u2", state: moved), CalDAVStateChange(uuid: "x", state: nil)])
    #expect(try database.calDAVStates().keys.sorted() == ["u2"])
  }
}
