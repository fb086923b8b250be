import Core
import Foundation
import Testing

@testable import CLI

/// A CalDAV collection in memory (issue 27): entity tags, 412s for stale `If-Match` and
/// existing `If-None-Match: *`, sync tokens, a phone's edits, and a fault after k calls.
final class MemoryCollection: CalendarCollection, @unchecked Sendable {
  struct Resource {
    var etag: String
    var ics: String
  }

  private let lock = NSLock()
  private var resources: [String: Resource] = [:]
  /// (token number, href) of each change, in order; a removal has a nil resource.
  private var log: [(Int, String)] = []
  private var version = 0
  private var etags = 0
  var supportsTokens = true
  /// The calls made so far, by name.
  private(set) var calls: [String] = []
  /// Every call after this many fails as a lost connection (nil: none fails).
  var failAfter: Int?
  /// With ``failAfter``: the first failing call is done on the server, only its answer is lost.
  var answerLost = false
  /// Run once before the next update of a path (a phone editing meanwhile).
  var beforeUpdate: [String: (MemoryCollection) -> Void] = [:]
  static let root = "/alice/tasks/"

  /// Counts a call; throws when it fails before reaching the server; returns whether it must
  /// fail after the server did it (its answer lost).
  @discardableResult
  private func call(_ name: String) throws -> Bool {
    lock.lock()
    defer { lock.unlock() }
    calls.append(name)
    guard let failAfter, calls.count > failAfter else { return false }
    if answerLost && calls.count == failAfter + 1 { return true }
    throw CalendarCollectionError.transport("connection lost (test)")
  }

  private static let lost = CalendarCollectionError.transport("connection lost (test)")

  private func put(_ href: String, _ ics: String) -> CalendarResource {
    lock.lock()
    defer { lock.unlock() }
    etags += 1
    version += 1
    let etag = "\"e\(etags)\""
    resources[href] = Resource(etag: etag, ics: ics)
    log.append((version, href))
    return CalendarResource(href: href, etag: etag)
  }

  // MARK: - The phone

  var objects: [String: Resource] { lock.withLock { resources } }
  func ics(_ href: String) -> String? { lock.withLock { resources[href]?.ics } }
  func href(uid: String) -> String? { objects.first { $0.value.ics.contains("UID:\(uid)\r\n") }?.key }
  func phoneSet(_ href: String, _ ics: String) { _ = put(href, ics) }
  func phoneEdit(_ href: String, _ edit: (String) -> String) { phoneSet(href, edit(ics(href)!)) }
  func phoneDelete(_ href: String) {
    lock.withLock {
      resources[href] = nil
      version += 1
      log.append((version, href))
    }
  }

  // MARK: - CalendarCollection

  func describe() async throws -> CollectionInfo {
    try call("describe")
    return CollectionInfo(displayName: "Tasks", ctag: "c\(version)", syncToken: supportsTokens ? "t\(version)" : nil, supportsTodos: true)
  }

  func changes(since token: String?) async throws -> CollectionChanges {
    try call("changes")
    return lock.withLock {
      let current = supportsTokens ? "t\(version)" : nil
      guard supportsTokens, let token, token.hasPrefix("t"), let from = Int(token.dropFirst()), from <= version else {
        return CollectionChanges(
          syncToken: current, changed: resources.map { CalendarResource(href: $0.key, etag: $0.value.etag) },
          removed: [], isFullListing: true)
      }
      let hrefs = Set(log.filter { $0.0 > from }.map(\.1))
      return CollectionChanges(
        syncToken: current,
        changed: hrefs.compactMap { href in resources[href].map { CalendarResource(href: href, etag: $0.etag) } },
        removed: hrefs.filter { resources[$0] == nil }, isFullListing: false)
    }
  }

  func fetch(_ hrefs: [String]) async throws -> [CalendarObject] {
    try call("fetch")
    return lock.withLock { hrefs.compactMap { href in resources[href].map { CalendarObject(href: href, etag: $0.etag, ics: $0.ics) } } }
  }

  func create(name: String, ics: String) async throws -> CalendarResource {
    let lose = try call("create")
    let href = Self.root + name
    if objects[href] != nil { throw CalendarCollectionError.preconditionFailed(href: href) }
    let resource = put(href, ics)
    if lose { throw Self.lost }
    return resource
  }

  func update(href: String, ifMatch etag: String, ics: String) async throws -> CalendarResource {
    let lose = try call("update")
    if let edit = lock.withLock({ beforeUpdate.removeValue(forKey: href) }) { edit(self) }
    guard let current = objects[href] else { throw CalendarCollectionError.notFound(href: href) }
    guard current.etag == etag else { throw CalendarCollectionError.preconditionFailed(href: href) }
    let resource = put(href, ics)
    if lose { throw Self.lost }
    return resource
  }

  func delete(href: String, ifMatch etag: String) async throws {
    let lose = try call("delete")
    guard let current = objects[href] else { return }
    guard current.etag == etag else { throw CalendarCollectionError.preconditionFailed(href: href) }
    phoneDelete(href)
    if lose { throw Self.lost }
  }

  /// A VTODO as a phone writes one.
  static func phoneTodo(uid: String, summary: String, day: String?, extra: [String] = []) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:\(uid)", "SUMMARY:\(summary)"]
    if let day { lines.append("DTSTART;VALUE=DATE:\(day.replacingOccurrences(of: "-", with: ""))") }
    lines += extra + ["END:VTODO", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
  }
}

/// `ootd caldav` in-process against ``MemoryCollection`` on a real database file: the run's
/// steps, counts, undo, conflicts, 412s and a sync stopped after each call.
@Suite("CalDAV sync against an in-memory collection")
struct CalDAVSyncRunTests {
  struct Setup {
    var harness: Harness
    let collection: MemoryCollection

    init() async throws {
      harness = try Harness()
      collection = MemoryCollection()
      harness.variables["OOTD_CALDAV_PASSWORD"] = "secret-pw"
      harness.calDAVCollection = collection
      let set = await harness.run(["caldav", "set", "https://dav.example.com/alice/tasks/", "--user", "alice"])
      #expect(set.code == 0, "\(set.stderr)")
    }

    func sync(_ extra: [String] = []) async throws -> [String: Any] {
      let result = await harness.run(["caldav", "sync", "--json"] + extra)
      #expect(result.code == 0, "\(result.stderr)")
      return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func counts(_ json: [String: Any]) -> [Int] {
      ["pushed", "pulled", "deleted", "conflicts"].map { json[$0] as? Int ?? -1 }
    }

    func add(_ title: String, _ extra: [String] = []) async throws -> [String: Any] {
      let result = await harness.run(["add", title, "--json"] + extra)
      #expect(result.code == 0, "\(result.stderr)")
      return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func todo(_ uuid: String) async throws -> [String: Any]? {
      try await harness.allTodos().first { $0["uuid"] as? String == uuid }
    }
  }

  /// The harness's today in its zone (Asia/Seoul).
  static let today = "2026-11-22"

  @Test func firstSyncPushesTheWindowThenNothing() async throws {
    let setup = try await Setup()
    let a = try await setup.add("Today's todo")
    _ = try await setup.add("Tomorrow's", ["--on", "2026-11-23"])
    _ = try await setup.add("Someday", ["--on", "someday"])
    _ = try await setup.add("Far away", ["--on", "2027-06-01"])
    let first = try await setup.sync()
    #expect(setup.counts(first) == [3, 0, 0, 0])
    #expect(setup.collection.objects.count == 3)
    let href = try #require(setup.collection.href(uid: a["uuid"] as! String))
    #expect(href == MemoryCollection.root + (a["uuid"] as! String) + ".ics")
    let second = try await setup.sync()
    #expect(setup.counts(second) == [0, 0, 0, 0])
    // A no-op sync is one listing, nothing fetched.
    let calls = setup.collection.calls
    #expect(calls.suffix(1) == ["changes"])
    // Without sync tokens: a full listing, still nothing fetched or pushed.
    setup.collection.supportsTokens = false
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
    #expect(setup.collection.calls.suffix(1) == ["changes"])
    // The password is in no output and not in the database file.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: setup.harness.databasePath))
    #expect(bytes.range(of: Data("secret-pw".utf8)) == nil)
  }

  @Test func tickedOnThePhoneIsDoneOnItsDay() async throws {
    let setup = try await Setup()
    let todo = try await setup.add("Call mum", ["--on", "2026-11-20"])
    let uuid = todo["uuid"] as! String
    _ = try await setup.sync()
    let href = try #require(setup.collection.href(uid: uuid))
    setup.collection.phoneEdit(href) {
      $0.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261121T010000Z")
    }
    let result = try await setup.sync()
    #expect(setup.counts(result) == [0, 1, 0, 0])
    let after = try #require(try await setup.todo(uuid))
    #expect(after["done"] as? Bool == true)
    #expect(after["date"] as? String == "2026-11-20")
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
  }

  /// A VTODO without DTSTART (the backlog) ticked on the phone yesterday is done on yesterday,
  /// quietly, as an import's and a closed GitHub issue's (tryout 19 F7: moved to today, reported
  /// as a conflict).
  @Test func aBacklogItemTickedOnThePhone_isDoneOnTheDayItWasTicked() async throws {
    let setup = try await Setup()
    let uid = "phone-backlog-1"
    setup.collection.phoneSet(
      "\(MemoryCollection.root)\(uid).ics",
      MemoryCollection.phoneTodo(
        uid: uid, summary: "Read the paper", day: nil, extra: ["STATUS:COMPLETED", "COMPLETED:20261121T010000Z"]))
    let result = try await setup.sync()
    #expect(result["ruleConflicts"] as? [String] == [], "\(result)")
    let todo = try #require(try await setup.harness.allTodos().first { $0["title"] as? String == "Read the paper" })
    #expect(todo["done"] as? Bool == true)
    #expect(todo["date"] as? String == "2026-11-21")
    #expect(setup.counts(try await setup.sync()).dropFirst() == [0, 0, 0])
  }

  @Test func phoneEditsComeInAsOneUndoableChange() async throws {
    let setup = try await Setup()
    let a = try await setup.add("Buy milk")
    let b = try await setup.add("Gym", ["--on", "2026-11-23"])
    _ = try await setup.sync()
    let hrefA = try #require(setup.collection.href(uid: a["uuid"] as! String))
    let hrefB = try #require(setup.collection.href(uid: b["uuid"] as! String))
    // Retitle A and move it, delete B, add a new one (with a UID that is no uuid, repeating).
    setup.collection.phoneEdit(hrefA) {
      $0.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk")
        .replacingOccurrences(of: "DTSTART;VALUE=DATE:20261122", with: "DTSTART;VALUE=DATE:20261125")
    }
    setup.collection.phoneDelete(hrefB)
    setup.collection.phoneSet(
      MemoryCollection.root + "phone-1.ics",
      MemoryCollection.phoneTodo(uid: "PHONE-1@example", summary: "Water plants", day: "2026-11-01", extra: ["RRULE:FREQ=WEEKLY", "PRIORITY:2"]))
    let result = await setup.harness.run(["caldav", "sync", "--json"])
    #expect(result.code == 0)
    let json = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(setup.counts(json) == [0, 2, 1, 0])
    #expect(result.stderr.contains("repeats"))
    let todos = try await setup.harness.allTodos()
    let movedA = try #require(todos.first { $0["uuid"] as? String == a["uuid"] as? String })
    #expect(movedA["title"] as? String == "Buy oat milk")
    #expect(movedA["date"] as? String == "2026-11-25")
    #expect(!todos.contains { $0["uuid"] as? String == b["uuid"] as? String })
    let plants = try #require(todos.first { $0["title"] as? String == "Water plants" })
    #expect(plants["date"] as? String == "2026-11-22")
    #expect(plants["priority"] as? String == "high")
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])

    // One undo takes the whole sync back; the next sync pushes the undo.
    let undo = await setup.harness.run(["undo"])
    #expect(undo.code == 0, "\(undo.stderr)")
    let back = try await setup.harness.allTodos()
    #expect(back.first { $0["uuid"] as? String == a["uuid"] as? String }?["title"] as? String == "Buy milk")
    #expect(back.contains { $0["uuid"] as? String == b["uuid"] as? String })
    #expect(!back.contains { $0["title"] as? String == "Water plants" })
    let pushedBack = try await setup.sync()
    #expect(setup.counts(pushedBack) == [3, 0, 0, 0])
    #expect(setup.collection.ics(hrefA)?.contains("SUMMARY:Buy milk\r\n") == true)
    #expect(setup.collection.href(uid: b["uuid"] as! String) != nil)
    #expect(setup.collection.href(uid: "PHONE-1@example") == nil)
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
  }

  @Test func ootdUpdateKeepsThePhonesPropertiesAndAlarm() async throws {
    let setup = try await Setup()
    let a = try await setup.add("Dentist")
    _ = try await setup.sync()
    let href = try #require(setup.collection.href(uid: a["uuid"] as! String))
    setup.collection.phoneEdit(href) {
      $0.replacingOccurrences(
        of: "END:VTODO",
        with: "X-APPLE-SORT-ORDER:7\r\nGEO:37.5;127.0\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Reminder\r\nEND:VALARM\r\nEND:VTODO")
    }
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
    let edit = await setup.harness.run(["edit", "\(a["id"]!)", "--title", "Dentist at 3"])
    #expect(edit.code == 0, "\(edit.stderr)")
    let done = await setup.harness.run(["done", "\(a["id"]!)"])
    #expect(done.code == 0, "\(done.stderr)")
    #expect(setup.counts(try await setup.sync()) == [1, 0, 0, 0])
    let ics = try #require(setup.collection.ics(href))
    for kept in ["X-APPLE-SORT-ORDER:7", "GEO:37.5;127.0", "BEGIN:VALARM", "TRIGGER:-PT15M", "DESCRIPTION:Reminder"] {
      #expect(ics.contains(kept), "\(kept)")
    }
    #expect(ics.contains("SUMMARY:Dentist at 3") && ics.contains("STATUS:COMPLETED"))
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
  }

  @Test func deletionsBothWays() async throws {
    let setup = try await Setup()
    let a = try await setup.add("One")
    let b = try await setup.add("Two")
    _ = try await setup.sync()
    let remove = await setup.harness.run(["rm", "\(a["id"]!)", "--yes"])
    #expect(remove.code == 0, "\(remove.stderr)")
    #expect(setup.counts(try await setup.sync()) == [1, 0, 0, 0])
    #expect(setup.collection.href(uid: a["uuid"] as! String) == nil)
    setup.collection.phoneDelete(try #require(setup.collection.href(uid: b["uuid"] as! String)))
    #expect(setup.counts(try await setup.sync()) == [0, 0, 1, 0])
    #expect(try await setup.todo(b["uuid"] as! String) == nil)
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
  }

  @Test func sameFieldOnBothSidesIsAConflictInTheRemoteSyncsWords() async throws {
    let setup = try await Setup()
    let a = try await setup.add("Plan trip")
    _ = try await setup.sync()
    let href = try #require(setup.collection.href(uid: a["uuid"] as! String))
    _ = await setup.harness.run(["edit", "\(a["id"]!)", "--priority", "high"])
    // The phone's change is later than ootd's (the harness's now is 2026-11-22T00:00Z).
    setup.collection.phoneEdit(href) {
      $0.replacingOccurrences(of: "PRIORITY:5", with: "PRIORITY:9\r\nLAST-MODIFIED:20261122T060000Z")
    }
    let result = await setup.harness.run(["caldav", "sync"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("1 conflict resolved"))
    #expect(result.stdout.contains("priority changed on two machines; kept low (the later), over high"))
    let after = try #require(try await setup.todo(a["uuid"] as! String))
    #expect(after["priority"] as? String == "low")
  }

  @Test func a412IsFetchedMergedAndRetried() async throws {
    let setup = try await Setup()
    let a = try await setup.add("Report")
    _ = try await setup.sync()
    let href = try #require(setup.collection.href(uid: a["uuid"] as! String))
    _ = await setup.harness.run(["edit", "\(a["id"]!)", "--title", "Write the report"])
    // The phone adds notes between ootd's read and its write.
    setup.collection.beforeUpdate[href] = { collection in
      collection.phoneEdit(href) { $0.replacingOccurrences(of: "END:VTODO", with: "DESCRIPTION:from the phone\r\nEND:VTODO") }
    }
    let result = try await setup.sync()
    #expect(setup.counts(result) == [1, 1, 0, 0])
    let ics = try #require(setup.collection.ics(href))
    #expect(ics.contains("SUMMARY:Write the report") && ics.contains("DESCRIPTION:from the phone"))
    let after = try #require(try await setup.todo(a["uuid"] as! String))
    #expect(after["notes"] as? String == "from the phone")
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
  }

  /// A sync stopped after each of its calls in turn: both sides stay consistent, the next sync
  /// finishes, and nothing is pushed twice.
  @Test(arguments: 1...9, [false, true])
  func stoppedAfterKCallsResumes(k: Int, answerLost: Bool) async throws {
    let setup = try await Setup()
    var uuids: [String] = []
    for index in 1...4 { uuids.append(try await setup.add("Todo \(index)")["uuid"] as! String) }
    _ = try await setup.sync()
    // Changes on both sides, then a sync that loses the connection after k calls.
    let first = try await setup.harness.allTodos().first { $0["uuid"] as? String == uuids[0] }!
    _ = await setup.harness.run(["edit", "\(first["id"]!)", "--title", "Edited here"])
    _ = try await setup.add("New here")
    setup.collection.phoneEdit(setup.collection.href(uid: uuids[1])!) {
      $0.replacingOccurrences(of: "SUMMARY:Todo 2", with: "SUMMARY:Edited there")
    }
    setup.collection.phoneDelete(setup.collection.href(uid: uuids[2])!)
    let before = setup.collection.calls.count
    setup.collection.failAfter = before + k
    setup.collection.answerLost = answerLost
    let stopped = await setup.harness.run(["caldav", "sync", "--json"])
    setup.collection.failAfter = nil
    if stopped.code != 0 { #expect(stopped.stderr.contains("connection lost")) }
    _ = try await setup.sync()
    #expect(setup.counts(try await setup.sync()) == [0, 0, 0, 0])
    // Both sides hold the same todos, each once.
    let todos = try await setup.harness.allTodos()
    let titles = Set(todos.compactMap { $0["title"] as? String })
    #expect(titles == ["Edited here", "Edited there", "Todo 4", "New here"])
    let objects = setup.collection.objects.values.map(\.ics)
    #expect(objects.count == 4)
    for todo in todos {
      #expect(objects.filter { $0.contains("UID:\(todo["uuid"] as! String)\r\n") }.count == 1)
    }
  }

  @Test func withoutAPasswordNothingChanges() async throws {
    var setup = try await Setup()
    _ = try await setup.add("One")
    setup.harness.variables["OOTD_CALDAV_PASSWORD"] = nil
    setup.harness.variables["HOME"] = setup.harness.folder.path
    let before = try Data(contentsOf: URL(fileURLWithPath: setup.harness.databasePath))
    let result = await setup.harness.run(["caldav", "sync"])
    #expect(result.code == 64)
    #expect(result.stderr.hasPrefix("ootd: error: no CalDAV password"))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: setup.harness.databasePath)) == before)
    // ~/.netrc gives it.
    try "machine dav.example.com login alice password from-netrc\n".write(
      toFile: setup.harness.folder.file(".netrc"), atomically: true, encoding: .utf8)
    let withNetrc = await setup.harness.run(["caldav", "sync", "--json"])
    #expect(withNetrc.code == 0, "\(withNetrc.stderr)")
  }

  @Test(arguments: [
    ("machine a.example login u password p1\nmachine b.example login v password p2", "b.example", nil, "v", "p2"),
    ("machine a.example login u password p1 machine a.example login w password p3", "a.example", "w", "w", "p3"),
    ("default login d password pd\nmachine a.example login u password p1", "c.example", nil, "d", "pd"),
    ("machine a.example login u", "a.example", nil, nil, nil),
  ] as [(String, String, String?, String?, String?)])
  func netrc(text: String, host: String, user: String?, login: String?, password: String?) {
    let entry = CalDAVAccess.netrc(text, host: host, user: user)
    #expect(entry?.login == login)
    #expect(entry?.password == password)
  }

  @Test(arguments: [
    ("https://dav.example.com/alice/tasks/", true), ("http://127.0.0.1:5232/alice/tasks/", true),
    ("http://localhost:5232/a/", true), ("http://dav.example.com/a/", false), ("ftp://x/a/", false),
    ("https://alice:pw@dav.example.com/a/", false), ("not a url", false), ("https:///a", false),
  ])
  func collectionURL(text: String, accepted: Bool) {
    #expect(((try? CalDAVAccess.checked(text)) != nil) == accepted)
  }
}
