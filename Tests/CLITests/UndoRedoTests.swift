import Foundation
import GRDB
import TestTags
import Testing

/// `undo`, `redo` and `log` from the built binary, for every command that writes.
///
/// Each row of the table is (setup, command, what must hold after it). For every row the test
/// proves the contract: after `undo`, `list --all --json`, `block list --json` and
/// `project list --all --json` print exactly what they printed before the command; after
/// `redo`, exactly what they printed after it; and a second undo (of the redo) goes back again.
@Suite("Undo and redo of every writing command", .tags(.binary))
struct UndoRedoTests {
  /// One writing command and what it must have done.
  struct Row: CustomTestStringConvertible, Sendable {
    let setup: [[String]]
    let command: [String]
    /// Checks the state after the command (todos, blocks, projects as decoded JSON).
    let after: @Sendable (State) -> Bool
    var testDescription: String { command.joined(separator: " ") }
  }

  /// What the three listings print, raw and decoded.
  struct State: Equatable {
    let todos: String
    let blocks: String
    let projects: String

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.todos == rhs.todos && lhs.blocks == rhs.blocks && lhs.projects == rhs.projects
    }

    func decoded(_ text: String) -> [[String: Any]] {
      (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }
    var todoList: [[String: Any]] { decoded(todos) }
    var blockList: [[String: Any]] { decoded(blocks) }
    var projectList: [[String: Any]] { decoded(projects) }

    func todo(_ id: Int) -> [String: Any]? { todoList.first { $0["id"] as? Int == id } }
    func block(_ name: String) -> [String: Any]? { blockList.first { $0["name"] as? String == name } }
    func project(_ name: String) -> [String: Any]? {
      projectList.first { $0["name"] as? String == name }
    }
  }

  static let rows: [Row] = [
    Row(setup: [], command: ["add", "Solve BOJ 1753", "--priority", "high", "--on", "2026-11-20"]) {
      $0.todo(1)?["title"] as? String == "Solve BOJ 1753" && $0.todo(1)?["priority"] as? String == "high"
    },
    Row(setup: [["project", "add", "ootd"]], command: ["add", "--block", "algorithm", "--project", "ootd"]) {
      $0.todo(1)?["block"] as? String == "algorithm" && $0.todo(1)?["project"] as? String == "ootd"
    },
    Row(setup: [["add", "a"], ["add", "b"]], command: ["done", "1", "2"]) {
      $0.todoList.allSatisfy { $0["done"] as? Bool == true && $0["doneOn"] is String }
    },
    Row(setup: [["add", "a"], ["done", "1"]], command: ["undone", "1"]) {
      $0.todo(1)?["done"] as? Bool == false && $0.todo(1)?["doneOn"] is NSNull
    },
    Row(
      setup: [["project", "add", "ootd"], ["add", "a", "--on", "2026-11-20"]],
      command: ["edit", "1", "--title", "B", "--priority", "low", "--on", "2026-11-25", "--project", "ootd"]
    ) {
      $0.todo(1)?["title"] as? String == "B" && $0.todo(1)?["date"] as? String == "2026-11-25"
        && $0.todo(1)?["project"] as? String == "ootd" && $0.todo(1)?["priority"] as? String == "low"
    },
    Row(setup: [["project", "add", "ootd"], ["add", "a", "--project", "ootd"]], command: ["edit", "1", "--no-project"]) {
      $0.todo(1)?["project"] is NSNull
    },
    Row(
      setup: [["project", "add", "ootd"], ["add", "a", "--project", "ootd", "--block", "blog"], ["add", "b"], ["done", "1"]],
      command: ["rm", "1", "--yes"]
    ) {
      $0.todo(1) == nil && $0.todo(2) != nil
    },
    Row(setup: [["add", "a"], ["add", "b"], ["add", "c"]], command: ["rm", "1", "3", "--yes"]) {
      $0.todoList.count == 1
    },
    Row(
      setup: [["add", "a", "--on", "2020-01-01"], ["add", "b", "--on", "2020-01-02", "--priority", "high"], ["add", "c", "--on", "2020-01-03"], ["done", "3"]],
      command: ["carry", "--to", "2030-01-01"]
    ) {
      $0.todo(1)?["date"] as? String == "2030-01-01" && $0.todo(2)?["date"] as? String == "2030-01-01"
        && $0.todo(3)?["date"] as? String == "2020-01-03"
    },
    Row(setup: [], command: ["add", "Fixed the flaky test", "--done", "--on", "2020-01-01"]) {
      $0.todo(1)?["done"] as? Bool == true && $0.todo(1)?["doneOn"] is String
    },
    Row(setup: [["add", "a", "--on", "2020-01-01"], ["add", "b", "--on", "2020-01-02"]], command: ["drop", "1", "2"]) {
      $0.todoList.allSatisfy { $0["dropped"] as? Bool == true && $0["overdue"] as? Bool == false }
    },
    Row(
      setup: [["add", "a", "--on", "2020-01-01"], ["add", "b", "--on", "2020-01-02"], ["add", "c", "--on", "2020-01-03"]],
      command: ["edit", "1", "2", "--on", "2030-01-01", "--priority", "high"]
    ) {
      $0.todo(1)?["date"] as? String == "2030-01-01" && $0.todo(2)?["date"] as? String == "2030-01-01"
        && ($0.todo(1)?["carriedFrom"] as? [String]) == ["2020-01-01"]
        && $0.todo(3)?["date"] as? String == "2020-01-03"
    },
    Row(setup: [["block", "routine", "algorithm"], ["block", "routine", "commit"]], command: ["plan", "--on", "2026-12-01"]) {
      // (Today's routine todos were planned by the 'block routine' commands themselves.)
      $0.todoList.filter { $0["date"] as? String == "2026-12-01" }.count == 2
    },
    Row(setup: [], command: ["add", "Fix login +bug", "--tag", "web", "--note", "Safari only"]) {
      $0.todo(1)?["title"] as? String == "Fix login" && $0.todo(1)?["tags"] as? [String] == ["bug", "web"]
        && $0.todo(1)?["notes"] as? String == "Safari only"
    },
    Row(setup: [["add", "a +bug +x", "--note", "n"]], command: ["edit", "1", "--tag", "ui", "--untag", "bug", "--note", ""]) {
      $0.todo(1)?["tags"] as? [String] == ["ui", "x"] && $0.todo(1)?["notes"] is NSNull
    },
    Row(setup: [["add", "a", "--note", "first"]], command: ["note", "1", "second", "line"]) {
      $0.todo(1)?["notes"] as? String == "first\nsecond line"
    },
    Row(setup: [["add", "a", "--on", "2020-01-01"], ["drop", "1"]], command: ["undone", "1"]) {
      $0.todo(1)?["dropped"] as? Bool == false && $0.todo(1)?["overdue"] as? Bool == true
    },
    Row(setup: [], command: ["block", "routine", "blog", "--on", "mon,wed"]) {
      $0.block("blog")?["recurrence"] as? String == "mon,wed"
    },
    Row(setup: [], command: ["block", "routine", "english", "--every", "2d"]) {
      ($0.block("english")?["recurrence"] as? String)?.hasPrefix("every 2d from ") == true
        && $0.todoList.count == 1
    },
    Row(setup: [], command: ["block", "routine", "algorithm"]) {
      $0.block("algorithm")?["recurrence"] as? String == "daily"
        && $0.todoList.map { $0["block"] as? String } == ["algorithm"]
    },
    Row(setup: [], command: ["block", "add", "leetcode", "One LeetCode medium", "--priority", "high", "--routine"]) {
      $0.block("leetcode")?["routine"] as? Bool == true
    },
    Row(setup: [["block", "routine", "docs"]], command: ["block", "rm", "docs"]) {
      $0.block("docs") == nil
    },
    Row(setup: [["block", "rm", "docs"]], command: ["block", "restore", "docs"]) {
      $0.block("docs")?["builtIn"] as? Bool == true && $0.block("docs")?["title"] as? String == "Write or update documentation"
    },
    Row(setup: [], command: ["block", "routine", "commit"]) {
      $0.block("commit")?["routine"] as? Bool == true
    },
    Row(setup: [["block", "routine", "commit"]], command: ["block", "routine", "commit", "--off"]) {
      $0.block("commit")?["routine"] as? Bool == false
    },
    Row(setup: [], command: ["block", "edit", "docs", "--done-when", "commits", "--repo", "me/app"]) {
      ($0.block("docs")?["doneWhen"] as? [String: Any])?["repo"] as? String == "me/app"
    },
    Row(setup: [], command: ["block", "edit", "commit", "--done-when", "none"]) {
      $0.block("commit")?["doneWhen"] is NSNull
    },
    Row(setup: [["add", "a"]], command: ["done", "1", "--close-on-github"]) {
      $0.todo(1)?["done"] as? Bool == true && $0.todo(1)?["doneBy"] as? String == "manual"
    },
    Row(setup: [], command: ["project", "add", "ootd", "--repo", "octo/ootd", "--desc", "Tracker", "--tech", "swift,sqlite"]) {
      $0.project("ootd")?["repo"] as? String == "octo/ootd"
    },
    Row(setup: [["project", "add", "ootd"], ["add", "a", "--project", "ootd"]], command: ["project", "edit", "ootd", "--rename", "ootd2", "--memo", "m", "--end", "2026-12-31"]) {
      $0.project("ootd2")?["memo"] as? String == "m" && $0.todo(1)?["project"] as? String == "ootd2"
    },
    Row(setup: [["project", "add", "ootd"]], command: ["project", "archive", "ootd"]) {
      $0.project("ootd")?["archived"] as? Bool == true
    },
    Row(setup: [["project", "add", "ootd"], ["project", "archive", "ootd"]], command: ["project", "unarchive", "ootd"]) {
      $0.project("ootd")?["archived"] as? Bool == false
    },
    Row(
      setup: [["project", "add", "ootd", "--repo", "octo/ootd"], ["add", "a", "--project", "ootd"], ["add", "b", "--project", "ootd"], ["done", "2"]],
      command: ["project", "rm", "ootd", "--yes"]
    ) {
      $0.project("ootd") == nil && $0.todoList.allSatisfy { $0["project"] is NSNull }
    },
    // An import is one change: its todos (with their tags) and the projects it created.
    Row(setup: [["add", "existing +keep"]], command: ["import", "taskwarrior", InterchangeBinaryTests.fixture]) {
      // 45 tasks and the deleted one, a dropped todo (issue 23), beside the existing todo.
      $0.todoList.count == 47 && $0.project("ootd.interchange") != nil
        && $0.todoList.first { $0["title"] as? String == "Write the import parser" }?["tags"] as? [String] == ["cli", "swift"]
    },
    // A re-import puts back the tags the file has (todo 1 is the file's first task).
    Row(
      setup: [["import", "taskwarrior", InterchangeBinaryTests.fixture], ["edit", "1", "--tag", "local", "--untag", "cli"]],
      command: ["import", "taskwarrior", InterchangeBinaryTests.fixture]
    ) {
      $0.todo(1)?["title"] as? String == "Write the import parser" && $0.todo(1)?["tags"] as? [String] == ["cli", "swift"]
    },
  ]

  static func state(_ environment: [String: String]) throws -> State {
    func listing(_ arguments: [String]) throws -> String {
      let result = try BinaryTests.run(arguments, environment: environment)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      return result.stdout
    }
    return State(
      todos: try listing(["list", "--all", "--json"]), blocks: try listing(["block", "list", "--json"]),
      projects: try listing(["project", "list", "--all", "--json"]))
  }

  @Test("undo restores exactly the state before; redo exactly the state after", arguments: rows)
  func undoRedo(row: Row) throws {
    // Given
    let folder = try TemporaryFolder()
    let environment = ["OOTD_DB": folder.file("ootd.sqlite")]
    for step in row.setup {
      let result = try BinaryTests.run(step, environment: environment)
      try #require(result.code == 0, "setup \(step): \(result.stderr)")
    }
    let before = try Self.state(environment)
    // When
    let ran = try BinaryTests.run(row.command, environment: environment)
    try #require(ran.code == 0, "\(ran.stderr)")
    let after = try Self.state(environment)
    // Then the command did its job
    #expect(after != before)
    #expect(row.after(after), "\(after.todos)\n\(after.blocks)\n\(after.projects)")
    // And undo takes it back exactly, naming the command
    let undo = try BinaryTests.run(["undo"], environment: environment)
    #expect(undo.code == 0, "\(undo.stderr)")
    #expect(undo.stdout.hasPrefix("Undid '\(row.command.first!)"), "\(undo.stdout)")
    #expect(try Self.state(environment) == before)
    // And redo applies it again exactly
    let redo = try BinaryTests.run(["redo"], environment: environment)
    #expect(redo.code == 0, "\(redo.stderr)")
    #expect(redo.stdout.hasPrefix("Redid '\(row.command.first!)"), "\(redo.stdout)")
    #expect(try Self.state(environment) == after)
    // And undoing the redone change goes back once more
    #expect(try BinaryTests.run(["undo"], environment: environment).code == 0)
    #expect(try Self.state(environment) == before)
  }

  @Test("undo walks back through several changes and redo walks forward in order")
  func walksBackAndForth() throws {
    let folder = try TemporaryFolder()
    let environment = ["OOTD_DB": folder.file("ootd.sqlite")]
    var states = [try Self.state(environment)]
    for command in [["add", "a"], ["add", "b"], ["done", "1", "2"], ["edit", "2", "--title", "c"]] {
      #expect(try BinaryTests.run(command, environment: environment).code == 0)
      states.append(try Self.state(environment))
    }
    for index in stride(from: 3, through: 0, by: -1) {
      #expect(try BinaryTests.run(["undo"], environment: environment).code == 0)
      #expect(try Self.state(environment) == states[index])
    }
    let nothing = try BinaryTests.run(["undo"], environment: environment)
    #expect(nothing.code == 1)
    #expect(nothing.stderr == "ootd: error: nothing to undo (see 'ootd log')\n")
    for index in 1...4 {
      #expect(try BinaryTests.run(["redo"], environment: environment).code == 0)
      #expect(try Self.state(environment) == states[index])
    }
    #expect(try BinaryTests.run(["redo"], environment: environment).code == 1)
  }

  @Test("a new change after an undo clears what could be redone")
  func newChangeClearsRedo() throws {
    let folder = try TemporaryFolder()
    let environment = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "a"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["add", "b"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["undo"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["add", "c"], environment: environment).code == 0)
    let redo = try BinaryTests.run(["redo"], environment: environment)
    #expect(redo.code == 1)
    #expect(redo.stderr.hasPrefix("ootd: error: nothing to redo"))
    #expect(redo.stdout.isEmpty)
    let titles = try Self.state(environment).todoList.compactMap { $0["title"] as? String }
    #expect(titles == ["a", "c"])
  }

  @Test("undo says in words what it reverted, and log lists changes newest first")
  func wordsAndLog() throws {
    let folder = try TemporaryFolder()
    let environment = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["add", "Solve BOJ 1753"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["--db", folder.file("ootd.sqlite"), "add", "Write the README"], environment: [:]).code == 0)
    #expect(try BinaryTests.run(["done", "1", "2", "--no-color"], environment: environment).code == 0)
    let undo = try BinaryTests.run(["undo"], environment: environment)
    #expect(undo.stdout == "Undid 'done 1 2': 2 todos open again ('Solve BOJ 1753', 'Write the README')\n")
    let log = try BinaryTests.run(["log", "--json"], environment: environment)
    #expect(log.code == 0)
    let entries = try #require(
      JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
    #expect(entries.map { $0["command"] as? String } == [
      "undo", "done 1 2", "add 'Write the README'", "add 'Solve BOJ 1753'",
    ])
    #expect(entries.map { $0["undone"] as? Bool } == [false, true, false, false])
    #expect(entries.map { $0["id"] as? Int } == [4, 3, 2, 1])
    #expect(entries[1]["summary"] as? String == "2 todos done ('Solve BOJ 1753', 'Write the README')")
    let at = try #require(entries[0]["at"] as? String)
    #expect(at.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
    for entry in entries {
      #expect(Set(entry.keys).isSuperset(of: ["id", "at", "command", "summary", "undone"]))
    }
    // --limit, and undo/redo --json print the entry acted on in the same shape
    let limited = try BinaryTests.run(["log", "--limit", "1", "--json"], environment: environment)
    #expect((try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [Any])?.count == 1)
    let redo = try BinaryTests.run(["redo", "--json"], environment: environment)
    let acted = try #require(
      JSONSerialization.jsonObject(with: Data(redo.stdout.utf8)) as? [String: Any])
    #expect(acted["id"] as? Int == 3 && acted["command"] as? String == "done 1 2")
    #expect(acted["undone"] as? Bool == false)
    let undoJSON = try BinaryTests.run(["undo", "--json"], environment: environment)
    let undone = try #require(
      JSONSerialization.jsonObject(with: Data(undoJSON.stdout.utf8)) as? [String: Any])
    #expect(undone["id"] as? Int == 3 && undone["undone"] as? Bool == true)
  }

  static let badInputs: [([String], Int32)] = [
    (["undo"], 1), (["redo"], 1), (["log", "--limit", "0"], 64), (["log", "--limit", "-3"], 64),
  ]

  @Test("bad input: nothing to undo or redo, --limit 0 or negative: one line, exit code, database byte-identical",
    arguments: Self.badInputs)
  func badInput(arguments: [String], code: Int32) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    let environment = ["OOTD_DB": path]
    #expect(try BinaryTests.run(["add", "a"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["undo"], environment: environment).code == 0)
    if arguments == ["redo"] {
      #expect(try BinaryTests.run(["add", "b"], environment: environment).code == 0)
    } else if arguments == ["undo"] {
      _ = try BinaryTests.run(["list"], environment: environment)
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let result = try BinaryTests.run(arguments, environment: environment)
    #expect(result.code == code)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("ootd: error: "))
    #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("every todo, project and block has a stable lowercase uuid that edits never change")
  func uuids() throws {
    let folder = try TemporaryFolder()
    let environment = ["OOTD_DB": folder.file("ootd.sqlite")]
    for command in [["project", "add", "p"], ["add", "a", "--project", "p"], ["block", "add", "x", "X"]] {
      #expect(try BinaryTests.run(command, environment: environment).code == 0)
    }
    let before = try Self.state(environment)
    let pattern = #"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#
    let all = before.todoList + before.blockList + before.projectList
    let uuids = all.compactMap { $0["uuid"] as? String }
    #expect(uuids.count == all.count)
    #expect(Set(uuids).count == uuids.count)
    #expect(uuids.allSatisfy { $0.range(of: pattern, options: .regularExpression) != nil })
    for command in [["edit", "1", "--title", "b"], ["done", "1"], ["project", "edit", "p", "--rename", "q"], ["block", "routine", "x"]] {
      #expect(try BinaryTests.run(command, environment: environment).code == 0)
    }
    let after = try Self.state(environment)
    #expect(after.todo(1)?["uuid"] as? String == before.todo(1)?["uuid"] as? String)
    #expect(after.project("q")?["uuid"] as? String == before.project("p")?["uuid"] as? String)
    #expect(after.block("x")?["uuid"] as? String == before.block("x")?["uuid"] as? String)
    // Built-in blocks have the same uuid in every database
    let other = try TemporaryFolder()
    let elsewhere = try Self.state(["OOTD_DB": other.file("ootd.sqlite")])
    #expect(elsewhere.block("algorithm")?["uuid"] as? String == before.block("algorithm")?["uuid"] as? String)
    // A deleted and re-added todo gets a new uuid: uuids are never reused
    #expect(try BinaryTests.run(["rm", "1", "--yes"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["add", "b"], environment: environment).code == 0)
    let readded = try Self.state(environment).todoList.first
    #expect(readded?["uuid"] as? String != before.todo(1)?["uuid"] as? String)
  }

  @Test("processes adding while another undoes and redoes: no lost or half-applied change")
  func concurrentUndo() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    let environment = ["OOTD_DB": path]
    #expect(try BinaryTests.run(["add", "seed a"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["add", "seed b"], environment: environment).code == 0)
    #expect(try BinaryTests.run(["done", "1", "2"], environment: environment).code == 0)
    let failures = LockedCounter()
    let writers = 4
    let each = 10
    DispatchQueue.concurrentPerform(iterations: writers + 1) { worker in
      if worker == writers {
        // The undoer: undo and redo whatever is most recent, over and over.
        for round in 0..<12 {
          let result = try? BinaryTests.run([round % 2 == 0 ? "undo" : "redo"], environment: environment)
          if result?.code != 0 && result?.code != 1 { failures.increment() }
        }
      } else {
        for index in 0..<each {
          let result = try? BinaryTests.run(["add", "w\(worker)-\(index)"], environment: environment)
          if result?.code != 0 { failures.increment() }
        }
      }
    }
    #expect(failures.value == 0)
    // Every journal entry that is not undone is fully applied: replaying the log's adds that
    // stand (not undone) gives exactly the todos listed.
    let log = try BinaryTests.run(["log", "--limit", "1000", "--json"], environment: environment)
    let entries = try #require(
      JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
    let standingAdds = Set(entries.filter {
      $0["kind"] as? String == "change" && $0["undone"] as? Bool == false
        && ($0["command"] as? String ?? "").hasPrefix("add ")
    }.compactMap { ($0["command"] as? String)?.dropFirst(4).replacingOccurrences(of: "'", with: "") })
    let titles = Set(try Self.state(environment).todoList.compactMap { $0["title"] as? String })
    #expect(titles == standingAdds)
    // The done change is either fully applied or fully undone
    let seeds = try Self.state(environment).todoList.filter { ($0["title"] as? String ?? "").hasPrefix("seed") }
    #expect(Set(seeds.map { $0["done"] as? Bool }).count <= 1)
    let check = try BinaryTests.run(["log", "--limit", "1"], environment: environment)
    #expect(check.code == 0)
    let integrity = try DatabaseQueue(path: path).read {
      try String.fetchAll($0, sql: "PRAGMA integrity_check")
    }
    #expect(integrity == ["ok"])
  }
}
