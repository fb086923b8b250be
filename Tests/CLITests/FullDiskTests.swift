import Foundation
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A nearly full disk never costs data: a command that reported success left a database the
/// next command opens, a failed one changed nothing, and no message advises moving a `-wal`
/// away (issue 21, item 1). The database lives on a small tmpfs filled with a ballast file to
/// several levels; mounting needs root, which CI has (`CI=true` fails instead of skipping).
@Suite(.tags(.binary), .serialized) struct FullDiskTests {
  static let canMount: Bool = {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/mount")
  }()

  static func shell(_ command: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  @Test(
    .enabled(
      if: canMount || ProcessInfo.processInfo.environment["CI"] == "true",
      "mounting a tmpfs needs root: the full-disk test is skipped outside CI"),
    arguments: [100, 300, 500, 700])
  func nearlyFullDisk_neverDisownsItsLog(ballastKiB: Int) throws {
    #expect(Self.canMount, "CI runs as root: mounting a tmpfs must work")
    let folder = try TemporaryFolder()
    let disk = folder.file("disk")
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    try #require(try Self.shell("mount -t tmpfs -o size=1200k tmpfs '\(disk)'") == 0)
    defer { _ = try? Self.shell("umount '\(disk)'") }
    try #require(
      try Self.shell("dd if=/dev/zero of='\(disk)/ballast' bs=1k count=\(ballastKiB) 2>/dev/null") == 0)
    let lines = (1...300).map { "task number \($0) with some words +proj @ctx" }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: folder.file("t300.txt"), atomically: true, encoding: .utf8)
    let environment = ["OOTD_DB": disk + "/db.sqlite", "TZ": "UTC"]

    let imported = try BinaryTests.run(["import", "todotxt", folder.file("t300.txt")], environment: environment)
    #expect([0, 1].contains(imported.code), "\(imported.stderr)")
    if imported.code == 1 {
      #expect(imported.stderr.contains("no space left"), "\(imported.stderr)")
      #expect(imported.stderr.split(separator: "\n").count == 1, "\(imported.stderr)")
    }
    // The next command opens the database, full disk or not, and never says to move the log.
    let listed = try BinaryTests.run(["list", "--all", "--json"], environment: environment)
    #expect(!listed.stderr.contains("-wal"), "\(listed.stderr)")
    if listed.code == 0 {
      let todos = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any]
      #expect(todos?.count == (imported.code == 0 ? 300 : 0))
    } else {
      #expect(listed.stderr.contains("no space left"), "\(listed.stderr)")
    }
    // Once there is room again, everything the import reported is there, and ootd writes.
    unlink(disk + "/ballast")
    let added = try BinaryTests.run(["add", "after the disk was freed"], environment: environment)
    #expect(added.code == 0, "\(added.stderr)")
    let after = try BinaryTests.run(["list", "--all", "--json"], environment: environment)
    #expect(after.code == 0, "\(after.stderr)")
    let todos = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [Any]
    #expect(todos?.count == (imported.code == 0 ? 301 : 1))
  }
}
