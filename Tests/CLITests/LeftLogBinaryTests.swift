import Foundation
import TestTags
import Testing

/// The first dashboard of a day plans the routine and leaves its write-ahead log behind, marked
/// (docs/decisions/routine-durability.md); commands that only read keep it; the next change
/// checkpoints it. Through the built binary, as a user runs it.
@Suite("The first dashboard of a day leaves its log", .tags(.binary))
struct LeftLogBinaryTests {
  private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  @Test func firstDashboard_leavesItsLog_readsKeepIt_aChangeCheckpointsIt() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    let monday = ["OOTD_DB": path, "TZ": "UTC", "OOTD_NOW": "2026-11-23T09:00:00Z"]
    let tuesday = monday.merging(["OOTD_NOW": "2026-11-24T09:00:00Z"]) { $1 }
    #expect(try BinaryTests.run(["block", "routine", "algorithm"], environment: monday).code == 0)
    #expect(!exists(path + "-wal"))
    // The first dashboard of Tuesday plans its todo and leaves the log with its marker.
    let shown = try BinaryTests.run(["--no-color"], environment: tuesday)
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("Solve an algorithm problem"))
    #expect(exists(path + "-wal") && exists(path + "-wal.ootd"))
    // A reading command reads through it and leaves it as it was.
    let listed = try BinaryTests.run(["list", "--json"], environment: tuesday)
    #expect(listed.code == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains(#""block" : "algorithm""#), "\(listed.stdout)")
    #expect(exists(path + "-wal") && exists(path + "-wal.ootd"))
    // The day's first change checkpoints it: no log, no marker, the plan kept (planned once).
    #expect(try BinaryTests.run(["add", "Read"], environment: tuesday).code == 0)
    #expect(!exists(path + "-wal") && !exists(path + "-wal.ootd"))
    let after = try BinaryTests.run(["list", "--json"], environment: tuesday)
    #expect(after.stdout.components(separatedBy: #""block" : "algorithm""#).count == 2, "\(after.stdout)")
    #expect(after.stdout.contains("Read"))
  }
}
