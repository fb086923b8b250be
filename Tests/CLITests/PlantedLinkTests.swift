@testable import CLI
import Foundation
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Output files and the database cannot be redirected by links another local user planted.
@Suite(.tags(.binary)) struct PlantedLinkTests {
  @Test func anSVG_neverWritesThroughALinkPlantedAtTheOldTemporaryName() throws {
    let folder = try TemporaryFolder()
    let victim = folder.file("victim.txt")
    try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
    let path = folder.file("graph.svg")
    symlink(victim, path + ".ootd-\(getpid()).tmp")
    try AppEnvironment.writeAtomically(path, "<svg/>\n")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "<svg/>\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["graph.svg", "graph.svg.ootd-\(getpid()).tmp", "victim.txt"], "no temporary file is left")
  }

  /// Issue 21, item 16: `report --svg` (and `export --output`) wrote mode 0644 whatever the
  /// umask; a new file gets 0666 less the umask, as the shell's `>` gives it.
  @Test(arguments: [("077", 0o600), ("022", 0o644), ("027", 0o640)])
  func aWrittenFile_honoursTheUmask(umask: String, mode: Int) throws {
    let folder = try TemporaryFolder()
    let env = "OOTD_DB=\(folder.file("ootd.sqlite")) TZ=UTC"
    for arguments in ["report --svg \(folder.file("a.svg"))", "export --format todotxt --output \(folder.file("a.txt"))"] {
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      shell.arguments = ["-c", "umask \(umask) && env \(env) '\(BinaryTests.binary)' \(arguments) >/dev/null"]
      try shell.run()
      shell.waitUntilExit()
      #expect(shell.terminationStatus == 0, "\(arguments)")
    }
    for name in ["a.svg", "a.txt"] {
      var status = stat()
      #expect(stat(folder.file(name), &status) == 0)
      #expect(Int(status.st_mode & 0o777) == mode, "\(name) under umask \(umask): \(String(status.st_mode & 0o777, radix: 8))")
    }
  }

  @Test func anSVG_intoAFIFO_isWrittenToIt_notReplacingIt() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.file("pipe")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    try AppEnvironment.writeAtomically(fifo, "<svg/>\n")
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(reader, &buffer, buffer.count)
    #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "<svg/>\n")
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
  }

  @Test func anSVG_ontoAFolderOrSocket_isRefused() throws {
    let folder = try TemporaryFolder()
    #expect(throws: CLIError.self) { try AppEnvironment.writeAtomically(folder.path, "<svg/>") }
    let result = try BinaryTests.run(["graph", "--svg", folder.path, "--db", folder.file("db.sqlite")])
    #expect(result.code == 1)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
  }

  @Test(.disabled(if: getuid() != 0, "planting another user's link needs root"))
  func aDatabasePath_thatIsAnotherUsersLink_isRefused() throws {
    let folder = try TemporaryFolder()
    let target = folder.file("target.sqlite")
    let link = folder.file("link.sqlite")
    #expect(symlink(target, link) == 0)
    #expect(lchown(link, 65534, 65534) == 0)
    let result = try BinaryTests.run(["add", "x", "--db", link])
    #expect(result.code == 1)
    #expect(result.stderr.contains("symbolic link owned by another user"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test func aDatabasePath_inAWorldWritableFolderWithoutTheStickyBit_isRefused() throws {
    let folder = try TemporaryFolder()
    let shared = folder.file("shared")
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    chmod(shared, 0o777)
    let result = try BinaryTests.run(["add", "x", "--db", shared + "/ootd.sqlite"])
    #expect(result.code == 1)
    #expect(result.stderr.contains("writable by anyone and not sticky"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: shared).isEmpty)
    chmod(shared, 0o1777)
    #expect(try BinaryTests.run(["add", "x", "--db", shared + "/ootd.sqlite"]).code == 0, "sticky is fine")
  }
}

/// `export --output` (and every file ootd writes) onto what is already there, found by a tryout:
/// the user's own link (a todo.txt kept in a synced folder) was replaced by a plain file, a
/// private 0600 file became 0644, and the database itself was replaced by the export.
@Suite(.tags(.binary)) struct OutputFileTests {
  @Test func theUsersOwnLink_isWrittenThrough_andStaysALink() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["add", "Through the link", "--db", database]).code == 0)
    let real = folder.file("real.txt")
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
    #expect(symlink("real.txt", folder.file("link.txt")) == 0)
    let result = try BinaryTests.run(["export", "--format", "todotxt", "--output", folder.file("link.txt"), "--db", database])
    #expect(result.code == 0, "\(result.stderr)")
    var status = stat()
    #expect(lstat(folder.file("link.txt"), &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
    #expect(try String(contentsOfFile: real, encoding: .utf8).contains("Through the link"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["link.txt", "ootd.sqlite", "real.txt"], "no temporary file is left")
  }

  @Test func aReplacedFile_keepsItsMode() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["add", "Private", "--db", database]).code == 0)
    let file = folder.file("private.txt")
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: file))
    chmod(file, 0o600)
    #expect(try BinaryTests.run(["export", "--format", "todotxt", "--output", file, "--db", database]).code == 0)
    var status = stat()
    #expect(stat(file, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600, "\(String(status.st_mode & 0o777, radix: 8))")
    #expect(try String(contentsOfFile: file, encoding: .utf8).contains("Private"))
  }

  @Test func theDatabase_isNeverWrittenOver() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["add", "Kept", "--db", database]).code == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    for format in ["json", "todotxt"] {
      let result = try BinaryTests.run(["export", "--format", format, "--output", database, "--db", database])
      #expect(result.code == 1)
      #expect(result.stderr.contains("it is an SQLite database"), "\(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    // Another database by a link of the user's own, and a graph's SVG, the same.
    #expect(symlink(database, folder.file("db-link")) == 0)
    let graph = try BinaryTests.run(["graph", "--svg", folder.file("db-link"), "--db", database])
    #expect(graph.code == 1, "\(graph.stdout)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
  }

  @Test func aLinkToNothing_isRefused() throws {
    let folder = try TemporaryFolder()
    #expect(symlink(folder.file("missing/target.txt"), folder.file("dangling.txt")) == 0)
    let result = try BinaryTests.run(
      ["export", "--format", "todotxt", "--output", folder.file("dangling.txt"), "--db", folder.file("ootd.sqlite")])
    #expect(result.code == 1)
    #expect(result.stderr.contains("a symbolic link to a file that does not exist"), "\(result.stderr)")
  }

  @Test(.disabled(if: getuid() != 0, "planting another user's link needs root"))
  func anotherUsersLink_isRefused() throws {
    let folder = try TemporaryFolder()
    let target = folder.file("victim.txt")
    try Data("precious\n".utf8).write(to: URL(fileURLWithPath: target))
    let link = folder.file("out.txt")
    #expect(symlink(target, link) == 0)
    #expect(lchown(link, 65534, 65534) == 0)
    #expect(throws: CLIError.self) { try AppEnvironment.writeAtomically(link, "x\n") }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
  }
}
