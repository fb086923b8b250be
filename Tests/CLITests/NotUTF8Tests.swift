import Foundation
import TestTags
import Testing

/// Arguments and path variables that are not UTF-8 (``RawText``): refused with one line and exit
/// 64, nothing created or changed, where Swift's decoding would have named another file or stored
/// another title.
@Suite(.tags(.binary)) struct NotUTF8Tests {
  /// Runs `ootd` through the shell, so that `script` can build arguments and variables from
  /// bytes (`printf '\377'`); `"$OOTD"` is the binary. Its standard error and exit code.
  static func run(_ script: String, in folder: String) throws -> (code: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.environment = BinaryTests.inherited(["OOTD": BinaryTests.binary])
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: said, as: UTF8.self))
  }

  static func entries(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  @Test func aDatabasePathNotUTF8_isRefused_noOtherFileMade() throws {
    let folder = try TemporaryFolder()
    let said = try Self.run(#""$OOTD" add Milk --db "$(printf 'caf\351.sqlite')""#, in: folder.path)
    #expect(said.code == 64)
    #expect(said.stderr == "ootd: error: argument 4 is not UTF-8 text ('caf\\xE9.sqlite'): ootd reads paths, titles and names as UTF-8\n")
    #expect(try Self.entries(folder.path) == [])
  }

  @Test func aTitleNotUTF8_isRefused_theDatabaseUnchanged() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["add", "Kept", "--db", database]).code == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let said = try Self.run(#""$OOTD" --db ootd.sqlite add "$(printf 'Tea \377\376 time')""#, in: folder.path)
    #expect(said.code == 64)
    #expect(said.stderr.contains("argument 4 is not UTF-8 text ('Tea \\xFF\\xFE time')"), "\(said.stderr)")
    #expect(said.stderr.split(separator: "\n").count == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
  }

  @Test func aPathVariableNotUTF8_isRefusedByName() throws {
    let folder = try TemporaryFolder()
    let said = try Self.run(#"OOTD_DB="$(printf 'x\300.sqlite')" "$OOTD" add Milk"#, in: folder.path)
    #expect(said.code == 64)
    #expect(said.stderr == "ootd: error: OOTD_DB is not UTF-8 text ('x\\xC0.sqlite'): ootd reads paths, titles and names as UTF-8\n")
    #expect(try Self.entries(folder.path) == [])
  }

  @Test func utf8PathsAndTitles_areTakenAsTheyAre() throws {
    let folder = try TemporaryFolder()
    let said = try Self.run(#""$OOTD" add "$(printf 'caf\303\251 ☕')" --db "$(printf 'caf\303\251.sqlite')""#, in: folder.path)
    #expect(said.code == 0, "\(said.stderr)")
    #expect(try Self.entries(folder.path).contains("café.sqlite"))
    let listed = try BinaryTests.run(["list", "--all", "--json", "--db", folder.file("café.sqlite")])
    let todos = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(todos.map { $0["title"] as? String } == ["café ☕"])
  }
}
