import Foundation
import GRDB
import TestTags
import Testing

/// Tags, notes, `show`, the routine planned by itself, and the new-folder note, through the
/// built binary as a user runs it.
@Suite("Tags, notes, show and the routine from the binary", .tags(.binary))
struct TagsNotesRoutineBinaryTests {
  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func tagsAndNotes_areAddedShownFilteredAndEdited() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    let added = try BinaryTests.run(
      ["add", "Fix", "login", "+bug", "+Web", "--tag", "later", "--note", "Safari only", "--json"], environment: env)
    #expect(added.code == 0, "\(added.stderr)")
    let todo = try #require(try Self.json(added.stdout) as? [String: Any])
    #expect(todo["title"] as? String == "Fix login")
    #expect(todo["tags"] as? [String] == ["bug", "later", "web"])
    #expect(todo["notes"] as? String == "Safari only")
    // A todo without tags has "tags": [] in every todo JSON, streamed or not
    #expect(try BinaryTests.run(["add", "C++ +3d review", "--no-color"], environment: env).stdout
      .contains("C++ +3d review"))
    let listed = try #require(try Self.json(BinaryTests.run(["list", "--json"], environment: env).stdout) as? [[String: Any]])
    #expect(listed.map { $0["tags"] as? [String] } == [["bug", "later", "web"], []])
    let shownJSON = try #require(try Self.json(BinaryTests.run(["show", "2", "--json"], environment: env).stdout) as? [String: Any])
    #expect(shownJSON["tags"] as? [String] == [])
    // Filtered by tag: list and search
    let bugs = try #require(try Self.json(BinaryTests.run(["list", "--tag", "BUG", "--json"], environment: env).stdout) as? [[String: Any]])
    #expect(bugs.map { $0["id"] as? Int } == [1])
    let found = try #require(try Self.json(BinaryTests.run(["search", "i", "--tag", "web", "--json"], environment: env).stdout) as? [[String: Any]])
    #expect(found.map { $0["id"] as? Int } == [1])
    // Edited: a tag in, a tag out, the notes replaced, then a line added
    #expect(try BinaryTests.run(["edit", "1", "--tag", "ui", "--untag", "later", "--note", "Only on iOS"], environment: env).code == 0)
    #expect(try BinaryTests.run(["note", "1", "Fixed", "by", "a", "reload"], environment: env).code == 0)
    // show prints it all, with its history from the journal
    let shown = try BinaryTests.run(["show", "1", "--no-color"], environment: env)
    #expect(shown.code == 0)
    #expect(shown.stdout.hasPrefix("#1  Fix login\n"))
    #expect(shown.stdout.contains("tags      +bug +ui +web"))
    #expect(shown.stdout.contains("Notes\n  Only on iOS\n  Fixed by a reload\n"))
    #expect(shown.stdout.contains("add Fix login +bug +Web --tag later --note 'Safari only' --json"))
    #expect(shown.stdout.contains("note 1 Fixed by a reload"))
    let detail = try #require(try Self.json(BinaryTests.run(["show", "1", "--json"], environment: env).stdout) as? [String: Any])
    #expect(detail["notes"] as? String == "Only on iOS\nFixed by a reload")
    let history = try #require(detail["history"] as? [[String: Any]])
    #expect(history.map { $0["command"] as? String }.first == "add Fix login +bug +Web --tag later --note 'Safari only' --json")
    #expect(history.count == 3)
    // edit --note "" clears the notes
    #expect(try BinaryTests.run(["edit", "1", "--note", ""], environment: env).code == 0)
    let cleared = try #require(try Self.json(BinaryTests.run(["show", "1", "--json"], environment: env).stdout) as? [String: Any])
    #expect(cleared["notes"] is NSNull)
  }

  @Test(
    "bad tags, notes and ids: one line, exit 64 or 1, the database byte-identical",
    arguments: [
      (["add", "x", "--tag", "no way"], Int32(64), "ootd: error: invalid tag 'no way'"),
      (["edit", "1", "--untag", "1x"], 64, "ootd: error: invalid tag '1x'"),
      // A tag both added and taken away (its case aside): no answer, refused (it was added).
      (["edit", "1", "--tag", "x", "--untag", "X"], 64, "ootd: error: --tag and --untag both name 'x'"),
      (["list", "--tag", "a/b"], 64, "ootd: error: invalid tag 'a/b'"),
      (["add", "+only"], 64, "ootd: error: the title is empty"),
      (["note", "1", "  "], 64, "ootd: error: give the note some words"),
      (["note", "9", "x"], 1, "ootd: error: no todo with id 9"),
      (["show", "9"], 1, "ootd: error: no todo with id 9"),
      (["block", "routine", "blog", "--on", "mon,funday"], 64, "ootd: error: invalid weekday 'funday'"),
      (["block", "routine", "blog", "--every", "0d"], 64, "ootd: error: invalid interval '0d'"),
      (["block", "routine", "blog", "--off", "--on", "mon"], 64, "ootd: error: --off cannot be combined"),
    ])
  func refused(arguments: [String], code: Int32, message: String) throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "a"], environment: env).code == 0)
    let before = Self.bytes(folder.file("ootd.sqlite"))
    let result = try BinaryTests.run(arguments, environment: env)
    #expect(result.code == code)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(Self.bytes(folder.file("ootd.sqlite")) == before)
  }

  @Test("an edit that changes nothing says so (Kept, not Edited), journals nothing; with several ids each is said as it went")
  func edit_changingNothing_saysKept() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "Read", "+book"], environment: env).code == 0)
    #expect(try BinaryTests.run(["add", "Write"], environment: env).code == 0)
    func entries() throws -> Int {
      try #require(try Self.json(BinaryTests.run(["log", "--json"], environment: env).stdout) as? [Any]).count
    }
    let logged = try entries()
    // A tag the todo does not have.
    let absent = try BinaryTests.run(["edit", "1", "--untag", "absent", "--no-color"], environment: env)
    #expect(absent.code == 0, "\(absent.stderr)")
    #expect(absent.stdout.hasPrefix("Kept 1 todo (no tag 'absent' to take away):\n"), "\(absent.stdout)")
    #expect(!absent.stdout.contains("Edited"))
    // A value the todo already has.
    let same = try BinaryTests.run(["edit", "1", "--title", "Read", "--tag", "book", "--no-color"], environment: env)
    #expect(same.code == 0, "\(same.stderr)")
    #expect(same.stdout.hasPrefix("Kept 1 todo (already as asked):\n"), "\(same.stdout)")
    #expect(try entries() == logged)
    // Several ids: the changed ones edited, the others kept.
    let both = try BinaryTests.run(["edit", "1", "2", "--untag", "book", "--no-color"], environment: env)
    #expect(both.code == 0, "\(both.stderr)")
    let lines = both.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(both.stdout)")
    #expect(lines.first == "Edited 1 todo:" && lines.dropFirst().first?.contains("Read") == true, "\(both.stdout)")
    #expect(lines.dropFirst(2).first == "Kept 1 todo (no tag 'book' to take away):" && lines.last?.contains("Write") == true)
    #expect(try entries() == logged + 1)
    // --json keeps its shape: every todo, as it now is.
    let json = try BinaryTests.run(["edit", "1", "2", "--untag", "book", "--json"], environment: env)
    let todos = try #require(try Self.json(json.stdout) as? [[String: Any]])
    #expect(todos.map { $0["title"] as? String } == ["Read", "Write"])
  }

  @Test func routine_isPlannedByItself_once_evenByFiveProcessesAtOnce() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    // Given routine blocks set up yesterday, as far as the database knows: set them, then take
    // today's todos (planned by 'block routine' itself) and the day's record away.
    for name in ["algorithm", "commit"] {
      #expect(try BinaryTests.run(["block", "routine", name], environment: env).code == 0)
    }
    #expect(try BinaryTests.run(["block", "routine", "blog", "--on", "mon,tue,wed,thu,fri,sat,sun"], environment: env).code == 0)
    let database = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["rm", "1", "2", "3", "--yes"], environment: env).code == 0)
    #expect(sqlite(database, "DELETE FROM routinePlan") != nil)
    // When five processes start at the same moment: dashboards, lists and adds
    let commands: [[String]] = [[], ["list"], ["add", "a"], ["today", "--json"], ["add", "b"]]
    let results = LockedValue<[Int32]>([])
    DispatchQueue.concurrentPerform(iterations: commands.count) { index in
      let code = (try? BinaryTests.run(commands[index], environment: env).code) ?? -1
      results.withLock { $0.append(code) }
    }
    #expect(results.withLock { $0 } == [0, 0, 0, 0, 0])
    // Then each routine block has exactly one todo today, named by (block, day)
    let todos = try #require(try Self.json(BinaryTests.run(["list", "--json"], environment: env).stdout) as? [[String: Any]])
    #expect(todos.compactMap { $0["block"] as? String }.sorted() == ["algorithm", "blog", "commit"])
    #expect(todos.count == 5)
    let log = try BinaryTests.run(["log", "--json"], environment: env).stdout
    #expect(log.components(separatedBy: "\"plan (automatic)\"").count == 2)
    // A routine todo removed today stays away, whatever runs next
    let algorithm = try #require(todos.first { $0["block"] as? String == "algorithm" }?["id"] as? Int)
    #expect(try BinaryTests.run(["rm", String(algorithm), "--yes"], environment: env).code == 0)
    #expect(try BinaryTests.run([], environment: env).code == 0)
    #expect(try BinaryTests.run(["add", "c"], environment: env).code == 0)
    let after = try #require(try Self.json(BinaryTests.run(["list", "--json"], environment: env).stdout) as? [[String: Any]])
    #expect(after.compactMap { $0["block"] as? String }.sorted() == ["blog", "commit"])
    // And 'plan' brings it back explicitly, under the same uuid
    let removedUUID = todos.first { $0["block"] as? String == "algorithm" }?["uuid"] as? String
    let planned = try #require(try Self.json(BinaryTests.run(["plan", "--json"], environment: env).stdout) as? [[String: Any]])
    #expect(planned.map { $0["uuid"] as? String } == [removedUUID])
  }

  @Test func routine_isNotPlannedInAReadOnlyDatabase_whichStillShowsToday() throws {
    // Given a read-only database (and folder, nobody's when the tests run as root) whose
    // routine is due today and not planned
    let folder = try TemporaryFolder()
    let locked = folder.file("snapshot")
    let path = locked + "/ootd.sqlite"
    #expect(try BinaryTests.run(["block", "routine", "algorithm", "--db", path]).code == 0)
    #expect(try BinaryTests.run(["rm", "1", "--yes", "--db", path]).code == 0)
    #expect(sqlite(path, "DELETE FROM routinePlan; PRAGMA wal_checkpoint(TRUNCATE)") != nil)
    if getuid() == 0 {
      chown(locked, 65534, 65534)
      chown(path, 65534, 65534)
    }
    chmod(folder.path, 0o755)
    chmod(path, 0o400)
    chmod(locked, 0o555)
    defer { chmod(locked, 0o755) }
    let before = try FileManager.default.contentsOfDirectory(atPath: locked).sorted().map {
      Self.bytes(locked + "/" + $0)
    }
    // When the dashboard shows today
    let shown = try BinaryTests.run(["--no-color", "--db", path], unprivileged: true)
    // Then it shows the day as it is and changes nothing
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(shown.stderr.isEmpty)
    #expect(shown.stdout.contains("Nothing planned"))
    let after = try FileManager.default.contentsOfDirectory(atPath: locked).sorted().map {
      Self.bytes(locked + "/" + $0)
    }
    #expect(after == before)
  }

  @Test func newFolderNote_printedOnceAfterASuccessfulWrite_neverForReadsOrFailures() throws {
    let folder = try TemporaryFolder()
    // A reading command creates nothing and says nothing
    let read = try BinaryTests.run(["list", "--db", folder.file("a/b/ootd.sqlite")])
    #expect(read.code == 0)
    #expect(read.stderr == "")
    #expect(!FileManager.default.fileExists(atPath: folder.file("a")))
    // A failing writing command creates nothing and says nothing
    let failed = try BinaryTests.run(["done", "5", "--db", folder.file("a/b/ootd.sqlite")])
    #expect(failed.code == 1)
    #expect(!failed.stderr.contains("note"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("a")))
    // A write says where the new database is, once
    let path = folder.file("a/b/ootd.sqlite")
    let added = try BinaryTests.run(["--db", path, "add", "x"])
    #expect(added.code == 0)
    #expect(added.stderr == "ootd: note: created a new database at \(path) (and its folder \(folder.file("a")))\n")
    let again = try BinaryTests.run(["add", "y", "--db", path])
    #expect(again.stderr == "")
    // OOTD_DB too; a new file in an existing folder is no surprise
    let viaVariable = try BinaryTests.run(["add", "x"], environment: ["OOTD_DB": folder.file("c/ootd.sqlite")])
    #expect(viaVariable.stderr.hasPrefix("ootd: note: created a new database at "))
    let existingFolder = try BinaryTests.run(["add", "x", "--db", folder.file("plain.sqlite")])
    #expect(existingFolder.stderr == "")
  }

  @Test func undone_ofADroppedTodo_takesItBackUp() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "old", "--on", "2020-01-01"], environment: env).code == 0)
    #expect(try BinaryTests.run(["drop", "1"], environment: env).code == 0)
    let reopened = try BinaryTests.run(["undone", "1", "--no-color"], environment: env)
    #expect(reopened.code == 0)
    #expect(reopened.stdout.hasPrefix("Reopened 1 todo:"))
    let todo = try #require((try Self.json(BinaryTests.run(["list", "--all", "--json"], environment: env).stdout) as? [[String: Any]])?.first)
    #expect(todo["dropped"] as? Bool == false)
    #expect(todo["overdue"] as? Bool == true)
    // Reopening it again changes nothing and says so
    let kept = try BinaryTests.run(["undone", "1", "--no-color"], environment: env)
    #expect(kept.stdout.hasPrefix("Kept 1 todo (already open):"))
  }
}

/// Runs SQL on a database file (through GRDB, as a second program would); nil when it fails.
@discardableResult
func sqlite(_ path: String, _ sql: String) -> String? {
  do {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
    try queue.close()
    return ""
  } catch {
    return nil
  }
}

/// A value shared between threads behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
