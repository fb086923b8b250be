import Core
import Foundation
import Interchange
import Testing

/// Taskwarrior JSON in (2.6 and 3.x shapes, every trap of the format) and out.
@Suite struct TaskwarriorTests {
  let utc = TimeZone(identifier: "UTC")!

  static func fixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return try Data(contentsOf: url)
  }

  func plan(_ text: String, timeZone: TimeZone? = nil) throws -> ImportPlan {
    try Taskwarrior.plan(Data(text.utf8), timeZone: timeZone ?? utc)
  }

  @Test func realTaskwarrior26Export() throws {
    let plan = try Taskwarrior.plan(Self.fixture("taskwarrior-2.6-export.json"), timeZone: utc)
    #expect(plan.skipped == ["recurring template (its instances are imported)": 1])
    let byTitle = Dictionary(grouping: plan.todos, by: \.title)
    let parser = try #require(byTitle["Write the import parser"]?.first)
    #expect(parser.uuid == "2a5968df-c2bd-4405-a4fe-a77e217769e9")
    #expect(parser.priority == .high)
    #expect(parser.project == "ootd.interchange")
    #expect(parser.day == Day(iso: "2026-03-02"))
    #expect(parser.tags == ["cli", "swift"])
    #expect(parser.notes?.contains("tags:") != true)
    // User-defined attributes are attributes, not prose in the notes.
    #expect(parser.attributes["estimate"] == "3")
    #expect(parser.attributes["issue"] == "GH-10")
    let korean = try #require(byTitle["커밋 메시지 정리하기 🚀"]?.first)
    #expect(korean.priority == .low)
    #expect(korean.project == "work.client")
    #expect(korean.day == Day(iso: "2026-03-05"))
    let milk = try #require(byTitle["Buy milk"]?.first)
    #expect(milk.isDone)
    #expect(milk.annotations?.map(\.text).contains("2 litres, semi-skimmed") == true)
    #expect(milk.notes == nil)
    #expect(milk.priority == .mid)
    let review = try #require(byTitle["Review the \"quoted\" PR; then merge"]?.first)
    #expect(review.attributes["depends"] == "2a5968df-c2bd-4405-a4fe-a77e217769e9")
    // A deleted task is given-up work on its day, not skipped.
    let old = try #require(byTitle["Old idea"]?.first)
    #expect(old.isDropped && !old.isDone)
    let plants = try #require(byTitle["Water the plants"])
    #expect(plants.count > 1)  // the instances, not the template
    // Each instance is a todo on its day, without the recurrence bookkeeping.
    #expect(plants.allSatisfy { $0.notes == nil && $0.attributes.isEmpty })
    #expect(plants.first?.day == Day(iso: "2026-03-01"))
  }

  @Test(arguments: [
    // (input, expected titles)
    (#"{"uuid":"A1B2C3D4-0000-4000-8000-000000000001","status":"pending","entry":"20240101T000000Z","description":"one object"}"#, ["one object"]),
    ("{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"a\"}\r\n\r\n{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000002\",\"status\":\"waiting\",\"wait\":\"20990101T000000Z\",\"entry\":\"1704067200\",\"description\":\"b\"}\r\n", ["a", "b"]),
    ("[ {\"uuid\" : \"a1b2c3d4-0000-4000-8000-000000000001\",\n \"status\":\"pending\", \"entry\": 1704067200, \"description\":\"free-form\"} ]", ["free-form"]),
    ("[]", []),
    ("", []),
  ])
  func shapes(input: String, titles: [String]) throws {
    #expect(try plan(input).todos.map(\.title) == titles)
  }

  @Test(
    "the day: pending without scheduled or due is the backlog; a finished task falls back to end, a done one to entry",
    arguments: [
      // (task members, expected day, expected dayIsDefault)
      (#""status":"pending","entry":"20240101T000000Z""#, nil, true),
      (#""status":"waiting","entry":"20240101T000000Z","wait":"20990101T000000Z""#, nil, true),
      (#""status":"pending","entry":"20240101T000000Z","due":"20240110T000000Z""#, "2024-01-10", false),
      (#""status":"completed","entry":"20240101T000000Z","end":"20240105T100000Z""#, "2024-01-05", true),
      (#""status":"completed","entry":"20240101T000000Z""#, "2024-01-01", true),
      (#""status":"deleted","entry":"20240101T000000Z","end":"20240107T100000Z""#, "2024-01-07", true),
      (#""status":"deleted","entry":"20240101T000000Z","scheduled":"20240103T000000Z","end":"20240107T100000Z""#, "2024-01-03", false),
    ] as [(String, String?, Bool)])
  func dayOrBacklog(members: String, day: String?, isDefault: Bool) throws {
    let text = #"[{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","description":"t","#  + members + "}]"
    let todo = try #require(try plan(text).todos.first)
    #expect(todo.day == day.flatMap(Day.init(iso:)))
    #expect(todo.dayIsDefault == isDefault)
  }

  @Test func datesEpochCompactAndTimeZone() throws {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    let text = #"""
      [{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","status":"pending","entry":"1704067200","due":"20240110T200000Z","description":"due late UTC"},
       {"uuid":"a1b2c3d4-0000-4000-8000-000000000002","status":"completed","entry":"20240101T000000Z","end":"20240105T100000","description":"done"},
       {"uuid":"a1b2c3d4-0000-4000-8000-000000000003","status":"pending","entry":"20240101T000000Z","due":"20240110T000000Z","scheduled":"20240108T000000Z","description":"scheduled wins"}]
      """#
    let todos = try plan(text, timeZone: seoul).todos
    #expect(todos[0].day == Day(iso: "2024-01-11"))  // 20:00 UTC is the next morning in Seoul
    #expect(todos[0].createdAt == Date(timeIntervalSince1970: 1_704_067_200))
    #expect(todos[1].isDone && todos[1].day == Day(iso: "2024-01-05"))
    #expect(todos[1].doneAt == Date(timeIntervalSince1970: 1_704_448_800))
    #expect(todos[2].day == Day(iso: "2024-01-08"))
    #expect(todos[2].notes == nil)
    #expect(todos[2].attributes == ["due": "20240110T000000Z"])
  }

  @Test func dependsAsStringOrArray() throws {
    let text = #"""
      {"uuid":"a1b2c3d4-0000-4000-8000-000000000001","status":"pending","entry":"20240101T000000Z","description":"old","depends":"a1b2c3d4-0000-4000-8000-000000000009,a1b2c3d4-0000-4000-8000-000000000008"}
      {"uuid":"a1b2c3d4-0000-4000-8000-000000000002","status":"pending","entry":"20240101T000000Z","description":"new","depends":["a1b2c3d4-0000-4000-8000-000000000009"]}
      """#
    let todos = try plan(text).todos
    #expect(todos[0].attributes == ["depends": "a1b2c3d4-0000-4000-8000-000000000009,a1b2c3d4-0000-4000-8000-000000000008"])
    #expect(todos[1].attributes == ["depends": "a1b2c3d4-0000-4000-8000-000000000009"])
  }

  @Test(arguments: [
    // (tags in the file, ootd tags, notes)
    (#"["next","Work"]"#, ["next", "work"], nil as String?),
    (#"["bug","bug","BUG"]"#, ["bug"], nil),
    (#"["회의","🚀","2fa","a b","ok"]"#, ["ok", "회의"], "tags: 🚀, 2fa, a b"),
    (#"[]"#, [], nil),
  ])
  func tagsBecomeTagsOrStayInNotes(tags: String, expected: [String], notes: String?) throws {
    let text = #"{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","status":"pending","entry":"20240101T000000Z","description":"t","tags":"#
      + tags + "}"
    let todo = try #require(try plan(text).todos.first)
    #expect(todo.tags == expected)
    #expect(todo.notes == notes)
  }

  /// Values of the wrong JSON type (tryout18 W7, its file `h_pri.json`): each stays in the
  /// notes as `key: value`, as a value no field can hold does; before, priority, project, tags
  /// and annotations of another type were gone without a word, `depends` of numbers became
  /// empty, and a status of another type read as pending.
  @Test func wrongTypes_stayInTheNotes() throws {
    let task = #"[{"description":"pn","uuid":"21111111-1111-4111-8111-111111111111","status":"pending","#
      + #""priority":5,"project":7,"tags":"solo","depends":["x"],"due":12,"ootdblock":["b"],"#
      + #""annotations":{"a":1},"wait":[1,2]}]"#
    let todo = try #require(try plan(task).todos.first)
    #expect(todo.priority == .mid && todo.project == nil && todo.tags.isEmpty && todo.block == nil)
    #expect(todo.notes == "priority: 5\nproject: 7\nootdblock: [\"b\"]\ntags: solo\nannotations: {\"a\":1}")
    // An array of uuids is Taskwarrior 3's `depends`; an array of anything else is kept as JSON.
    #expect(todo.attributes == ["depends": "x", "wait": "[1,2]"])
    #expect(todo.day == Day(iso: "1970-01-01"))  // epoch seconds, as Taskwarrior writes them
    let numbers = try #require(
      try plan(#"[{"description":"d","uuid":"21111111-1111-4111-8111-111111111111","depends":[1,"y"],"tags":["a",2],"#
        + #""annotations":[3,{"entry":"20260101T000000Z","description":4}]}]"#).todos.first)
    #expect(numbers.attributes == ["depends": #"[1,"y"]"#])
    #expect(numbers.notes == #"tags: ["a",2]"# + "\n" + #"annotation: 3"# + "\n" + #"annotation: {"description":4,"entry":"20260101T000000Z"}"#)
    #expect(throws: InterchangeError.self) {
      try plan(#"[{"description":"d","uuid":"21111111-1111-4111-8111-111111111111","status":3}]"#)
    }
  }

  /// ootd's own UDAs read back as hostile values: exactly what ootd writes is the field
  /// (`ootdid` digits above 0, `ootdcarriedfrom` real days, `ootddoneby` a known word on a done
  /// task); anything else stays in the notes, never a crash nor a silent loss.
  @Test func ootdFields_readBackOrStayInTheNotes() throws {
    let good = try #require(
      try plan(#"[{"description":"d","uuid":"21111111-1111-4111-8111-111111111111","status":"completed","#
        + #""end":"20260102T000000Z","ootdid":"42","ootdcarriedfrom":"2025-12-31,2025-12-30","ootddoneby":"commits"}]"#)
        .todos.first)
    #expect(good.number == 42 && good.doneBy == .commits && good.notes == nil)
    #expect(good.carriedFrom == [Day(iso: "2025-12-30")!, Day(iso: "2025-12-31")!])
    for (member, value) in [
      ("ootdid", #""0""#), ("ootdid", #""007""#), ("ootdid", #""-3""#), ("ootdid", #""99999999999999999999""#),
      ("ootdid", "5"), ("ootdcarriedfrom", #""2026-02-30""#), ("ootdcarriedfrom", #""2026-01-01,""#),
      ("ootdcarriedfrom", #""yesterday""#), ("ootddoneby", #""me""#),
    ] {
      let todo = try #require(
        try plan(#"[{"description":"d","uuid":"21111111-1111-4111-8111-111111111111","status":"completed","#
          + #""end":"20260102T000000Z",""# + member + #"":"# + value + "}]").todos.first)
      #expect(todo.number == nil && todo.carriedFrom == nil && todo.doneBy == nil, "\(member) \(value)")
      let bare = value.replacingOccurrences(of: "\"", with: "")
      #expect(todo.notes == "\(member): \(bare)", "\(member) \(value)")
    }
    // An open task was ticked by nothing: its ootddoneby stays in the notes.
    let open = try #require(
      try plan(#"[{"description":"d","uuid":"21111111-1111-4111-8111-111111111111","ootddoneby":"manual"}]"#).todos.first)
    #expect(open.doneBy == nil && open.notes == "ootddoneby: manual")
  }

  @Test func duplicateUUIDKeepsTheLastObject() throws {
    let text = #"""
      [{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","status":"pending","entry":"20240101T000000Z","description":"first"},
       {"uuid":"A1B2C3D4-0000-4000-8000-000000000001","status":"pending","entry":"20240101T000000Z","description":"second"}]
      """#
    #expect(try plan(text).todos.map(\.title) == ["second"])
    #expect(try plan(text).repeated == [RepeatedUUID.laterKept: 1])
  }

  @Test(arguments: [
    ("[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\"}]", "object 1: no 'description'"),
    ("[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"x\"},{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000002\",\"status\":\"pending\",\"entry\":\"20241341T000000Z\",\"description\":\"y\"}]", "object 2: impossible date '20241341T000000Z' in 'entry'"),
    // Epoch seconds name any instant: a day past either end of the calendar is refused here,
    // not by the database's CHECK (which failed the import as a runtime error, exit 1).
    ("[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"x\",\"scheduled\":\"253402300800\"}]", "object 1: day +10000-01-01 is outside the calendar (years 1 to 9999)"),
    ("[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"x\",\"scheduled\":-62135596801}]", "object 1: day 0000-12-31 is outside the calendar (years 1 to 9999)"),
    ("[{\"uuid\":\"not-a-uuid\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"x\"}]", "object 1: no valid 'uuid'"),
    ("[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"lost\",\"entry\":\"20240101T000000Z\",\"description\":\"x\"}]", "object 1: unknown status 'lost'"),
    ("{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"x\"}\n{\"uuid\": nope}\n", "line 2: invalid JSON"),
    ("[{\"uuid\":", "input: invalid JSON"),
    ("\n\n[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"x\"}]\n{\"a\":1}\n", "line 3: expected one JSON object per line, or a single array"),
    ("[{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"status\":\"pending\",\"entry\":\"20240101T000000Z\",\"description\":\"   \"}]", "object 1: "),
  ])
  func malformedInputNamesThePlace(input: String, message: String) throws {
    #expect(throws: InterchangeError.self) { try plan(input) }
    do {
      _ = try plan(input)
    } catch {
      #expect("\(error)".hasPrefix(message), "\("\(error)")")
      #expect(!"\(error)".contains("\n"))
    }
  }

  /// The first day of the calendar starts in year 0 east of UTC: it was exported as
  /// `00001231T150000Z`, which the import refused ("impossible date").
  @Test func theFirstDayOfTheCalendar_comesBackFromItsExport() throws {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    var first = Todo(
      id: 1, title: "first", priority: .mid, day: Day(iso: "0001-01-01")!,
      createdAt: Date(timeIntervalSince1970: 0), uuid: "a1b2c3d4-0000-4000-8000-000000000001")
    first.isDropped = true
    let text = Taskwarrior.export([first], timeZone: seoul, now: Date(timeIntervalSince1970: 0))
    let objects = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
    #expect(objects[0]["scheduled"] as? String == "00010101T000000Z")
    // Dropped: `end` is never before `entry` (here the later of the two).
    #expect(objects[0]["end"] as? String == "19700101T000000Z")
    let back = try Taskwarrior.plan(Data(text.utf8), timeZone: seoul).todos
    #expect(back.map(\.day) == [first.day])
    #expect(back.map(\.isDropped) == [true])
  }

  @Test func exportIsTheMappingReversed() throws {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    var done = Todo(
      id: 1, title: "커밋 🚀 \"quoted\"", priority: .high, day: Day(iso: "2024-03-02")!, isDone: true,
      doneAt: Date(timeIntervalSince1970: 1_709_400_000), project: "work.client",
      createdAt: Date(timeIntervalSince1970: 1_709_000_000), uuid: "a1b2c3d4-0000-4000-8000-000000000001")
    done.notes = "kept"
    done.tags = ["bug", "회의"]
    let open = Todo(
      id: 2, title: "open", priority: .low, day: Day(iso: "2024-03-03")!,
      createdAt: Date(timeIntervalSince1970: 1_709_000_000), uuid: "a1b2c3d4-0000-4000-8000-000000000002")
    let text = Taskwarrior.export([done, open], timeZone: seoul, now: Date(timeIntervalSince1970: 1_709_500_000))
    let back = try Taskwarrior.plan(Data(text.utf8), timeZone: seoul).todos
    #expect(back.map(\.uuid) == [done.uuid, open.uuid])
    #expect(back.map(\.title) == [done.title, "open"])
    #expect(back.map(\.priority) == [.high, .low])
    #expect(back.map(\.day) == [done.day, open.day])
    #expect(back.map(\.isDone) == [true, false])
    #expect(back.map(\.project) == ["work.client", nil])
    #expect(back[0].doneAt == done.doneAt)
    #expect(back[0].notes?.contains("kept") == true)
    #expect(back.map(\.tags) == [["bug", "회의"], []])
    let objects = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
    #expect(objects[0]["scheduled"] as? String == "20240301T150000Z")  // Seoul midnight in UTC
    #expect(objects[0]["status"] as? String == "completed")
    #expect(objects[1]["priority"] as? String == "L")
    #expect(objects[0]["tags"] as? [String] == ["bug", "회의"])
    #expect(objects[1]["tags"] == nil)  // no empty array: Taskwarrior omits it too
  }

  /// Dropped is `deleted` with `end`; annotations and attributes go out and come back as they
  /// were; the notes are the annotation stamped with the task's entry, so a trip adds no prefix.
  @Test func droppedAnnotationsAttributesAndNotes_goOutAndComeBackUnchanged() throws {
    let created = Date(timeIntervalSince1970: 1_709_000_000.476)
    var dropped = Todo(
      id: 1, title: "given up", priority: .mid, day: Day(iso: "2024-03-02")!, createdAt: created,
      uuid: "a1b2c3d4-0000-4000-8000-000000000001")
    dropped.isDropped = true
    dropped.notes = "annotation 2024-03-01: chapter on WAL\nsecond line"
    dropped.annotations = [
      Annotation(entry: Date(timeIntervalSince1970: 1_709_100_000), text: "first"),
      Annotation(entry: Date(timeIntervalSince1970: 1_709_200_000), text: "\u{1b}[2J hostile"),
    ]
    dropped.attributes = ["estimate": "3", "wait": "20240310T000000Z", "depends": "a1b2c3d4-0000-4000-8000-000000000009"]
    let text = Taskwarrior.export([dropped], timeZone: utc, now: Date(timeIntervalSince1970: 1_709_500_000))
    let object = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])?.first)
    #expect(object["status"] as? String == "deleted")
    #expect(object["end"] as? String == "20240302T000000Z")
    #expect(object["estimate"] as? String == "3")
    #expect((object["annotations"] as? [[String: String]])?.map { $0["entry"] ?? "" }
      == ["20240227T021320Z", "20240228T060000Z", "20240229T094640Z"])
    var trip = text
    for _ in 1...3 {
      let back = try #require(try Taskwarrior.plan(Data(trip.utf8), timeZone: utc).todos.first)
      #expect(back.isDropped && !back.isDone)
      #expect(back.day == dropped.day)
      #expect(back.notes == dropped.notes)
      #expect(back.annotations == dropped.annotations)
      #expect(back.attributes == dropped.attributes)
      var again = dropped
      again.notes = back.notes
      again.annotations = back.annotations ?? []
      again.attributes = back.attributes
      trip = Taskwarrior.export([again], timeZone: utc, now: Date(timeIntervalSince1970: 1_709_500_000))
    }
    #expect(trip == text)
  }

  /// A todo dropped on a day before it was made (`add --on` a past day, then `drop`): its
  /// `end` is its `entry`, not the start of its day before it (tryout 19 F4: `task import`
  /// warned "the 'entry' date is after the 'end' date"); on a later day, the day's start. The
  /// day comes back from `scheduled` either way.
  @Test func aDroppedTodosEnd_isNeverBeforeItsEntry() throws {
    let created = Timestamp.date("2026-11-28T09:00:00Z", .iso8601)!
    var past = Todo(
      id: 5, title: "rt dropped", priority: .mid, day: Day(iso: "2026-11-20")!, createdAt: created,
      uuid: "a1b2c3d4-0000-4000-8000-000000000005")
    past.isDropped = true
    var later = past
    (later.id, later.uuid, later.day) = (6, "a1b2c3d4-0000-4000-8000-000000000006", Day(iso: "2026-12-01")!)
    let text = Taskwarrior.export([past, later], timeZone: utc, now: created)
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    #expect(objects.map { $0["end"] as? String } == ["20261128T090000Z", "20261201T000000Z"])
    #expect(objects.map { $0["entry"] as? String } == ["20261128T090000Z", "20261128T090000Z"])
    let back = try Taskwarrior.plan(Data(text.utf8), timeZone: utc).todos
    #expect(back.map(\.day) == [past.day, later.day])
    #expect(back.allSatisfy { $0.isDropped && !$0.isDone && $0.doneAt == nil })
  }

  /// A done time agrees with Taskwarrior's whole second: ootd's fraction is kept.
  @Test func doneTimeAgreesToTheSecond() throws {
    let text = #"[{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","status":"completed","entry":"20240101T000000Z","end":"20240105T110000Z","description":"d"}]"#
    let todo = try #require(try plan(text).todos.first)
    let end = Date(timeIntervalSince1970: 1_704_452_400)
    #expect(todo.agreesOnDoneTime(end.addingTimeInterval(0.476)))
    #expect(!todo.agreesOnDoneTime(end.addingTimeInterval(1)))
    #expect(!todo.agreesOnDoneTime(end.addingTimeInterval(-0.5)))
  }

  @Test func deletedTasks_areDroppedOnTheirDay_orSkippedWithoutOne() throws {
    let text = #"""
      [{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","status":"deleted","entry":"20240101T000000Z","end":"20240103T100000Z","description":"by end"},
       {"uuid":"a1b2c3d4-0000-4000-8000-000000000002","status":"deleted","entry":"20240101T000000Z","due":"20240104T100000Z","end":"20240103T100000Z","description":"by due"},
       {"uuid":"a1b2c3d4-0000-4000-8000-000000000003","status":"deleted","entry":"20240101T000000Z","description":"no day"},
       {"uuid":"a1b2c3d4-0000-4000-8000-000000000004","status":"recurring","entry":"20240101T000000Z","due":"20240104T100000Z","recur":"weekly","description":"template"}]
      """#
    let plan = try plan(text)
    #expect(plan.todos.map(\.title) == ["by end", "by due"])
    #expect(plan.todos.map(\.day) == [Day(iso: "2024-01-03"), Day(iso: "2024-01-04")])
    #expect(plan.todos.allSatisfy { $0.isDropped && !$0.isDone && $0.doneAt == nil })
    #expect(plan.skipped == [
      "deleted task without a day ('scheduled', 'due' or 'end')": 1,
      "recurring template (its instances are imported)": 1,
    ])
  }

  /// Hostile fields: a key no attribute can have stays in the notes; control characters are
  /// kept as data; too many attributes stop the import with one line.
  @Test func hostileAttributes() throws {
    let text = #"{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","entry":"20240101T000000Z","description":"x","a b":"1","ok":"\u001b[2J","Ok":"case twin"}"#
    let todo = try #require(try plan(text).todos.first)
    #expect(todo.attributes == ["Ok": "case twin"])
    #expect(todo.notes == "a b: 1\nok: \u{1b}[2J")
    let many = (0...Caps.attributesPerTodo).map { #""u\#($0)":"v""# }.joined(separator: ",")
    let crowded = #"{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","entry":"20240101T000000Z","description":"x","# + many + "}"
    #expect(throws: InterchangeError.self) { try plan(crowded) }
  }
}
