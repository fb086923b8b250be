import Core
import Testing

/// Issue 24 §3: a machine's name is outside text wherever it comes from (a host name, the
/// user, another machine's record): sanitised and capped before it is stored or shown, and it
/// travels inside the payload, which still reads without it.
@Suite("Device names")
struct DeviceNameTests {
  @Test("control and format characters dropped, white space runs one space, trimmed, at most 40 characters")
  func sanitised() {
    #expect(DeviceName.sanitised("desktop") == "desktop")
    #expect(DeviceName.sanitised("  my\t\tlaptop \n") == "my laptop")
    #expect(DeviceName.sanitised("\u{1B}[2J\u{1B}]0;pwn\u{07}box") == "[2J ]0;pwn box")
    #expect(DeviceName.sanitised("evil\u{202E}txt.exe\u{200B}") == "eviltxt.exe")
    #expect(DeviceName.sanitised("\u{9B}31mred") == "31mred")
    #expect(DeviceName.sanitised(" \u{07}\t ") == nil)
    #expect(DeviceName.sanitised("") == nil)
    let long = String(repeating: "é", count: 100)
    #expect(DeviceName.sanitised(long) == String(repeating: "é", count: 40))
    #expect(DeviceName.sanitised(long, cappedAt: .max)?.count == 100)
    // Cut at 40 characters, a trailing space is not kept.
    #expect(DeviceName.sanitised(String(repeating: "a", count: 39) + " b") == String(repeating: "a", count: 39))
  }

  @Test("the default name is the host name up to its first dot")
  func fromHost() {
    #expect(DeviceName.fromHost("desktop.local") == "desktop")
    #expect(DeviceName.fromHost("laptop") == "laptop")
    #expect(DeviceName.fromHost(".hidden") == nil)
    #expect(DeviceName.fromHost("") == nil)
  }

  static let operation = SyncOperation(
    .todo, row: "5e55e4c0-86c9-4f5c-a8f2-3f3d3c1e9a11", .update(field: "title", value: .text("Read")),
    stamp: Stamp(clock: 42, device: "d"))

  @Test("the name travels inside the payload; a payload without one (an older ootd) still reads")
  func inThePayload() throws {
    let payload = SyncPayload.encode(command: "edit 1", from: "desktop", [Self.operation])
    #expect(payload.contains("\"from\":\"desktop\""))
    let batch = try SyncPayload.decode(payload, device: "d")
    #expect(batch.from == "desktop" && batch.operations == [Self.operation] && batch.command == "edit 1")
    let old = SyncPayload.encode(command: "edit 1", [Self.operation])
    #expect(!old.contains("\"from\""))
    let oldBatch = try SyncPayload.decode(old, device: "d")
    #expect(oldBatch.from == nil && oldBatch.operations == [Self.operation])
    // chunks carry it in every chunk.
    let chunks = SyncPayload.chunks(command: "c", from: "desktop", Array(repeating: Self.operation, count: Caps.operationsPerRecord + 1))
    #expect(chunks.count == 2 && chunks.allSatisfy { $0.payload.contains("\"from\":\"desktop\"") })
  }

  @Test("a name another machine sent is sanitised when it is read")
  func hostileName() throws {
    let payload = #"{"v":1,"command":"x","from":"\u001b]0;pwn\u0007 box\u202e","ops":[]}"#
    #expect(try SyncPayload.decode(payload, device: "d").from == "]0;pwn box")
    let blank = #"{"v":1,"command":"x","from":"\u0007","ops":[]}"#
    #expect(try SyncPayload.decode(blank, device: "d").from == nil)
    let notText = #"{"v":1,"command":"x","from":7,"ops":[]}"#
    #expect(try SyncPayload.decode(notText, device: "d").from == nil)
  }
}
