import CalDAVSupport
import Core
import Foundation
import TestTags
import Testing

/// `ootd caldav` from the built binary against real Radicale and Xandikos on 127.0.0.1, with
/// the phone script making the changes a phone makes (issue 27's "Done means").
@Suite("CalDAV sync against real servers", .tags(.binary, .network))
struct CalDAVBinaryTests {
  static let kinds = CalDAVServer.Kind.allCases.filter(CalDAVServer.available)

  struct Machine {
    let folder: TemporaryFolder
    let server: CalDAVServer

    var environment: [String: String] {
      ["OOTD_DB": folder.file("ootd.sqlite"), "OOTD_CALDAV_PASSWORD": server.password, "HOME": folder.path]
    }

    @discardableResult
    func ootd(_ arguments: [String], _ extra: [String: String] = [:]) throws -> BinaryTests.Result {
      let result = try BinaryTests.run(arguments, environment: environment.merging(extra) { $1 }, hangGuard: 120)
      #expect(result.code == 0, "ootd \(arguments.joined(separator: " ")): \(result.stderr)")
      return result
    }

    func json(_ arguments: [String]) throws -> Any {
      try JSONSerialization.jsonObject(with: Data(try ootd(arguments).stdout.utf8))
    }

    func sync() throws -> [Int] {
      let object = try #require(try json(["caldav", "sync", "--json"]) as? [String: Any])
      for key in ["pushed", "pulled", "deleted", "conflicts", "conflictList"] { #expect(object[key] != nil, "\(key)") }
      return ["pushed", "pulled", "deleted", "conflicts"].map { object[$0] as? Int ?? -1 }
    }

    func add(_ title: String, on day: String) throws -> [String: Any] {
      try #require(try json(["add", title, "--on", day, "--json"]) as? [String: Any])
    }

    func todos() throws -> [[String: Any]] {
      try #require(try json(["list", "--all", "--json"]) as? [[String: Any]])
    }

    func todo(_ uuid: String) throws -> [String: Any]? { try todos().first { $0["uuid"] as? String == uuid } }
  }

  @Test(arguments: kinds)
  func bothWaysWithAPhone(_ kind: CalDAVServer.Kind) throws {
    let server = try CalDAVServer(kind)
    defer { server.stop() }
    let machine = Machine(folder: try TemporaryFolder(), server: server)
    let past = try machine.add("Call mum", on: TestClock.day(-2))
    let today = try machine.add("Write the report", on: TestClock.day())
    let tomorrow = try machine.add("Gym", on: TestClock.day(1))
    let backlog = try machine.add("Learn Rust", on: "someday")
    _ = try machine.add("Far away", on: TestClock.day(200))
    let uuid = { (todo: [String: Any]) in todo["uuid"] as! String }

    let set = try machine.ootd(["caldav", "set", server.collectionURL.absoluteString, "--user", server.user])
    #expect(set.stdout.contains("Linked CalDAV task list"))
    #expect(!set.stdout.contains(server.password) && !set.stderr.contains(server.password))

    // First sync: the window's 4 todos (the backlog too), not the one 200 days ahead.
    #expect(try machine.sync() == [4, 0, 0, 0])
    #expect(Set(try server.phoneList().compactMap(\.uid)) == Set([past, today, tomorrow, backlog].map(uuid)))
    let reportICS = try server.phoneGet(uuid(today)).ics
    #expect(reportICS.contains("SUMMARY:Write the report\r\n"))
    #expect(reportICS.contains("DTSTART;VALUE=DATE:20261122\r\n") && reportICS.contains("DUE;VALUE=DATE:20261123\r\n"))
    #expect(!(try server.phoneGet(uuid(backlog)).ics.contains("DTSTART")))
    #expect(try machine.sync() == [0, 0, 0, 0])

    // The phone ticks, retitles, moves, adds and deletes.
    try server.phone("tick", uuid(past), "20261122T110000Z")
    try server.phone("retitle", uuid(tomorrow), "Gym, legs day")
    try server.phone("move", uuid(backlog), "20261125")
    try server.phone("add", "phone-made-1", "Buy stamps", "20261123")
    try server.phone("delete", uuid(today))
    #expect(try machine.sync() == [0, 4, 1, 0])
    let ticked = try #require(try machine.todo(uuid(past)))
    #expect(ticked["done"] as? Bool == true)
    #expect(ticked["date"] as? String == TestClock.day(-2), "done on its DTSTART day, not the sync's")
    #expect(try machine.todo(uuid(tomorrow))?["title"] as? String == "Gym, legs day")
    #expect(try machine.todo(uuid(backlog))?["date"] as? String == "2026-11-25")
    #expect(try machine.todo(uuid(today)) == nil)
    #expect(try machine.todos().contains { $0["title"] as? String == "Buy stamps" && $0["date"] as? String == "2026-11-23" })
    #expect(try machine.sync() == [0, 0, 0, 0])

    // An X- property and a VALARM added on the phone survive an ootd update.
    try server.phone("set", uuid(tomorrow), "X-PHONE-COLOR", "teal")
    try server.phone("alarm", uuid(tomorrow))
    #expect(try machine.sync() == [0, 0, 0, 0])
    let gymID = try #require(try machine.todo(uuid(tomorrow))?["id"] as? Int)
    try machine.ootd(["edit", String(gymID), "--title", "Gym at 7", "--priority", "high"])
    #expect(try machine.sync() == [1, 0, 0, 0])
    let gym = try server.phoneGet(uuid(tomorrow)).ics.replacingOccurrences(of: "\r\n ", with: "")
    #expect(gym.contains("X-PHONE-COLOR:teal") && gym.contains("BEGIN:VALARM") && gym.contains("END:VALARM"))
    #expect(gym.contains("SUMMARY:Gym at 7\r\n") && gym.contains("PRIORITY:1\r\n"))
    #expect(try machine.sync() == [0, 0, 0, 0])

    // `ootd undo` takes a whole CalDAV sync back; the next sync pushes the undo.
    try server.phone("retitle", uuid(tomorrow), "Gym from the phone")
    try server.phone("untick", uuid(past))
    #expect(try machine.sync() == [0, 2, 0, 0])
    try machine.ootd(["undo"])
    #expect(try machine.todo(uuid(tomorrow))?["title"] as? String == "Gym at 7")
    #expect(try machine.todo(uuid(past))?["done"] as? Bool == true)
    #expect(try machine.sync() == [2, 0, 0, 0])
    #expect(try server.phoneGet(uuid(tomorrow)).ics.contains("SUMMARY:Gym at 7\r\n"))
    #expect(try server.phoneGet(uuid(past)).ics.contains("STATUS:COMPLETED\r\n"))
    #expect(try machine.sync() == [0, 0, 0, 0])

    // Deleted in ootd: deleted on the server.
    try machine.ootd(["rm", String(gymID), "--yes"])
    #expect(try machine.sync() == [1, 0, 0, 0])
    #expect(!(try server.phoneList().contains { $0.uid == uuid(tomorrow) }))
    let status = try #require(try machine.json(["caldav", "status", "--json"]) as? [String: Any])
    #expect(status["waiting"] as? Int == 0)
    #expect(status["user"] as? String == server.user)
  }

  @Test(arguments: kinds)
  func aWrongPasswordOrNoneChangesNothing(_ kind: CalDAVServer.Kind) throws {
    let server = try CalDAVServer(kind)
    defer { server.stop() }
    let machine = Machine(folder: try TemporaryFolder(), server: server)
    _ = try machine.add("One", on: TestClock.day())
    let path = machine.folder.file("ootd.sqlite")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let wrong = try BinaryTests.run(
      ["caldav", "set", server.collectionURL.absoluteString, "--user", server.user],
      environment: machine.environment.merging(["OOTD_CALDAV_PASSWORD": "wrong-one"]) { $1 })
    #expect(wrong.code == 1)
    #expect(wrong.stderr.split(separator: "\n").count == 1 && wrong.stderr.contains("401"))
    #expect(!wrong.stderr.contains("wrong-one"))
    var none = machine.environment
    none["OOTD_CALDAV_PASSWORD"] = nil
    let missing = try BinaryTests.run(
      ["caldav", "set", server.collectionURL.absoluteString, "--user", server.user], environment: none)
    #expect(missing.code == 64)
    #expect(missing.stderr.hasPrefix("ootd: error: no CalDAV password"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}
