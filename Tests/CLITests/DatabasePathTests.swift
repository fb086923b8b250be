import Foundation
import Testing

/// The database path as users type it, run through the built binary.
@Suite struct DatabasePathTests {
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
}
