import Foundation
import Interchange
import TestTags
import Testing

/// Issue 21, item 9, and issue 25: an import reads its input as it arrives, at most 1 GiB, a line
/// or JSON object of at most 1 MiB and a JSON string of at most 512 KiB. `/dev/zero`, a sparse
/// file past 1 GiB and a file of one huge line, object or string each exit 64 with one line
/// naming the cap, in bounded memory, and change nothing (the whole input was read first: 4.45 GB
/// and still growing on /dev/zero, 1.06 GB for a 1 GiB file).
@Suite(.tags(.binary)) struct ImportCapsTests {
  let folder: TemporaryFolder
  let env: [String: String]
  let database: String

  init() throws {
    folder = try TemporaryFolder()
    database = folder.file("ootd.sqlite")
    env = ["OOTD_DB": database, "TZ": "UTC"]
    let added = try BinaryTests.run(["add", "keep me"], environment: env)
    try #require(added.code == 0, "\(added.stderr)")
  }

  /// Runs `arguments` (standard input from `input`), measuring its peak memory: expects exit
  /// 64, one line on standard error holding `fragment`, under 64 MB, and the database unchanged.
  func refused(_ arguments: [String], input: String? = nil, _ fragment: String) throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let errors = folder.file("stderr")
    let (code, kib) = try InterchangeBinaryTests.peakMemory(arguments, environment: env, input: input, errors: errors)
    let stderr = try String(contentsOfFile: errors, encoding: .utf8)
    let name = arguments.joined(separator: " ") + (input.map { " < \($0)" } ?? "")
    #expect(code == 64, "\(name): \(stderr)")
    #expect(stderr.hasPrefix("ootd: error: ") && stderr.contains(fragment), "\(name): \(stderr)")
    #expect(stderr.split(separator: "\n").count == 1, "\(name): \(stderr)")
    #expect(kib < BoundedMemoryTests.limitKiB, "\(name) peaked at \(kib / 1024) MB")
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "\(name)")
  }

  @Test func devZero_isRefusedAtTheFirstMebibyte() throws {
    let line = "line 1: longer than 1 MiB, the most an import reads in one line"
    let object = "line 1: larger than 1 MiB, the most an import reads in one object"
    try refused(["import", "todotxt", "/dev/zero"], line)
    try refused(["import", "todotxt", "-"], input: "/dev/zero", line)
    try refused(["import", "taskwarrior", "/dev/zero"], object)
    try refused(["import", "taskwarrior", "-"], input: "/dev/zero", object)
  }

  /// A (sparse) file one byte past the 1 GiB cap.
  @Test func aSparseFilePastTheCap_isRefusedBeforeItIsRead() throws {
    let file = folder.file("huge")
    let created = FileManager.default.createFile(atPath: file, contents: nil)
    try #require(created && truncate(file, off_t(InputBounds.maximumInput) + 1) == 0)
    let message = "input: larger than 1 GiB, the most an import reads"
    for format in ["todotxt", "taskwarrior"] {
      try refused(["import", format, file], message)
      try refused(["import", format, "-"], input: file, message)
    }
  }

  /// A line past 1 MiB among good ones: refused at that line (the good ones are not imported);
  /// a Taskwarrior string past 512 KiB, or an object past 1 MiB of strings under it, by its
  /// place in the array or its line in JSON Lines.
  @Test func oneHugeLineOrObject_isRefusedWhereItIs() throws {
    let huge = String(repeating: "a", count: (1 << 20) + 1)
    let todo = folder.file("todo.txt")
    try "(A) first\r\nsecond\n\(huge)\nfourth\n".write(toFile: todo, atomically: true, encoding: .utf8)
    try refused(["import", "todotxt", todo], "line 3: longer than 1 MiB")
    try refused(["import", "todotxt", "-"], input: todo, "line 3: longer than 1 MiB")
    func task(_ index: Int, _ description: String) -> String {
      #"{"uuid":"a1b2c3d4-0000-4000-8000-00000000000\#(index)","status":"pending","entry":"20260101T000000Z","description":"\#(description)"}"#
    }
    let array = folder.file("array.json")
    try ("[" + task(1, "ok") + ",\n" + task(2, huge) + "\n]").write(toFile: array, atomically: true, encoding: .utf8)
    try refused(["import", "taskwarrior", array], "object 2: a string longer than 512 KiB, the most an import reads in one field")
    let lines = folder.file("lines.json")
    let third = String(repeating: "b", count: 400 << 10)
    let wide = task(2, "wide").dropLast() + #","a":"\#(third)","b":"\#(third)","c":"\#(third)"}"#
    try (task(1, "ok") + "\n\n" + wide + "\n").write(toFile: lines, atomically: true, encoding: .utf8)
    try refused(["import", "taskwarrior", "-"], input: lines, "line 3: larger than 1 MiB")
  }

  /// Just under the caps is read as before: a line of 1 MiB is a line (refused for its title,
  /// as any title past 500 characters), and a one-line array larger than 1 MiB of small objects
  /// imports.
  @Test func justUnderTheCaps_isReadAsBefore() throws {
    let todo = folder.file("todo.txt")
    try ("(A) " + String(repeating: "b", count: (1 << 20) - 4) + "\n").write(toFile: todo, atomically: true, encoding: .utf8)
    let long = try BinaryTests.run(["import", "todotxt", todo], environment: env)
    #expect(long.code == 64)
    #expect(long.stderr.contains("line 1: ") && long.stderr.contains("500"), "\(long.stderr)")
    let tasks = (0..<12_000).map { index in
      #"{"uuid":"a1b2c3d4-0000-4000-8000-"# + String(format: "%012d", index)
        + #"","status":"pending","entry":"20260101T000000Z","description":"task \#(index)"}"#
    }
    let array = folder.file("array.json")
    let text = "[" + tasks.joined(separator: ",") + "]"
    try #require(text.utf8.count > 1 << 20)
    try text.write(toFile: array, atomically: true, encoding: .utf8)
    let imported = try BinaryTests.run(["import", "taskwarrior", array], environment: env)
    #expect(imported.code == 0, "\(imported.stderr)")
    #expect(imported.stdout.hasPrefix("Imported: 12000 todos added"), "\(imported.stdout)")
  }
}
