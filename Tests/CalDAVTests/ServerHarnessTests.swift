import CalDAVSupport
import Foundation
import TestTags
import Testing

/// The harness itself: each real server starts, takes a phone's VTODO and keeps what the phone
/// added to it, refuses a second create of the same UID, and is gone after stop().
@Suite(.tags(.network))
struct ServerHarnessTests {
  @Test(arguments: CalDAVServer.Kind.allCases.filter(CalDAVServer.available))
  func phoneAddsEditsAndDeletes_onARealServer(_ kind: CalDAVServer.Kind) throws {
    let server = try CalDAVServer(kind)
    #expect(try server.phoneList().isEmpty)
    try server.phone("add", "uid-harness-1", "Buy milk", "20261127")
    try server.phone("tick", "uid-harness-1")
    try server.phone("set", "uid-harness-1", "X-PHONE-COLOR", "red")
    try server.phone("alarm", "uid-harness-1")
    let resource = try server.phoneGet("uid-harness-1")
    #expect(resource.ics.contains("STATUS:COMPLETED"))
    #expect(resource.ics.contains("X-PHONE-COLOR:red"))
    #expect(resource.ics.contains("BEGIN:VALARM"))
    #expect(resource.ics.contains("DTSTART;VALUE=DATE:20261127"))
    #expect(try server.phoneList().map(\.uid) == ["uid-harness-1"])
    // A second create of the same UID meets If-None-Match: *.
    #expect(throws: CalDAVServer.PhoneFailed.self) { try server.phone("add", "uid-harness-1", "Again") }
    try server.phone("delete", "uid-harness-1")
    #expect(try server.phoneList().isEmpty)
    // stop() ends the server: the phone finds nobody there.
    server.stop()
    #expect(throws: CalDAVServer.PhoneFailed.self) { try server.phoneList() }
  }
}
