import Foundation
import Testing

/// A change whose output cannot be written (standard output on a full disk) is taken back.
@Suite struct OutputFailureTests {
  static func toFullDisk(_ arguments: [String], _ env: [String: String]) throws -> BinaryTests.Result {
    let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    defer { try? full.close() }
    return try BinaryTests.run(arguments, environment: env, standardOutput: full)
  }

  static func todosJSON(_ env: [String: String]) throws -> [[String: Any]] {
    let listed = try BinaryTests.run(["list", "--all", "--json"], environment: env)
    #expect(listed.code == 0, "\(listed.stderr)")
    return try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
  }

  @Test(arguments: [["add", "x", "--json"], ["add", "x"]])
  func add_withUnwritableOutput_failsAndStoresNothing(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "keep"], environment: env).code == 0)
    let result = try Self.toFullDisk(arguments, env)
    #expect(result.code == 1)
    #expect(result.stderr.hasPrefix("ootd: error: cannot write the output: "), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(try Self.todosJSON(env).map { $0["title"] as? String } == ["keep"])
  }

  /// On a database the command itself created, the take-back opens the file again: it once
  /// waited for ever on the lock its own first open still held exclusively.
  @Test func add_toANewDatabase_withUnwritableOutput_failsAndStoresNothing() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("new/ootd.sqlite")]
    let result = try Self.toFullDisk(["add", "x", "--json"], env)
    #expect(result.code == 1)
    #expect(result.stderr.hasSuffix("; the change was undone\n"), "\(result.stderr)")
    #expect(try Self.todosJSON(env).isEmpty)
  }

  @Test(arguments: [["carry"], ["carry", "--json"]])
  func carry_withUnwritableOutput_leavesTheTodosOnTheirDays(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    for title in ["a", "b"] {
      #expect(try BinaryTests.run(["add", title, "--on", "2026-01-0\(title == "a" ? 1 : 2)"], environment: env).code == 0)
    }
    let result = try Self.toFullDisk(arguments, env)
    #expect(result.code == 1)
    #expect(result.stderr.hasSuffix("; the change was undone\n"), "\(result.stderr)")
    #expect(try Self.todosJSON(env).map { $0["date"] as? String } == ["2026-01-01", "2026-01-02"])
  }

  @Test func done_withUnwritableOutput_leavesTheTodoOpen() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "keep"], environment: env).code == 0)
    let result = try Self.toFullDisk(["done", "1"], env)
    #expect(result.code == 1)
    #expect(try Self.todosJSON(env).first?["done"] as? Bool == false)
  }

  @Test func blockAdd_withUnwritableOutput_addsNoBlock() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "keep"], environment: env).code == 0)
    let result = try Self.toFullDisk(["block", "add", "reading", "Read a chapter"], env)
    #expect(result.code == 1)
    let blocks = try BinaryTests.run(["block", "list"], environment: env)
    #expect(!blocks.stdout.contains("reading"), "\(blocks.stdout)")
  }
}
