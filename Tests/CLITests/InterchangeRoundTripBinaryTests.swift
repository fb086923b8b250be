import Core
import Foundation
import TestTags
import Testing

/// Issue 23, parts 1 and 2, end to end through the built binary (and the real `task`): what
/// ootd exports comes back unchanged, trip after trip; dropped work stays dropped; a
/// Taskwarrior history with deleted tasks reports the rate it really had.
@Suite(.tags(.binary)) struct InterchangeRoundTripBinaryTests {
  let folder: TemporaryFolder
  let env: [String: String]

  init() throws {
    folder = try TemporaryFolder()
    env = ["OOTD_DB": folder.file("ootd.sqlite")]
  }

  func run(_ arguments: [String], stdin: String? = nil, now: String? = nil) throws -> BinaryTests.Result {
    var environment = env
    if let now { environment["OOTD_NOW"] = now }
    let result = try BinaryTests.run(arguments, environment: environment, stdin: stdin)
    #expect(result.code == 0, "\(arguments): \(result.stderr)")
    return result
  }

  func counts(_ result: BinaryTests.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  /// A database with every kind of todo a trip could change: a fraction of a second in a done
  /// time, notes, tags, a project, a dropped todo, a later day, a Taskwarrior task with
  /// annotations, user-defined attributes and a due date beside its scheduled one, a todo.txt
  /// line with a threshold and a recurrence. `realTask`: only what the real `task` keeps as it
  /// is (no `wait`, which it acts on by the real clock, nor `depends` on absent tasks).
  func seed(realTask: Bool = false) throws {
    _ = try run(["project", "add", "ootd"])
    _ = try run(["add", "Write chapter", "--on", TestClock.day(-2), "--project", "ootd", "--priority", "high"])
    _ = try run(["note", "1", "chapter on WAL"])
    _ = try run(["add", "Done thing +bug +회의", "--on", TestClock.day(-1)])
    _ = try run(["done", "2"], now: "2026-11-22T11:00:00.476Z")
    _ = try run(["add", "Given up", "--on", TestClock.day(-1)])
    _ = try run(["drop", "3"])
    _ = try run(["add", "Later \"quoted\"", "--on", TestClock.day(1), "--priority", "low"])
    let day = TestClock.today.adding(days: -4)
    let start = Timestamp.string(day.start(in: TimeZone(identifier: "UTC")!), .compact)
    let extra = realTask ? "" : #","wait":"20991231T000000Z","depends":"a1b2c3d4-0000-4000-8000-000000000009""#
    let task = #"[{"uuid":"a1b2c3d4-0000-4000-8000-0000000000aa","status":"pending","entry":"20261101T080000Z","#
      + #""scheduled":""# + start + #"","due":"20261130T000000Z","description":"From Taskwarrior","project":"ootd","#
      + #""estimate":"3","issue":"GH-23","annotations":[{"entry":"20261102T090000Z","description":"first remark"},"#
      + #"{"entry":"20261103T090000Z","description":"second\nremark"}]"# + extra + "}]"
    let imported = try counts(try run(["import", "taskwarrior", "-", "--json"], stdin: task))
    #expect(imported["added"] as? Int == 1)
    let line = "x \(TestClock.day(-3)) (A) Fix prod alert +ootd pri:A t:\(TestClock.day(3)) rec:1w\n"
    _ = try run(["import", "todotxt", "-"], stdin: line)
    // The backlog: one waiting, one given up there (ids 7 and 8).
    _ = try run(["add", "Read the SQLite docs", "--someday", "--tag", "reading"])
    _ = try run(["add", "Maybe a Rust port", "--someday", "--priority", "low"])
    _ = try run(["drop", "8"])
  }

  func listing() throws -> String { try run(["list", "--all", "--json"]).stdout }

  /// Runs the real `task` (`binary`) on a data folder of this test's, by the test's zone.
  func task(_ binary: String, _ arguments: [String]) throws -> String {
    try taskOutput(binary, arguments).stdout
  }

  /// ``task(_:_:)`` with its standard error; `verbose` its `rc.verbose` (`footnote`: its
  /// warnings, which `nothing` keeps quiet).
  func taskOutput(_ binary: String, _ arguments: [String], verbose: String = "nothing") throws -> (stdout: String, stderr: String) {
    let data = folder.file("task-data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let rc = folder.file("taskrc")
    try "data.location=\(data)\n".write(toFile: rc, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["rc.confirmation=off", "rc.hooks=off", "rc.verbose=\(verbose)"] + arguments
    // task 2.6 crashes without HOME; the temporary folder stands in for it.
    process.environment = ["HOME": folder.path, "TASKDATA": data, "TASKRC": rc, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "task \(arguments): \(String(decoding: e, as: UTF8.self))")
    return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
  }

  /// A todo done on Auckland's today while this zone is still on the day before (as a sync
  /// keeps it, README) exports and imports back unchanged: an imported file is judged by the
  /// latest day that is today anywhere, as another machine's changes are (tryout 19 S1: the
  /// import moved it to this zone's today, `updated: 1`).
  @Test func aDoneTodoOfADayAheadOfThisZone_comesBackUnchanged() throws {
    let instant = "\(TestClock.day())T17:00:00Z"  // already the next day in Auckland
    var auckland = env
    (auckland["TZ"], auckland["OOTD_NOW"]) = ("Pacific/Auckland", instant)
    let added = try BinaryTests.run(["add", "Done in Auckland", "--done", "--json"], environment: auckland)
    #expect(added.code == 0, "\(added.stderr)")
    #expect(added.stdout.contains("\"\(TestClock.day(1))\""), "\(added.stdout)")
    let before = try run(["list", "--all", "--json"], now: instant).stdout
    for format in ["todotxt", "taskwarrior"] {
      let file = folder.file("ahead.\(format)")
      _ = try run(["export", "--format", format, "--output", file], now: instant)
      let imported = try run(["import", format, file, "--json"], now: instant)
      let result = try counts(imported)
      #expect(result["updated"] as? Int == 0 && result["unchanged"] as? Int == 1, "\(format): \(imported.stdout)")
      #expect((result["conflicts"] as? [Any])?.isEmpty == true, "\(format): \(imported.stdout)")
      #expect(try run(["list", "--all", "--json"], now: instant).stdout == before, "\(format)")
    }
  }

  /// `ootd export --format F` then `ootd import F` of it into the same database: all
  /// unchanged, three times over, and the listing byte for byte the same; F in both formats,
  /// one after the other.
  @Test func ownExports_comeBackUnchanged_tripAfterTrip() throws {
    try seed()
    let before = try listing()
    let count = try #require((try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [Any])?.count)
    #expect(count == 8)
    for format in ["todotxt", "taskwarrior"] {
      for trip in 1...3 {
        let file = folder.file("trip-\(trip).\(format)")
        _ = try run(["export", "--format", format, "--output", file])
        let result = try counts(try run(["import", format, file, "--json"]))
        #expect(result["added"] as? Int == 0, "\(format) trip \(trip)")
        #expect(result["updated"] as? Int == 0, "\(format) trip \(trip)")
        #expect(result["unchanged"] as? Int == count, "\(format) trip \(trip)")
        #expect(try listing() == before, "\(format) trip \(trip)")
      }
    }
    // What the files say: the identity, the dropped marker, the keys; deleted with its end.
    let todotxt = try run(["export", "--format", "todotxt"]).stdout
    #expect(todotxt.contains("Given up due:\(TestClock.day(-1)) dropped:yes ootd:"))
    #expect(todotxt.contains("x \(TestClock.day(-3)) "))
    #expect(todotxt.contains("Fix prod alert +ootd due:\(TestClock.day(-3)) pri:A rec:1w t:\(TestClock.day(3)) ootd:"))
    #expect(!todotxt.contains("(A) Fix"))
    // The backlog: no due: (given up there, still marked dropped), no scheduled or due.
    let someday = try #require(todotxt.split(separator: "\n").first { $0.contains("Read the SQLite docs") })
    #expect(!someday.contains("due:"))
    let givenUp = try #require(todotxt.split(separator: "\n").first { $0.contains("Maybe a Rust port") })
    #expect(!givenUp.contains("due:") && givenUp.contains("dropped:yes"))
    let tasks = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["export", "--format", "taskwarrior"]).stdout.utf8)) as? [[String: Any]])
    let dropped = try #require(tasks.first { $0["description"] as? String == "Given up" })
    #expect(dropped["status"] as? String == "deleted")
    #expect(dropped["end"] is String)
    for title in ["Read the SQLite docs", "Maybe a Rust port"] {
      let waiting = try #require(tasks.first { $0["description"] as? String == title })
      #expect(waiting["scheduled"] == nil && waiting["due"] == nil, "\(title)")
    }
    let fromTask = try #require(tasks.first { $0["description"] as? String == "From Taskwarrior" })
    #expect(fromTask["estimate"] as? String == "3")
    #expect(fromTask["due"] as? String == "20261130T000000Z")
    #expect((fromTask["annotations"] as? [[String: String]])?.map { $0["description"] } == ["first remark", "second\nremark"])
    let chapter = try #require(tasks.first { $0["description"] as? String == "Write chapter" })
    // The notes: one annotation, no prefix, however many trips.
    #expect((chapter["annotations"] as? [[String: String]])?.map { $0["description"] } == ["chapter on WAL"])
    let done = try #require(tasks.first { $0["description"] as? String == "Done thing" })
    #expect(done["end"] as? String == "20261122T110000Z")
  }

  /// Annotations are annotations, each with its time (`show`, text and JSON); attributes are
  /// attributes, not prose in the notes.
  @Test func show_listsAnnotationsAndAttributes() throws {
    try seed()
    let text = try run(["show", "5"]).stdout
    #expect(text.contains("Annotations\n  2026-11-02 09:00  first remark\n  2026-11-03 09:00  second\n    remark\n"), "\(text)")
    #expect(text.contains("Attributes\n  depends: a1b2c3d4-0000-4000-8000-000000000009\n  due: 20261130T000000Z\n  estimate: 3\n"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["show", "5", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(json["notes"] is NSNull)
    #expect(json["annotations"] as? [[String: String]] == [
      ["entry": "2026-11-02T09:00:00Z", "text": "first remark"], ["entry": "2026-11-03T09:00:00Z", "text": "second\nremark"],
    ])
    #expect((json["attributes"] as? [String: String])?["issue"] == "GH-23")
    #expect((json["attributes"] as? [String: String])?["wait"] == "20991231T000000Z")
    // Undo takes the import back whole, annotations and attributes with it; redo brings them.
    // (the seed's last five changes: the backlog's drop and two adds, then the two imports)
    for _ in 1...5 { _ = try run(["undo"]) }
    #expect(try BinaryTests.run(["show", "5"], environment: env).code != 0)
    for _ in 1...5 { _ = try run(["redo"]) }
    let again = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["show", "5", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(again["annotations"] as? [[String: String]] == json["annotations"] as? [[String: String]])
    #expect(again["attributes"] as? [String: String] == json["attributes"] as? [String: String])
  }

  /// The trip through the real Taskwarrior: `ootd export | task import`, `task export | ootd
  /// import` into the same database changes nothing; a dropped todo is a deleted task there.
  @Test(.enabled(
    if: InterchangeBinaryTests.taskBinary != nil || InterchangeBinaryTests.isCI,
    "Taskwarrior's 'task' is not installed (scripts/bootstrap installs it): the real round trip is skipped"))
  func tripThroughRealTaskwarrior_changesNothing() throws {
    let taskBinary = try #require(
      InterchangeBinaryTests.taskBinary, "Taskwarrior's 'task' is not on PATH and CI=true requires it: run scripts/bootstrap")
    try seed(realTask: true)
    let before = try listing()
    let count = try #require((try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [Any])?.count)
    func task(_ arguments: [String]) throws -> String { try self.task(taskBinary, arguments) }
    for trip in 1...3 {
      let file = folder.file("to-task-\(trip).json")
      _ = try run(["export", "--format", "taskwarrior", "--output", file])
      _ = try task(["import", file])
      let back = try task(["export"])
      let result = try counts(try run(["import", "taskwarrior", "-", "--json"], stdin: back))
      #expect(result["added"] as? Int == 0, "trip \(trip): \(result)")
      #expect(result["updated"] as? Int == 0, "trip \(trip): \(result)")
      #expect(result["unchanged"] as? Int == count, "trip \(trip): \(result)")
      #expect(try listing() == before, "trip \(trip)")
    }
    // Taskwarrior itself has the dropped todo as deleted, the notes and remarks as annotations.
    let tasks = try #require(try JSONSerialization.jsonObject(with: Data(task(["export"]).utf8)) as? [[String: Any]])
    #expect(tasks.first { $0["description"] as? String == "Given up" }?["status"] as? String == "deleted")
    let chapter = try #require(tasks.first { $0["description"] as? String == "Write chapter" })
    #expect((chapter["annotations"] as? [[String: Any]])?.compactMap { $0["description"] as? String } == ["chapter on WAL"])
  }

  /// A todo planned on a past day and dropped (tryout 19 F4): its Taskwarrior `end` is not
  /// before its `entry` (it was the start of its day, and `task import` warned "You have
  /// specified that the 'entry' date is after the 'end' date"); the trips stay exact: into the
  /// same database `updated 0` and the listing byte for byte, and through the real `task` into
  /// a fresh database every field.
  @Test(.enabled(
    if: InterchangeBinaryTests.taskBinary != nil || InterchangeBinaryTests.isCI,
    "Taskwarrior's 'task' is not installed (scripts/bootstrap installs it): the real round trip is skipped"))
  func aDroppedTodoOfAPastDay_endsNoEarlierThanItsEntry_andTaskImportsItWithoutAWarning() throws {
    let taskBinary = try #require(
      InterchangeBinaryTests.taskBinary, "Taskwarrior's 'task' is not on PATH and CI=true requires it: run scripts/bootstrap")
    _ = try run(["add", "rt dropped", "--on", TestClock.day(-8)])
    _ = try run(["drop", "1"])
    _ = try run(["add", "dropped ahead", "--on", TestClock.day(3)])
    _ = try run(["drop", "2"])
    _ = try run(["add", "dropped someday", "--someday"])
    _ = try run(["drop", "3"])
    let before = try listing()
    let file = folder.file("dropped.json")
    _ = try run(["export", "--format", "taskwarrior", "--output", file])
    let tasks = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
    let entry = Timestamp.string(TestClock.now, .compact)
    let ends = Dictionary(uniqueKeysWithValues: tasks.map { ($0["description"] as? String ?? "", $0["end"] as? String) })
    #expect(ends == ["rt dropped": entry, "dropped ahead": "\(TestClock.day(3).replacingOccurrences(of: "-", with: ""))T000000Z", "dropped someday": entry])
    for task in tasks {
      let (end, entry) = (try #require(task["end"] as? String), try #require(task["entry"] as? String))
      #expect(end >= entry, "\(task)")
    }
    // Into the same database: nothing changes.
    let result = try counts(try run(["import", "taskwarrior", file, "--json"]))
    #expect(result["updated"] as? Int == 0 && result["unchanged"] as? Int == 3, "\(result)")
    #expect(try listing() == before)
    // Through the real `task`: no warning, and back into a fresh database whole.
    let imported = try taskOutput(taskBinary, ["import", file], verbose: "footnote")
    #expect(!imported.stderr.contains("Warning"), "\(imported.stderr)")
    #expect(imported.stderr.contains("Imported 3 tasks."), "\(imported.stderr)")
    let back = try task(taskBinary, ["export"])
    let fresh = try TemporaryFolder()
    let freshEnv = ["OOTD_DB": fresh.file("ootd.sqlite")]
    let added = try BinaryTests.run(["import", "taskwarrior", "-", "--json"], environment: freshEnv, stdin: back)
    #expect(added.code == 0, "\(added.stderr)")
    #expect(try counts(added)["added"] as? Int == 3, "\(added.stdout)")
    #expect(try BinaryTests.run(["list", "--all", "--json"], environment: freshEnv).stdout == before)
  }

  /// `task export` writes a description's control characters raw but for `\n`, `\r`, `\t`,
  /// `\b` and `\f` (ESC, BEL, VT as they are: not strict JSON): the trip through the real `task`
  /// brings such a title back exactly (it stopped at "invalid JSON (a control character inside
  /// a string…)").
  @Test(.enabled(
    if: InterchangeBinaryTests.taskBinary != nil || InterchangeBinaryTests.isCI,
    "Taskwarrior's 'task' is not installed (scripts/bootstrap installs it): the real round trip is skipped"))
  func tripThroughRealTaskwarrior_keepsRawControlCharacters() throws {
    let taskBinary = try #require(
      InterchangeBinaryTests.taskBinary, "Taskwarrior's 'task' is not on PATH and CI=true requires it: run scripts/bootstrap")
    let title = "esc\u{1B}[31m bel\u{07} vt\u{0B} ff\u{0C} bs\u{08} cr\rx tab\t end"
    _ = try run(["add", title, "--on", TestClock.day()])
    let before = try listing()
    let file = folder.file("to-task.json")
    _ = try run(["export", "--format", "taskwarrior", "--output", file])
    _ = try task(taskBinary, ["import", file])
    let back = try task(taskBinary, ["export"])
    // What the import has to read: ESC and BEL raw inside the string.
    #expect(back.contains("\u{1B}[31m bel\u{07}"))
    let result = try counts(try run(["import", "taskwarrior", "-", "--json"], stdin: back))
    #expect(result["unchanged"] as? Int == 1, "\(result)")
    #expect(result["added"] as? Int == 0 && result["updated"] as? Int == 0, "\(result)")
    #expect(try listing() == before)
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(listing().utf8)) as? [[String: Any]])
    #expect(listed.first?["title"] as? String == title)
    // Raw NUL and raw line ends stay refused (they are no description `task` writes).
    for raw in ["\u{00}", "\n", "\r"] {
      let object = #"{"uuid":"a1b2c3d4-0000-4000-8000-0000000000bb","description":"a"# + raw + #"b"}"#
      let refused = try BinaryTests.run(["import", "taskwarrior", "-"], environment: env, stdin: object)
      #expect(refused.code == 64, "\(raw.unicodeScalars.map(\.value)): \(refused.stderr)")
      #expect(refused.stderr.contains("a control character inside a string"), "\(refused.stderr)")
    }
    #expect(try listing() == before)
  }

  /// A todo's block travels in the Taskwarrior export (`ootdblock`, through the real `task`
  /// too): imported into a fresh database, the todo has its block again and the missing block
  /// is created (a user block, as importing a project creates it); the file imported again
  /// changes nothing. Before, the export dropped it and the todo came back without.
  @Test func block_travelsThroughTaskwarrior_intoAFreshDatabase() throws {
    _ = try run(["block", "add", "pairing", "Pair with a colleague", "--priority", "high"])
    _ = try run(["add", "--block", "pairing", "--on", TestClock.day()])
    _ = try run(["add", "--block", "algorithm", "--on", TestClock.day(-1)])
    _ = try run(["add", "No block", "--on", TestClock.day()])
    let before = try listing()
    let file = folder.file("blocks.json")
    _ = try run(["export", "--format", "taskwarrior", "--output", file])
    var exported = try String(contentsOfFile: file, encoding: .utf8)
    #expect(exported.contains(#""ootdblock":"pairing""#) && exported.contains(#""ootdblock":"algorithm""#))
    if let taskBinary = InterchangeBinaryTests.taskBinary {
      // Through the real task: it keeps the UDA.
      _ = try task(taskBinary, ["import", file])
      exported = try task(taskBinary, ["export"])
      #expect(exported.contains(#""ootdblock":"pairing""#))
    }
    let fresh = try TemporaryFolder()
    let freshEnv = ["OOTD_DB": fresh.file("ootd.sqlite")]
    func freshRun(_ arguments: [String]) throws -> String {
      let result = try BinaryTests.run(arguments, environment: freshEnv, stdin: exported)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      return result.stdout
    }
    let imported = try #require(
      try JSONSerialization.jsonObject(with: Data(freshRun(["import", "taskwarrior", "-", "--json"]).utf8)) as? [String: Any])
    #expect(imported["added"] as? Int == 3)
    #expect(imported["blocks"] as? [String] == ["pairing"])
    // The listing there is this one's, whole: blocks, numbers and all.
    let listed = try freshRun(["list", "--all", "--json"])
    #expect(listed == before)
    let there = try todos(listed)
    #expect(Set(there.values.compactMap { $0["block"] as? String }) == ["pairing", "algorithm"])
    let blocks = try freshRun(["block", "list"])
    #expect(blocks.contains("pairing") && blocks.contains("Pair with a colleague"), "\(blocks)")
    let again = try #require(
      try JSONSerialization.jsonObject(with: Data(freshRun(["import", "taskwarrior", "-", "--json"]).utf8)) as? [String: Any])
    #expect(again["unchanged"] as? Int == 3 && again["blocks"] as? [String] == [], "\(again)")
  }

  /// A `list --all --json` by uuid, without the numbers and the other members in `without`.
  func todos(_ listing: String, without: Set<String> = []) throws -> [String: NSDictionary] {
    let all = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: all.map { todo in
      (todo["uuid"] as? String ?? "", NSDictionary(dictionary: todo.filter { $0.key != "id" && !without.contains($0.key) }))
    })
  }

  /// Issue W10/interchange18b: ootd's own export imported into a fresh database gives the same
  /// `list --all --json`, whole: the numbers (`ootdid`; before, a fresh database numbered the
  /// todos in the file's order, the backlog first), the days a todo was carried from
  /// (`ootdcarriedfrom`) and who marked it done (`ootddoneby`), in both formats and through the
  /// real `task` (`task import`, `task export`, `ootd import`). Into a database whose numbers are
  /// taken, each such todo takes the next free number and the summary counts them.
  @Test func ownExport_intoAFreshDatabase_isTheSameListingWhole() throws {
    try seed(realTask: true)
    _ = try run(["carry", "1", "--to", TestClock.day()])
    let before = try listing()
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [[String: Any]])
    #expect(listed.contains { ($0["carriedFrom"] as? [String])?.isEmpty == false })
    #expect(listed.contains { $0["doneBy"] as? String == "manual" })
    // The export's order is not the numbers' (the backlog first).
    #expect(listed.map { $0["id"] as? Int } != listed.map { $0["id"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) })
    var files: [(format: String, text: String)] = []
    for format in ["taskwarrior", "todotxt"] {
      files.append((format, try run(["export", "--format", format]).stdout))
    }
    if let taskBinary = InterchangeBinaryTests.taskBinary {
      let file = folder.file("to-task.json")
      _ = try run(["export", "--format", "taskwarrior", "--output", file])
      _ = try task(taskBinary, ["import", file])
      files.append(("taskwarrior", try task(taskBinary, ["export"])))
    }
    for (index, file) in files.enumerated() {
      let fresh = try TemporaryFolder()
      let freshEnv = ["OOTD_DB": fresh.file("ootd.sqlite")]
      func freshRun(_ arguments: [String]) throws -> String {
        let result = try BinaryTests.run(arguments, environment: freshEnv, stdin: file.text)
        #expect(result.code == 0, "\(arguments): \(result.stderr)")
        return result.stdout
      }
      let imported = try counts(BinaryTests.Result(code: 0, stdout: freshRun(["import", file.format, "-", "--json"]), stderr: ""))
      #expect(imported["added"] as? Int == listed.count && imported["renumbered"] as? Int == 0, "\(index): \(imported)")
      let after = try freshRun(["list", "--all", "--json"])
      if file.format == "taskwarrior" {
        #expect(after == before, "\(index) \(file.format)")
      } else {
        // todo.txt holds no notes, no annotations and no value with a space (README): the rest whole.
        #expect(try withoutProse(after) == withoutProse(before))
      }
    }
    // Numbers 1 and 2 taken (one still a todo's, one a removed todo's): those two move on.
    let taken = try TemporaryFolder()
    let takenEnv = ["OOTD_DB": taken.file("ootd.sqlite")]
    _ = try BinaryTests.run(["add", "Mine", "--on", TestClock.day()], environment: takenEnv)
    _ = try BinaryTests.run(["add", "Removed", "--on", TestClock.day()], environment: takenEnv)
    _ = try BinaryTests.run(["rm", "2", "--yes"], environment: takenEnv)
    let result = try BinaryTests.run(["import", "todotxt", "-"], environment: takenEnv, stdin: files[1].text)
    #expect(result.code == 0 && result.stdout.contains("2 todos took another number"), "\(result.stdout)")
    let there = try #require(
      try JSONSerialization.jsonObject(
        with: Data(BinaryTests.run(["list", "--all", "--json"], environment: takenEnv).stdout.utf8)) as? [[String: Any]])
    let ids = there.compactMap { $0["id"] as? Int }
    #expect(Set(ids).count == ids.count && !ids.contains(2))
    #expect(there.first { $0["title"] as? String == "Mine" }?["id"] as? Int == 1)
    for todo in listed where (todo["id"] as? Int ?? 0) > 2 {
      #expect(there.first { $0["uuid"] as? String == todo["uuid"] as? String }?["id"] as? Int == todo["id"] as? Int)
    }
  }

  /// Two objects of one uuid (tryout18 W7's `h_dup.json`, and `h_dupcase.json`: the uuid in
  /// another case) and two todo.txt lines of one `ootd:UUID` (`h_dupline`'s kind): the summary
  /// says so, in text and `--json` (`repeatedUUIDs`). Before, `1 todo added` and no word.
  @Test func repeatedUUIDs_areSaid() throws {
    let tasks = [
      #"[{"description":"first","uuid":"11111111-1111-4111-8111-111111111111","status":"pending","entry":"20261128T000000Z"},"#
        + #"{"description":"second","uuid":"11111111-1111-4111-8111-111111111111","status":"completed","end":"20261128T010000Z","entry":"20261128T000000Z"}]"#,
      #"[{"description":"first","uuid":"aaaaaaaa-1111-4111-8111-111111111111","status":"pending","entry":"20261128T000000Z"},"#
        + #"{"description":"second","uuid":"AAAAAAAA-1111-4111-8111-111111111111","status":"pending","entry":"20261128T000000Z"}]"#,
    ]
    for (index, file) in tasks.enumerated() {
      let fresh = try TemporaryFolder()
      let result = try BinaryTests.run(
        ["import", "taskwarrior", "-"], environment: ["OOTD_DB": fresh.file("ootd.sqlite")], stdin: file)
      #expect(result.code == 0 && result.stdout.contains("1 todo added"), "\(index): \(result.stdout)")
      #expect(
        result.stdout.contains("  repeated uuid 1: an item named the uuid of an earlier one (case aside): the later one kept"),
        "\(index): \(result.stdout)")
    }
    let lines = "(A) a ootd:11111111-1111-4111-8111-111111111111\n(B) b ootd:11111111-1111-4111-8111-111111111111\n"
    let json = try counts(try run(["import", "todotxt", "-", "--json"], stdin: lines))
    #expect(json["added"] as? Int == 2 && json["repeatedUUIDs"] as? Int == 1, "\(json)")
    let text = try run(["import", "todotxt", "-", "--dry-run"], stdin: lines).stdout
    #expect(text.contains("  repeated uuid 1: a line had the ootd:UUID of an earlier one: imported as a todo of its own"), "\(text)")
  }

  /// A `list --all --json` in its order, ids included, without what todo.txt cannot hold.
  func withoutProse(_ listing: String) throws -> [NSDictionary] {
    let all = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
    return all.map { NSDictionary(dictionary: $0.filter { !["notes", "annotations", "attributes"].contains($0.key) }) }
  }

  /// A todo's block travels in the todo.txt export too (`ootdblock:NAME`, the UDA's name):
  /// imported into a fresh database, `list --all --json` is this one's, blocks included, the
  /// missing block created as the Taskwarrior import creates it; the file again changes
  /// nothing. Before, the line had no block and the todo came back without.
  @Test func block_travelsThroughTodoTxt_intoAFreshDatabase() throws {
    _ = try run(["block", "add", "pairing", "Pair with a colleague", "--priority", "high"])
    _ = try run(["add", "--block", "pairing", "--on", TestClock.day()])
    _ = try run(["add", "--block", "algorithm", "--on", TestClock.day(-1)])
    _ = try run(["done", "2"])
    _ = try run(["add", "--block", "pairing", "--someday"])
    _ = try run(["drop", "3"])
    _ = try run(["add", "No block", "--on", TestClock.day()])
    let before = try listing()
    let file = folder.file("blocks.txt")
    _ = try run(["export", "--format", "todotxt", "--output", file])
    let exported = try String(contentsOfFile: file, encoding: .utf8)
    #expect(exported.contains(" ootdblock:pairing ") && exported.contains(" ootdblock:algorithm "), "\(exported)")
    let fresh = try TemporaryFolder()
    let freshEnv = ["OOTD_DB": fresh.file("ootd.sqlite")]
    func freshRun(_ arguments: [String]) throws -> String {
      let result = try BinaryTests.run(arguments, environment: freshEnv)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      return result.stdout
    }
    let imported = try #require(
      try JSONSerialization.jsonObject(with: Data(freshRun(["import", "todotxt", file, "--json"]).utf8)) as? [String: Any])
    #expect(imported["added"] as? Int == 4, "\(imported)")
    #expect(imported["blocks"] as? [String] == ["pairing"], "\(imported)")
    // Who marked it done travels too (`ootddoneby:`), and the numbers (`ootdid:`).
    let listed = try freshRun(["list", "--all", "--json"])
    #expect(listed == before)
    let there = try todos(listed)
    #expect(Set(there.values.compactMap { $0["block"] as? String }) == ["pairing", "algorithm"])
    #expect(there.values.filter { $0["doneBy"] as? String == "manual" }.count == 1)
    let blocks = try freshRun(["block", "list"])
    #expect(blocks.contains("pairing") && blocks.contains("Pair with a colleague"), "\(blocks)")
    let again = try #require(
      try JSONSerialization.jsonObject(with: Data(freshRun(["import", "todotxt", file, "--json"]).utf8)) as? [String: Any])
    #expect(again["unchanged"] as? Int == 4 && again["blocks"] as? [String] == [], "\(again)")
  }

  /// Titles an export could bend: every C0 control but NUL, DEL and C1 controls, bidi
  /// overrides, U+2028/U+2029, emoji, combining marks (decomposed, as typed), what reads as
  /// todo.txt's own (`x `, `(A) `, `+word`, `@word`, `key:value` words, ootd's keys twice, a run
  /// of spaces, the escape's text), and the longest title. Shared with the iCalendar leg
  /// (VTODOMappingTests keeps its own copy: another test target).
  static let hostileTitles: [String] = [
    "c0 " + String(String.UnicodeScalarView((1...31).map { Unicode.Scalar($0)! })) + " end",
    "del \u{7F} c1 \u{80}\u{85}\u{9B}\u{9F} end",
    "bidi \u{202E}txt.exe\u{202C} \u{2066}iso\u{2069} \u{200F}rlm",
    "ls\u{2028}ps\u{2029}end", "emoji 🧑‍💻🇰🇷 👍🏽", "combining e\u{301} a\u{308}\u{323} 한\u{1100}\u{1161}",
    "x 2026-11-01 looks done", "(A) looks high", "+word first", "@word first", "mid +proj @ctx 2+2 a@b end",
    "keys due:2026-12-01 t:1 t:2 pri:A pri:B ootd:a1b2c3d4-0000-4000-8000-000000000001 "
      + "ootd:a1b2c3d4-0000-4000-8000-000000000002 ootdblock:x ootdblock:y dropped:yes dropped:yes",
    #"escape text \u000A \\u001B back\ C:\Users"#, "runs a  b   c", "cr\rlf\ncrlf\r\nend",
    String(String(repeating: "long é🚀 ", count: 70).prefix(499)) + "!",
  ]

  /// Every format's export of hostile titles (``hostileTitles``), imported into a fresh
  /// database (and into the same one: all unchanged), gives `list --all --json` back exactly,
  /// each title byte for byte (through the real `task` too, when installed). Before, a title
  /// with a `key:value` word twice lost the second (`t:2` became an attribute of the todo).
  @Test func hostileTitles_comeBackExactly_inEveryFormat() throws {
    let day = TestClock.today.adding(days: -1)
    let start = Timestamp.string(day.start(in: TimeZone(identifier: "UTC")!), .compact)
    var tasks: [[String: Any]] = []
    for (index, title) in Self.hostileTitles.enumerated() {
      var task: [String: Any] = [
        "uuid": String(format: "b1b2c3d4-0000-4000-8000-%012d", index), "description": title, "entry": "20261101T080000Z",
        "status": index % 3 == 1 ? "completed" : "pending", "project": "ootd", "tags": ["t\(index % 2)"],
      ]
      if index % 3 == 1 { task["end"] = start }
      if index % 4 != 3 { task["scheduled"] = start }
      if index % 5 == 0 { task["ootdblock"] = "pairing" }
      tasks.append(task)
    }
    let json = String(decoding: try JSONSerialization.data(withJSONObject: tasks), as: UTF8.self)
    _ = try run(["import", "taskwarrior", "-"], stdin: json)
    let before = try listing()
    func titles(_ listing: String) throws -> [[UInt8]] {
      let all = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
      return all.compactMap { ($0["title"] as? String).map { Array($0.utf8) } }.sorted { $0.lexicographicallyPrecedes($1) }
    }
    #expect(Self.hostileTitles.last?.count == Title.maximumLength)
    let expected = Self.hostileTitles.map { Array((try! Title.validate($0)).utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    #expect(try titles(before) == expected)
    var files: [(String, String)] = []
    for format in ["todotxt", "taskwarrior"] {
      let file = folder.file("hostile.\(format)")
      _ = try run(["export", "--format", format, "--output", file])
      files.append((format, try String(contentsOfFile: file, encoding: .utf8)))
    }
    if let taskBinary = InterchangeBinaryTests.taskBinary {
      _ = try task(taskBinary, ["import", folder.file("hostile.taskwarrior")])
      files.append(("taskwarrior", try task(taskBinary, ["export"])))
    }
    for (trip, (format, text)) in files.enumerated() {
      let fresh = try TemporaryFolder()
      let result = try BinaryTests.run(["import", format, "-", "--json"], environment: ["OOTD_DB": fresh.file("ootd.sqlite")], stdin: text)
      #expect(result.code == 0, "\(format) \(trip): \(result.stderr)")
      let there = try BinaryTests.run(["list", "--all", "--json"], environment: ["OOTD_DB": fresh.file("ootd.sqlite")]).stdout
      #expect(try titles(there) == expected, "\(format) \(trip)")
      #expect(try todos(there) == (try todos(before)), "\(format) \(trip)")
      let same = try counts(try run(["import", format, "-", "--json"], stdin: text))
      #expect(same["unchanged"] as? Int == Self.hostileTitles.count, "\(format) \(trip): \(same)")
      #expect(try listing() == before, "\(format) \(trip)")
    }
  }

  /// A Taskwarrior history arrives honest: deleted tasks are dropped todos on their days, so a
  /// day reads the rate it had there (3 done of 4 planned: 75 %, not 100 %); a deleted task with
  /// no day is skipped and counted.
  @Test func deletedTaskHistory_keepsTheSourcesRate() throws {
    let day = TestClock.today.adding(days: -5)
    let utc = TimeZone(identifier: "UTC")!
    let noon = Timestamp.string(day.start(in: utc).addingTimeInterval(12 * 3600), .compact)
    func task(_ n: Int, _ status: String, _ extra: String) -> String {
      #"{"uuid":"a1b2c3d4-0000-4000-8000-00000000000\#(n)","status":"\#(status)","entry":"20261101T080000Z","description":"t\#(n)""#
        + extra + "}"
    }
    let file = "[" + [
      task(1, "completed", #","scheduled":"\#(noon)","end":"\#(noon)""#),
      task(2, "completed", #","due":"\#(noon)","end":"\#(noon)""#),
      task(3, "completed", #","end":"\#(noon)""#),
      task(4, "deleted", #","end":"\#(noon)""#),
      task(5, "deleted", ""),
    ].joined(separator: ",") + "]"
    let result = try counts(try run(["import", "taskwarrior", "-", "--json"], stdin: file))
    #expect(result["added"] as? Int == 4)
    #expect(result["skipped"] as? Int == 1)
    let report = try #require(
      try JSONSerialization.jsonObject(
        with: Data(run(["report", "--from", day.description, "--to", day.description, "--json"]).stdout.utf8))
        as? [String: Any])
    let days = try #require(report["days"] as? [[String: Any]])
    #expect(days.first?["total"] as? Int == 4)
    #expect(days.first?["done"] as? Int == 3)
    #expect(days.first?["rate"] as? Double == 0.75)
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(listing().utf8)) as? [[String: Any]])
    #expect(listed.filter { $0["dropped"] as? Bool == true }.map { $0["title"] as? String } == ["t4"])
    // And back out: the dropped todo is a deleted task again.
    let out = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["export", "--format", "taskwarrior"]).stdout.utf8)) as? [[String: Any]])
    #expect(out.first { $0["description"] as? String == "t4" }?["status"] as? String == "deleted")
  }

  /// An empty Taskwarrior export into a database that does not exist yet: 0 added.
  @Test func emptyExport_intoANewDatabase_addsNothing() throws {
    for arguments in [["import", "taskwarrior", "-", "--json"], ["import", "taskwarrior", "-", "--json", "--dry-run"]] {
      let fresh = try TemporaryFolder()
      let result = try BinaryTests.run(arguments, environment: ["OOTD_DB": fresh.file("new/ootd.sqlite")], stdin: "[]\n")
      #expect(result.code == 0, "\(result.stderr)")
      let counts = try self.counts(result)
      #expect(counts["added"] as? Int == 0 && counts["skipped"] as? Int == 0, "\(counts)")
    }
  }
}
