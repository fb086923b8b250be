import Foundation
import Testing

/// `ootd demo --db PATH` fills only a new or empty database.
@Suite struct DemoBinaryTests {
  @Test(arguments: [["add", "mine"], ["project", "add", "work"], ["block", "add", "reading", "Read a chapter"]])
  func aDatabaseWithTheUsersData_isRefused_andLeftByteIdentical(setup: [String]) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("real.sqlite")
    let made = try BinaryTests.run(setup + ["--db", path])
    #expect(made.code == 0, "\(made.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let demo = try BinaryTests.run(["demo", "--db", path, "--quiet"])
    #expect(demo.code == 1)
    #expect(demo.stderr.hasPrefix("ootd: error: "), "\(demo.stderr)")
    #expect(demo.stderr.split(separator: "\n").count == 1, "\(demo.stderr)")
    #expect(demo.stdout.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aNewOrEmptyDatabase_isFilled() throws {
    let folder = try TemporaryFolder()
    let empty = folder.file("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    for path in [folder.file("new.sqlite"), empty] {
      let demo = try BinaryTests.run(["demo", "--db", path, "--days", "3", "--quiet"])
      #expect(demo.code == 0, "\(demo.stderr)")
      #expect(demo.stdout == path + "\n")
    }
  }
}
