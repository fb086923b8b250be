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
