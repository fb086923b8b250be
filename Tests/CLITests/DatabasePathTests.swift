import Foundation
import TestTags
import Testing

/// The database path as users type it, run through the built binary.
@Suite(.tags(.binary)) struct DatabasePathTests {
  @Test func aOneCharacterRelativePath_isAFileInTheCurrentFolder_notACrash() throws {
    let folder = try TemporaryFolder()
    let added = try BinaryTests.run(["add", "x", "--db", "b"], directory: folder.path)
    #expect(added.code == 0, "\(added.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.file("b")))
    let listed = try BinaryTests.run(["list", "--db", "b", "--json"], directory: folder.path)
    #expect(listed.code == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains("\"title\" : \"x\""))
    let fromVariable = try BinaryTests.run(["add", "hi"], environment: ["OOTD_DB": "z"], directory: folder.path)
    #expect(fromVariable.code == 0, "\(fromVariable.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.file("z")))
  }

  @Test func anEmptyOOTD_DB_isRefusedLikeAnEmptyDb() async throws {
    var h = try Harness()
    h.variables["OOTD_DB"] = ""
    let result = await h.run(["add", "x"])
    #expect(result.code == 64)
    #expect(result.stderr == "ootd: error: OOTD_DB is empty: unset it or give a file path\n")
    #expect(await h.run(["add", "x", "--db", ""]).stderr == "ootd: error: --db needs a file path\n")
  }

  /// Issue 21, item 10: a FIFO (or a device) as the database is refused in one line before
  /// anything opens it: `list --db fifo` waited for a writer forever.
  @Test func aFIFOOrADevice_asTheDatabase_isRefusedInOneLine_neverWaitedOn() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.file("fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    let refusal = "ootd: error: cannot open database '\(fifo)': it is a FIFO (named pipe), not a regular file\n"
    for arguments in [["list", "--db", fifo], ["add", "x", "--db", fifo], ["today", "--db", fifo]] {
      let result = try BinaryTests.run(arguments, hangGuard: 60)
      #expect(result.code == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr == refusal, "\(arguments)")
    }
    let fromVariable = try BinaryTests.run(["list"], environment: ["OOTD_DB": fifo], hangGuard: 60)
    #expect(fromVariable.code == 1)
    #expect(fromVariable.stderr == refusal)
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    let device = try BinaryTests.run(["add", "x", "--db", "/dev/null"], hangGuard: 60)
    #expect(device.code == 1)
    #expect(device.stderr == "ootd: error: cannot open database '/dev/null': it is a device, not a regular file\n")
  }
}
