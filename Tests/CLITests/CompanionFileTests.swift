import Foundation
import TestTags
import Testing

/// Issue 11 item 3: a `-shm` (or `-wal`) beside the database that is a folder made `add` say
/// "the file is read-only" and leave an empty `-wal`. Now every command refuses it in one line
/// that names it, and the database and the folder around it stay as they were.
@Suite(.tags(.binary)) struct CompanionFileTests {
  @Test(arguments: ["-shm", "-wal"], [["add", "b"], ["list"], ["done", "1"]])
  func companionThatIsAFolder_isNamed_andNothingChanges(suffix: String, arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    let env = ["OOTD_DB": path, "TZ": "UTC"]
    #expect(try BinaryTests.run(["add", "a"], environment: env).code == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    try FileManager.default.createDirectory(atPath: path + suffix, withIntermediateDirectories: false)
    let entriesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

    let result = try BinaryTests.run(arguments, environment: env)
    #expect(result.code == 1, "\(arguments)")
    #expect(result.stderr == "ootd: error: cannot open database '\(path)': its \(suffix) file is a folder; move it away\n")
    #expect(result.stdout.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    // No empty -wal (or -shm) left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == entriesBefore)
  }
}
