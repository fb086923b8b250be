import Foundation
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A database the user may not write (mode 0400 in a read-only folder: a backup, a mounted
/// snapshot) can still be read; writing commands fail with one line and change nothing. Runs as
/// nobody when the tests run as root, since root writes whatever the permission bits say.
@Suite(.tags(.binary)) struct ReadOnlyDatabaseTests {
  /// A folder holding an ootd database with one todo, both made read-only (and nobody's when the
  /// tests run as root). Returns the database path.
  private static func readOnlyDatabase(_ folder: TemporaryFolder) throws -> String {
    let locked = folder.file("snapshot")
    let path = locked + "/ootd.sqlite"
    #expect(try BinaryTests.run(["project", "add", "beta", "--db", path]).code == 0)
    let added = try BinaryTests.run(["add", "Backed up", "--project", "beta", "--db", path])
    #expect(added.code == 0, "\(added.stderr)")
    if getuid() == 0 {
      chown(locked, 65534, 65534)
      chown(path, 65534, 65534)
    }
    chmod(folder.path, 0o755)
    chmod(path, 0o400)
    chmod(locked, 0o555)
    return path
  }

  private static func snapshot(_ folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return files
  }

  @Test(arguments: [
    ["list", "--json"], [], ["today"], ["report"], ["graph"], ["project", "list"], ["project", "show", "beta"],
    ["github", "status"], ["block", "list"], ["log"],
  ])
  func aReadingCommand_readsAReadOnlyDatabase(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let path = try Self.readOnlyDatabase(folder)
    defer { chmod(folder.file("snapshot"), 0o755) }
    let before = try Self.snapshot(folder.file("snapshot"))
    let result = try BinaryTests.run(arguments + ["--db", path], unprivileged: true)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    if arguments.first == "list" { #expect(result.stdout.contains("Backed up")) }
    #expect(try Self.snapshot(folder.file("snapshot")) == before)
  }

  @Test(arguments: [["add", "more"], ["done", "1"], ["project", "add", "gamma"], ["block", "add", "deep", "Deep work"]])
  func aWritingCommand_failsInOneLineAndChangesNothing(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let path = try Self.readOnlyDatabase(folder)
    defer { chmod(folder.file("snapshot"), 0o755) }
    let before = try Self.snapshot(folder.file("snapshot"))
    let result = try BinaryTests.run(arguments + ["--db", path], unprivileged: true)
    #expect(result.code == 1)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.contains("read-only"), "\(result.stderr)")
    #expect(try Self.snapshot(folder.file("snapshot")) == before)
  }
}
