import Foundation
import TestTags
import Testing

/// `ootd demo --db PATH` fills only a new or empty database.
@Suite(.tags(.binary)) struct DemoBinaryTests {
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

  /// Issue 8: `demo` says how to remove the temporary folder it made, and a demo whose path
  /// never reached anyone (its output could not be written) removes the folder itself.
  @Test func aTemporaryDemo_saysHowToRemoveItsFolder_andAFailedOneLeavesNone() throws {
    let tmp = try TemporaryFolder()
    let shown = try BinaryTests.run(
      ["demo", "--days", "3", "--no-color"], environment: ["TMPDIR": tmp.path])
    #expect(shown.code == 0, "\(shown.stderr)")
    let made = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
    #expect(made.count == 1 && made[0].hasPrefix("ootd-demo-"), "\(made)")
    let folder = tmp.path + "/" + (made.first ?? "")
    #expect(shown.stdout.hasSuffix("When you are done, remove it:\n  rm -r \(folder)\n"), "\(shown.stdout)")
    // The printed command removes everything the demo made.
    let rm = Process()
    rm.executableURL = URL(fileURLWithPath: "/bin/rm")
    rm.arguments = ["-r", folder]
    try rm.run()
    rm.waitUntilExit()
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)

    let failed = try BinaryTests.run(
      ["demo", "--days", "3"], environment: ["TMPDIR": tmp.path],
      standardOutput: try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full")))
    #expect(failed.code == 1)
    #expect(failed.stderr == "ootd: error: cannot write the output: No space left on device\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
  }
}
