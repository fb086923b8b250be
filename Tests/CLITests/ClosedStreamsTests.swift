import Foundation
import TestTags
import Testing

/// A command started with standard input, output or error closed (`<&-`, `>&-`) never takes a
/// file it opened itself for one of them: `ootd import todotxt - <&-` read the database's own
/// header as the import ("line 2: the title is longer than 500 characters").
@Suite(.tags(.binary)) struct ClosedStreamsTests {
  /// Runs `ootd ARGUMENTS` through the shell with `redirections` (`<&-`), pinned as every test
  /// runs it; its standard error (or nothing, when it is closed) and its exit code.
  static func run(_ arguments: [String], _ redirections: String, database: String, errors: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // "$@" keeps every argument one word; the redirections apply to ootd alone.
    process.arguments = ["-c", "exec \"$@\" --db '\(database)' 2>>'\(errors)' \(redirections)", "sh", BinaryTests.binary] + arguments
    process.environment = BinaryTests.inherited([:])
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  @Test func closedStandardInput_readsNothing_notTheDatabase() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["add", "Kept as it was", "--db", database]).code == 0)
    let errors = folder.file("stderr")
    for format in ["todotxt", "taskwarrior"] {
      let code = try Self.run(["import", format, "-"], "<&-", database: database, errors: errors)
      let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      #expect(code == 0, "\(format): \(said)")
      #expect(!said.contains("longer than") && !said.contains("invalid JSON"), "\(said)")
    }
    let listed = try BinaryTests.run(["list", "--all", "--json", "--db", database])
    let todos = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(todos.map { $0["title"] as? String } == ["Kept as it was"])
  }

  @Test func closedStandardOutput_neverWritesIntoAFileOotdOpened() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["add", "One", "--db", database]).code == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let errors = folder.file("stderr")
    let code = try Self.run(["list", "--all"], ">&-", database: database, errors: errors)
    #expect(code == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    #expect(try BinaryTests.run(["list", "--all", "--json", "--db", database]).code == 0)
  }
}
