import Foundation
import TestTags
import Testing

/// Output that cannot be written (standard output on a full disk) follows one rule for every
/// command: a command that exits non-zero has changed nothing, the journal included (the
/// database's `sqlite3 .dump` is byte-identical); one that changed something keeps the change,
/// exits 0 and says on standard error, in one line, that only its output failed.
@Suite(.tags(.binary)) struct OutputFailureTests {
  static func toFullDisk(_ arguments: [String], _ env: [String: String]) throws -> BinaryTests.Result {
    let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    defer { try? full.close() }
    return try BinaryTests.run(arguments, environment: env, standardOutput: full)
  }

  /// The whole database as SQL text (rows, sequences, the journal).
  static func dump(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, ".dump"]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }

  /// A database with open and done todos on two days, a project and a dropped todo.
  static func setUp(_ env: [String: String]) throws {
    for arguments in [
      ["add", "keep"], ["add", "old", "--on", "2026-11-20"], ["add", "done one"], ["done", "3"],
      ["project", "add", "p"], ["add", "given up", "--on", "2026-11-19"], ["drop", "4"],
    ] {
      let result = try BinaryTests.run(arguments, environment: env)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
    }
  }

  @Test(arguments: [
    ["add", "x"], ["add", "x", "--json"], ["done", "1"], ["done", "1", "--json"], ["undone", "3"],
    ["edit", "1", "--title", "renamed"], ["rm", "1", "--yes"], ["project", "add", "q"],
    ["block", "add", "reading", "Read a chapter"], ["carry"], ["carry", "--json"], ["drop", "2"],
    ["note", "1", "a line"], ["undo"], ["list"], ["list", "--all", "--json"], ["report", "--json"],
  ])
  func everyCommand_failsWithNothingChanged_orSucceedsSayingOnlyTheOutputFailed(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    let env = ["OOTD_DB": path]
    try Self.setUp(env)
    let before = try Self.dump(path)
    let result = try Self.toFullDisk(arguments, env)
    let after = try Self.dump(path)
    #expect([0, 1].contains(result.code), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    if result.code == 0 {
      #expect(after != before, "exit 0 after a failed output must mean a change was made")
      #expect(
        result.stderr.hasPrefix("ootd: warning: cannot write the output (")
          && result.stderr.contains(arguments == ["undo"] ? "'ootd redo' takes it back" : "'ootd undo' takes it back"),
        "\(result.stderr)")
    } else {
      #expect(after == before, "a failed command changed the database")
      #expect(result.stderr.hasPrefix("ootd: error: cannot write the output: "), "\(result.stderr)")
    }
  }

  @Test(arguments: [["list"], ["report", "--json"], ["log"]])
  func readingCommands_fail(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    try Self.setUp(env)
    let result = try Self.toFullDisk(arguments, env)
    #expect(result.code == 1, "\(result.stderr)")
  }

  @Test func add_keepsItsChange_andSaysHowToTakeItBack() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "keep"], environment: env).code == 0)
    let result = try Self.toFullDisk(["add", "x", "--json"], env)
    #expect(result.code == 0, "\(result.stderr)")
    let listed = try BinaryTests.run(["list", "--all", "--json"], environment: env)
    let todos = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(todos.map { $0["title"] as? String } == ["keep", "x"])
    // The journal has the change and nothing else: 'ootd undo' takes it back.
    let log = try BinaryTests.run(["log", "--json"], environment: env)
    let entries = try #require(JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
    #expect(entries.map { $0["command"] as? String } == ["add x --json", "add keep"])
    #expect(try BinaryTests.run(["undo"], environment: env).code == 0)
  }
}
