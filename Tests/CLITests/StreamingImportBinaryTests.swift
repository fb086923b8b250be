import Core
import Foundation
import GRDB
import TestTags
import Testing

/// Issue 25: the import reads its input as it arrives and applies it a batch at a time inside
/// the one change. A uuid met again far past its first object (in another batch) keeps the
/// first's place and takes the last's fields, counted once, as when the whole file was read
/// first; `--dry-run` counts the same; a broken object past many good ones changes nothing; one
/// `undo` takes the whole import back.
@Suite(.tags(.binary)) struct StreamingImportBinaryTests {
  let folder: TemporaryFolder
  let env: [String: String]

  init() throws {
    folder = try TemporaryFolder()
    env = ["OOTD_DB": folder.file("ootd.sqlite"), "TZ": "UTC"]
  }

  func run(_ arguments: [String], stdin: String? = nil) throws -> BinaryTests.Result {
    try BinaryTests.run(arguments, environment: env, stdin: stdin)
  }

  static func task(_ index: Int, _ description: String, status: String = "pending") -> String {
    #"{"uuid":"a1b2c3d4-0000-4000-8000-"# + String(format: "%012d", index) + #"","status":"\#(status)","#
      + #""entry":"20260101T000000Z","scheduled":"20260301T000000Z","description":"\#(description)"}"#
  }

  func snapshot() throws -> [String] {
    try [["list", "--all", "--json"], ["project", "list", "--all", "--json"]].map { try run($0).stdout }
  }

  @Test func aUUIDMetAgainInALaterBatch_keepsThePlaceOfTheFirstAndTheFieldsOfTheLast() throws {
    #expect(try run(["add", "before the import"]).code == 0)
    let before = try snapshot()
    // 1,200 tasks (three batches); task 7 again at the end, done, and task 8 again in its batch.
    var tasks = (1...1200).map { Self.task($0, "task \($0)") }
    tasks.insert(Self.task(8, "task 8 again"), at: 10)
    tasks.append(Self.task(7, "task 7 last", status: "completed"))
    let file = folder.file("tasks.json")
    try ("[\n" + tasks.joined(separator: ",\n") + "\n]\n").write(toFile: file, atomically: true, encoding: .utf8)

    let dry = try run(["import", "taskwarrior", file, "--dry-run", "--json"])
    #expect(dry.code == 0, "\(dry.stderr)")
    let counted = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
    #expect(counted["added"] as? Int == 1200)
    // Said, not merged silently (interchange18b): two objects named an earlier one's uuid.
    #expect(counted["repeatedUUIDs"] as? Int == 2, "\(counted)")
    #expect(try snapshot() == before)

    let imported = try run(["import", "taskwarrior", file, "--json"])
    #expect(imported.code == 0, "\(imported.stderr)")
    let result = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
    #expect(result["added"] as? Int == 1200)
    #expect(result["updated"] as? Int == 0)
    #expect(result["repeatedUUIDs"] as? Int == 2, "\(result)")
    let text = try run(["import", "taskwarrior", file, "--dry-run"]).stdout
    #expect(text.contains("  repeated uuid 2: an item named the uuid of an earlier one (case aside): the later one kept"), "\(text)")
    let todos = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["list", "--all", "--json"]).stdout.utf8)) as? [[String: Any]])
    #expect(todos.count == 1201)
    // In the order of the rows: the place of the first object.
    let titles = todos.compactMap { $0["title"] as? String }
    let seventh = try #require(todos.first { ($0["uuid"] as? String)?.hasSuffix("000000000007") == true })
    #expect(seventh["title"] as? String == "task 7 last")
    #expect(seventh["done"] as? Bool == true)
    #expect(titles.contains("task 8 again") && !titles.contains("task 8") && !titles.contains("task 7"))
    let ids = todos.compactMap { $0["id"] as? Int }
    let seventhID = try #require(seventh["id"] as? Int)
    let sixth = try #require(todos.first { ($0["uuid"] as? String)?.hasSuffix("000000000006") == true }?["id"] as? Int)
    #expect(seventhID == sixth + 1, "\(ids.prefix(12))")

    // The file as it reads (each uuid once, with its last fields) changes nothing. (The same
    // file again updates task 7 twice, to its first fields and back, counted once, as unchanged:
    // ``aTodoMetInTwoBatches_isCountedOnce``.)
    var deduplicated = (1...1200).map { Self.task($0, "task \($0)") }
    deduplicated[6] = Self.task(7, "task 7 last", status: "completed")
    deduplicated[7] = Self.task(8, "task 8 again")
    let once = folder.file("once.json")
    try ("[" + deduplicated.joined(separator: ",") + "]").write(toFile: once, atomically: true, encoding: .utf8)
    let again = try run(["import", "taskwarrior", once, "--json"])
    let unchanged = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
    #expect(unchanged["unchanged"] as? Int == 1200 && unchanged["updated"] as? Int == 0)

    // One undo takes the whole import back.
    #expect(try run(["undo"]).code == 0)
    #expect(try snapshot() == before)
  }

  /// A todo that was there before the import, met in two batches of the file, is counted once,
  /// by what the last object makes of it beside what it was: in a dry run as in the import.
  @Test func aTodoMetInTwoBatches_isCountedOnce() throws {
    let tasks = (1...1200).map { Self.task($0, "task \($0)") }
    func counts(_ objects: [String], _ name: String) throws -> [[String: Int]] {
      let file = folder.file(name)
      try ("[" + objects.joined(separator: ",\n") + "]").write(toFile: file, atomically: true, encoding: .utf8)
      return try [["--dry-run"], []].map { extra in
        let result = try run(["import", "taskwarrior", file, "--json"] + extra)
        #expect(result.code == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return ["added", "updated", "unchanged"].reduce(into: [:]) { $0[$1] = object[$1] as? Int }
      }
    }
    func title(_ index: Int) throws -> String? {
      let todos = try #require(
        try JSONSerialization.jsonObject(with: Data(run(["list", "--all", "--json"]).stdout.utf8)) as? [[String: Any]])
      return todos.first { ($0["uuid"] as? String)?.hasSuffix(String(format: "%012d", index)) == true }?["title"] as? String
    }
    #expect(try counts(tasks, "all.json") == Array(repeating: ["added": 1200, "updated": 0, "unchanged": 0], count: 2))

    // Task 7 changed in the first batch and back in the third: unchanged.
    var back = tasks
    back[6] = Self.task(7, "task 7 changed")
    back.append(Self.task(7, "task 7"))
    #expect(try counts(back, "back.json") == Array(repeating: ["added": 0, "updated": 0, "unchanged": 1200], count: 2))
    #expect(try title(7) == "task 7")

    // Unchanged in the first batch, changed in the third: updated once.
    let later = tasks + [Self.task(7, "task 7 done", status: "completed")]
    #expect(try counts(later, "later.json") == Array(repeating: ["added": 0, "updated": 1, "unchanged": 1199], count: 2))
    #expect(try title(7) == "task 7 done")

    // Changed in the first batch and again in the third: updated once.
    let twice = tasks + [Self.task(7, "task 7 twice")]
    #expect(try counts(twice, "twice.json") == Array(repeating: ["added": 0, "updated": 1, "unchanged": 1199], count: 2))
    #expect(try title(7) == "task 7 twice")

    // Every task retitled (1,200 updates: past the first 1,000 the change's operations are in
    // the journal, not held), task 7 back to its title at the end: unchanged.
    let retitled = (1...1200).map { Self.task($0, "task \($0) again") } + [Self.task(7, "task 7 twice")]
    #expect(
      try counts(retitled, "retitled.json") == Array(repeating: ["added": 0, "updated": 1199, "unchanged": 1], count: 2))
    #expect(try title(7) == "task 7 twice")
  }

  /// A broken object after 1,500 good ones (three batches applied): exit 64, one line, the
  /// database byte-identical; the same from standard input as JSON Lines.
  /// Past the first 1,000 operations a batch's new todos are journaled set-wise from their
  /// typed values; a last batch of a few (1,510 tasks: 500, 500, 500, then 10) is journaled one
  /// row at a time, and its rows must carry their fields too: redo recreates them from there.
  @Test func aSmallLastBatchPastTheFirstThousand_isJournaledWhole() throws {
    let tasks = (1...1510).map { Self.task($0, "task \($0)") }
    let file = folder.file("tasks.json")
    try ("[\n" + tasks.joined(separator: ",\n") + "\n]\n").write(toFile: file, atomically: true, encoding: .utf8)
    let imported = try run(["import", "taskwarrior", file])
    #expect(imported.code == 0, "\(imported.stderr)")
    let after = try run(["list", "--all", "--json"]).stdout
    #expect(try run(["undo"]).code == 0)
    let undone = try JSONSerialization.jsonObject(with: Data(run(["list", "--all", "--json"]).stdout.utf8)) as? [Any]
    #expect(undone?.isEmpty == true)
    let redone = try run(["redo"])
    #expect(redone.code == 0, "\(redone.stderr)")
    #expect(try run(["list", "--all", "--json"]).stdout == after)
    let todos = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [[String: Any]])
    #expect(todos.count == 1510)
    #expect(todos.last?["title"] as? String == "task 1510")
  }


  /// A new todo's row is made two ways (issue 25): typed straight from the file's object
  /// (`ImportWriter.create`), and through the dictionary of fields `apply(_:existing:)` sets,
  /// which is the way of a uuid met again past its batch (the row its first object created
  /// takes the fields of the last). Each object gives the same row either way: every column but
  /// the number, the project by name.
  @Test func aNewTodoTypedOrMetAgain_getsTheSameRow() throws {
    let uuid = { (index: Int) in "b0000000-0000-4000-8000-" + String(format: "%012d", index) }
    let objects = [
      #"{"uuid":"\#(uuid(1))","status":"completed","entry":"20260101T000000Z","end":"20260102T030405Z","#
        + #""scheduled":"20260201T000000Z","description":"done 완료 🚀","priority":"H","project":"area.one","#
        + #""tags":["cli","집"],"estimate":3,"issue":"GH-7","#
        + #""annotations":[{"entry":"20260101T000100Z","description":"note 🚀"}]}"#,
      #"{"uuid":"\#(uuid(2))","status":"waiting","entry":"20260103T000000Z","wait":"20270101T000000Z","#
        + #""scheduled":"20260301T000000Z","description":"waiting","priority":"L","depends":"\#(uuid(1))"}"#,
      #"{"uuid":"\#(uuid(3))","status":"pending","entry":"20260104T000000Z","due":"20260310T000000Z","#
        + #""description":"pending, due"}"#,
      #"{"uuid":"\#(uuid(4))","status":"deleted","entry":"20260105T000000Z","end":"20260106T000000Z","#
        + #""scheduled":"20260110T000000Z","description":"deleted","project":"area.two","tags":["later"]}"#,
      #"{"uuid":"\#(uuid(5))","status":"pending","entry":"20260107T000000Z","description":"no day"}"#,
    ]
    let others = (1...600).map { Self.task($0, "other \($0)") }
    func rows(_ tasks: [String], _ name: String) throws -> [[String: DatabaseValue]] {
      let file = folder.file(name + ".json")
      try ("[\n" + tasks.joined(separator: ",\n") + "\n]\n").write(toFile: file, atomically: true, encoding: .utf8)
      let database = folder.file(name + ".sqlite")
      let imported = try BinaryTests.run(
        ["import", "taskwarrior", file],
        environment: ["OOTD_DB": database, "TZ": "UTC", "OOTD_NOW": "2026-11-22T09:00:00Z"])
      #expect(imported.code == 0, "\(imported.stderr)")
      return try DatabaseQueue(path: database).read { db in
        try Row.fetchAll(
          db,
          sql: """
            SELECT todo.*, project.name AS projectName FROM todo LEFT JOIN project ON project.id = todo.projectId
            WHERE todo.uuid LIKE 'b0000000-%' ORDER BY todo.uuid
            """
        ).map { row in
          var columns: [String: DatabaseValue] = [:]
          for (column, value) in row where column != "id" && column != "projectId" { columns[column] = value }
          return columns
        }
      }
    }
    // Typed: each object once, among others.
    let typed = try rows(objects + others, "typed")
    // Met again: each uuid first as a plain task, then 600 others (the first batch is applied),
    // then the object.
    let plain = (1...objects.count).map { index in
      #"{"uuid":"\#(uuid(index))","status":"pending","entry":"20250101T000000Z","description":"first \#(index)"}"#
    }
    let metAgain = try rows(plain + others + objects, "met-again")
    #expect(typed.count == objects.count)
    #expect(typed == metAgain)
    // The objects carry what a typed row may set: annotations, attributes, dropped.
    #expect(typed.contains { $0["annotations"] != .null } && typed.contains { $0["attributes"] != .null })
    #expect(typed.contains { $0["dropped"] == 1.databaseValue })
  }

  @Test func aBrokenObjectPastManyBatches_changesNothing() throws {
    #expect(try run(["add", "keep me"]).code == 0)
    let database = env["OOTD_DB"]!
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let good = (1...1500).map { Self.task($0, "task \($0)") }
    let array = folder.file("array.json")
    try ("[" + good.joined(separator: ",\n") + ",\n{\"uuid\": nope}]").write(toFile: array, atomically: true, encoding: .utf8)
    let refused = try run(["import", "taskwarrior", array])
    #expect(refused.code == 64)
    #expect(refused.stderr == "ootd: error: input: invalid JSON (unexpected 'n' at line 1501, column 10)\n", "\(refused.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    let lines = good.joined(separator: "\n") + "\n" + Self.task(1501, "") + "\n"
    let piped = try run(["import", "taskwarrior", "-"], stdin: lines)
    #expect(piped.code == 64)
    #expect(piped.stderr.hasPrefix("ootd: error: line 1501: ") && piped.stderr.split(separator: "\n").count == 1, "\(piped.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
  }
}
