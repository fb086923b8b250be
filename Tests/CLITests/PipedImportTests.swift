import Foundation
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A piped import (`cat todo.txt | ootd import todotxt -`) tells no length: it used to be
/// parsed and written into the import's transaction until it passed the 1 GiB cap (a 1.1 GB
/// pipe: minutes and a 4 GB write-ahead log before the refusal). It is now copied to a private,
/// nameless file first (ImportSpool), refused as soon as the copy passes the cap, before a line
/// is read or the database opened, and otherwise imported from the copy as from a file. The cap
/// is lowered by the debug build's `OOTD_IMPORT_CAP` (see Sources/CLI/Environment/DebugSeams.swift).
@Suite(.tags(.binary)) struct PipedImportTests {
  let folder: TemporaryFolder
  /// `$TMPDIR` of the runs: a copy that went there would be seen.
  let temporary: TemporaryFolder
  let env: [String: String]
  let database: String

  init() throws {
    folder = try TemporaryFolder()
    temporary = try TemporaryFolder()
    database = folder.file("ootd.sqlite")
    env = ["OOTD_DB": database, "TZ": "UTC", "TMPDIR": temporary.path]
    let added = try BinaryTests.run(["add", "keep me"], environment: env)
    try #require(added.code == 0, "\(added.stderr)")
  }

  /// Runs `ootd arguments` with its standard input piped from `producer`, a shell command (its
  /// own errors, such as `yes` told of the closed pipe, go nowhere).
  func piped(_ producer: String, _ arguments: [String], _ variables: [String: String] = [:]) throws -> BinaryTests.Result {
    try shell("{ \(producer) ; } 2>/dev/null | \"$OOTD_TEST_BINARY\" \"$@\"", arguments, variables)
  }

  /// Runs `ootd arguments` with its standard input redirected from the regular file `file`.
  func redirected(_ file: String, _ arguments: [String], _ variables: [String: String]) throws -> BinaryTests.Result {
    try shell("\"$OOTD_TEST_BINARY\" \"$@\" < '\(file)'", arguments, variables)
  }

  /// Runs the shell command `line`, in which `"$OOTD_TEST_BINARY" "$@"` is `ootd arguments`.
  func shell(_ line: String, _ arguments: [String], _ variables: [String: String]) throws -> BinaryTests.Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", line, "sh"] + arguments
    process.environment = BinaryTests.inherited(
      env.merging(variables) { $1 }.merging(["OOTD_TEST_BINARY": BinaryTests.binary]) { $1 })
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return BinaryTests.Result(
      code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// Expects `result` to be one line on standard error holding `fragment` with exit `code`, the
  /// database byte for byte as `before`, and nothing else left in its folder or in `$TMPDIR`.
  func refused(_ result: BinaryTests.Result, code: Int32, _ fragment: String, before: Data) throws {
    #expect(result.code == code, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("ootd: error: ") && result.stderr.contains(fragment), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ootd.sqlite"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
  }

  /// An endless pipe past the cap is refused at the cap, before a line of it is read: its first
  /// line, which the import refuses (not UTF-8), is never reached, as it was when the pipe was
  /// read as it arrived (`line 1: not UTF-8 text`), and the database is never opened.
  @Test(arguments: ["todotxt", "taskwarrior"])
  func anEndlessPipePastTheCap_isRefusedBeforeALineIsRead(format: String) throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let result = try piped(
      #"printf 'first\000line\n'; yes 'a todo +project @context due:2026-12-01'"#, ["import", format, "-"],
      ["OOTD_IMPORT_CAP": String(1 << 20)])
    try refused(result, code: 64, "input: larger than 1 MiB, the most an import reads", before: before)
  }

  /// A pipe just under the cap is imported whole; one byte more is refused.
  @Test func aPipeAtTheCap_isImported_oneBytePastIt_isRefused() throws {
    let line = "a todo +project\n"
    let lines = (1 << 16) / line.utf8.count
    let cap = String(lines * line.utf8.count)
    let imported = try piped("yes 'a todo +project' | head -n \(lines)", ["import", "todotxt", "-"], ["OOTD_IMPORT_CAP": cap])
    #expect(imported.code == 0, "\(imported.stderr)")
    #expect(imported.stdout.hasPrefix("Imported: \(lines) todos added"), "\(imported.stdout)")
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let over = try piped(
      "yes 'a todo +project' | head -n \(lines); printf x", ["import", "todotxt", "-"], ["OOTD_IMPORT_CAP": cap])
    try refused(over, code: 64, "input: larger than 64 KiB, the most an import reads", before: before)
  }

  /// A disk that fills while the pipe is copied (the debug build's `import-spool:N:full`: the
  /// second write of the copy fails with ENOSPC) is one line, exit 1, and changes nothing.
  @Test func aFullDiskWhileCopying_isOneLine_andChangesNothing() throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let result = try piped(
      "yes 'a todo +project' | head -c 300000", ["import", "todotxt", "-"], ["OOTD_FAULT": "import-spool:2:full"])
    try refused(result, code: 1, "no space left on the file system of '\(folder.path)'", before: before)
  }

  /// A process killed while it copies the pipe leaves no copy behind: it never had a name.
  @Test func killedWhileCopying_leavesNoCopy() throws {
    let result = try piped(
      "yes 'a todo +project' | head -c 300000", ["import", "todotxt", "-"], ["OOTD_FAULT": "import-spool:2"])
    #expect(result.code != 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ootd.sqlite"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
  }

  /// The same input piped, redirected and named imports the same todos (each exported as
  /// todo.txt and Taskwarrior JSON, byte for byte), in both formats, over several chunks.
  @Test func aPipe_importsAsTheSameFileRedirectedOrNamed() throws {
    let uuid = { (index: Int) in "a1b2c3d4-0000-4000-8000-" + String(format: "%012d", index) }
    let todotxt = (1...3000).map { index in
      index % 3 == 0
        ? "x 2026-11-20 2026-11-01 done \(index) +finished @home ootd:\(uuid(index))"
        : "(\(["A", "B", "C"][index % 3])) 2026-11-01 todo \(index) +project\(index % 7) @work due:2026-12-0\(index % 9 + 1) t:2026-11-30 ootd:\(uuid(index))"
    }.joined(separator: "\n") + "\n"
    let tasks = "[" + (1...3000).map { index in
      #"{"uuid":"\#(uuid(index))","status":"\#(index % 3 == 0 ? "completed" : "pending")","entry":"20261101T080000Z","#
        + #""end":"20261120T090000Z","scheduled":"20261201T000000Z","project":"p\#(index % 7)","tags":["a","b"],"#
        + #""description":"task \#(index)","annotations":[{"entry":"20261102T000000Z","description":"note \#(index)"}]}"#
    }.joined(separator: ",\n") + "]\n"
    for (format, text) in [("todotxt", todotxt), ("taskwarrior", tasks)] {
      let file = folder.file("input-\(format)")
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      try #require(text.utf8.count > 3 * (64 << 10))
      var exports: [String: [String]] = [:]
      for way in ["piped", "redirected", "named"] {
        let run = env.merging(["OOTD_DB": folder.file("\(format)-\(way).sqlite")]) { $1 }
        let imported: BinaryTests.Result
        switch way {
        case "piped": imported = try piped("cat '\(file)'", ["import", format, "-", "--json"], run)
        case "redirected": imported = try redirected(file, ["import", format, "-", "--json"], run)
        default: imported = try BinaryTests.run(["import", format, file, "--json"], environment: run)
        }
        #expect(imported.code == 0, "\(format) \(way): \(imported.stderr)")
        var outputs = [imported.stdout]
        for exported in ["todotxt", "taskwarrior"] {
          let export = try BinaryTests.run(["export", "--format", exported], environment: run)
          #expect(export.code == 0, "\(export.stderr)")
          outputs.append(export.stdout)
        }
        exports[way] = outputs
      }
      #expect(exports["piped"] == exports["redirected"], "\(format)")
      #expect(exports["piped"] == exports["named"], "\(format)")
      let summary = try JSONSerialization.jsonObject(with: Data((exports["piped"]?[0] ?? "").utf8)) as? [String: Any]
      #expect(summary?["added"] as? Int == 3000, "\(format): \(exports["piped"]?[0] ?? "")")
    }
  }
}
