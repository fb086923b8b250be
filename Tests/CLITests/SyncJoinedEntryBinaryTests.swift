import Foundation
import PostgresSupport
import TestTags
import Testing

/// Issue 24 §3: one change on one machine is one `ootd log` entry on every machine, however
/// many records it travels as and however the pull that brings them is cut (two machines, real
/// PostgreSQL, the built binary).
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SyncJoinedEntryBinaryTests {
  /// A Taskwarrior export of `count` pending tasks.
  static func export(_ count: Int) -> String {
    "["
      + (0..<count).map { index in
        #"{"uuid":"\#(String(format: "e0000000-0000-4000-8000-%012d", index))","description":"task \#(index)","status":"pending","entry":"20261120T090000Z","project":"p\#(index % 2)"}"#
      }.joined(separator: ",\n") + "]\n"
  }

  @Test("an import of 2,500 tasks on the laptop is one entry from laptop on the desktop, its sync killed between the records and run again")
  func importIsOneEntry() throws {
    let m = try SyncMachines()
    try m.run("a", "remote", "name", "laptop")
    try m.sync("a")
    try m.sync("b")
    let file = m.folder.file("tasks.json")
    try Self.export(2_500).write(toFile: file, atomically: true, encoding: .utf8)
    let imported = try m.run("a", "import", "taskwarrior", file)
    #expect(imported.code == 0, "\(imported.stderr)")
    let own = try #require(try LogFromDeviceBinaryTests.log(m, "a").first)
    let pushed = try m.sync("a")
    #expect(pushed["pushedRecords"] as? Int ?? 3 >= 3, "\(pushed)")

    // The desktop pulls a record at a time, each committed alone, and is killed after the first.
    let paged = m.environment("b").merging(["OOTD_PULL_PAGE": "1"]) { $1 }
    let killed = try BinaryTests.run(
      ["remote", "sync"], environment: paged.merging(["OOTD_FAULT": "remote-pull-applied:1"]) { $1 })
    #expect(killed.code != 0)
    let rerun = try BinaryTests.run(["remote", "sync", "--json"], environment: paged)
    #expect(rerun.code == 0, "\(rerun.stderr)")

    let fromLaptop = try LogFromDeviceBinaryTests.log(m, "b").filter { $0["fromDeviceName"] as? String == "laptop" }
    let imports = fromLaptop.filter { ($0["command"] as? String)?.hasPrefix("import taskwarrior") == true }
    #expect(imports.count == 1, "\(imports)")
    // What the whole import did, as the laptop's own entry says it.
    #expect(imports.first?["summary"] as? String == own["summary"] as? String, "\(imports) \(own)")
    #expect((own["summary"] as? String)?.contains("2500 todos") == true, "\(own)")
    #expect(try m.todos("b").count == 2_500)
    let text = try m.run("b", "log", "--no-color").stdout
    #expect(text.split(separator: "\n").filter { $0.contains("import taskwarrior") && $0.hasSuffix("from laptop") }.count == 1, "\(text)")
  }
}
