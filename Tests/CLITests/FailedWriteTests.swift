import Foundation
import TestTags
import Testing

/// A writing command that fails before committing anything leaves no database behind.
@Suite(.tags(.binary)) struct FailedWriteTests {
  @Test(arguments: [["done", "1"], ["edit", "1", "--title", "x"], ["project", "rm", "nope", "--yes"]])
  func aFailingCommand_onAMissingDatabase_leavesNoFileNorFolder(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("brand/new.sqlite")
    let result = try BinaryTests.run(arguments + ["--db", path])
    #expect(result.code != 0)
    #expect(result.stderr.hasPrefix("ootd: error: "), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("brand")))
  }

  @Test func aFailingCommand_onAnEmptyFile_leavesItEmpty() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("touched.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let result = try BinaryTests.run(["done", "1", "--db", path])
    #expect(result.code == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["touched.sqlite"])
  }

  @Test func aSucceedingCommand_keepsTheDatabase_andAFailingOneKeepsAnExistingDatabase() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("brand/new.sqlite")
    #expect(try BinaryTests.run(["add", "keep", "--db", path]).code == 0)
    #expect(try BinaryTests.run(["done", "7", "--db", path]).code == 1)
    let listed = try BinaryTests.run(["list", "--all", "--json", "--db", path])
    #expect(listed.stdout.contains("\"title\" : \"keep\""), "\(listed.stdout) \(listed.stderr)")
  }
}
