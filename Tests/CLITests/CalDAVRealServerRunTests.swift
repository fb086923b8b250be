import CalDAV
import CalDAVSupport
import Core
import Foundation
import HTTP
import TestTags
import Testing

@testable import CLI

/// `ootd caldav sync` in-process (pinned clock, real database file) against real Radicale and
/// Xandikos on 127.0.0.1, through the real client: what only a server round trip shows, with a
/// race injected at a known point by the test's own wrapper of the client.
@Suite("CalDAV sync runs against real servers", .tags(.network))
struct CalDAVRealServerRunTests {
  static let kinds = CalDAVServer.Kind.allCases.filter(CalDAVServer.available)

  /// The real client, but the first `update` of the sync first lets the phone change the
  /// resource (``beforeUpdate``): a phone edit between ootd's listing and its PUT, so the PUT's
  /// `If-Match` meets a 412 from the server itself.
  final class RacingClient: CalendarCollection, @unchecked Sendable {
    let client: CalDAVClient
    private let lock = NSLock()
    private var race: (() throws -> Void)?
    private var refused = 0

    init(_ server: CalDAVServer) throws {
      client = try CalDAVClient(
        collectionURL: server.collectionURL, user: server.user, password: server.password,
        transport: CurlTransport(connectTimeout: 5, totalTimeout: 30))
    }

    /// Runs once, before the next update reaches the server.
    func beforeUpdate(_ race: @escaping () throws -> Void) { lock.withLock { self.race = race } }
    /// How many updates the server refused with 412 so far.
    var preconditionFailures: Int { lock.withLock { refused } }

    func describe() async throws -> CollectionInfo { try await client.describe() }
    func changes(since token: String?) async throws -> CollectionChanges { try await client.changes(since: token) }
    func fetch(_ hrefs: [String]) async throws -> [CalendarObject] { try await client.fetch(hrefs) }
    func create(name: String, ics: String) async throws -> CalendarResource { try await client.create(name: name, ics: ics) }
    func delete(href: String, ifMatch etag: String) async throws { try await client.delete(href: href, ifMatch: etag) }

    func update(href: String, ifMatch etag: String, ics: String) async throws -> CalendarResource {
      let race = lock.withLock {
        defer { self.race = nil }
        return self.race
      }
      try race?()
      do {
        return try await client.update(href: href, ifMatch: etag, ics: ics)
      } catch CalendarCollectionError.preconditionFailed(let path) {
        lock.withLock { refused += 1 }
        throw CalendarCollectionError.preconditionFailed(href: path)
      }
    }
  }

  struct Setup {
    var harness: Harness
    let server: CalDAVServer
    let client: RacingClient

    init(_ kind: CalDAVServer.Kind) async throws {
      server = try CalDAVServer(kind)
      client = try RacingClient(server)
      harness = try Harness()
      harness.variables["OOTD_CALDAV_PASSWORD"] = server.password
      harness.calDAVCollection = client
      let set = await harness.run(["caldav", "set", server.collectionURL.absoluteString, "--user", server.user])
      #expect(set.code == 0, "\(set.stderr)")
    }

    /// `caldav sync --json`: pushed, pulled, deleted, conflicts.
    func sync() async throws -> [Int] {
      let result = await harness.run(["caldav", "sync", "--json"])
      #expect(result.code == 0, "\(result.stderr)")
      let json = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      return ["pushed", "pulled", "deleted", "conflicts"].map { json[$0] as? Int ?? -1 }
    }

    func add(_ title: String, _ extra: [String] = []) async throws -> (id: Int, uuid: String) {
      let result = await harness.run(["add", title, "--json"] + extra)
      #expect(result.code == 0, "\(result.stderr)")
      let json = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      return (try #require(json["id"] as? Int), try #require(json["uuid"] as? String))
    }

    func run(_ arguments: [String]) async {
      let result = await harness.run(arguments)
      #expect(result.code == 0, "ootd \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    func todo(_ uuid: String) async throws -> [String: Any]? {
      try await harness.allTodos().first { $0["uuid"] as? String == uuid }
    }

    /// The journal's entries, newest first (`log --json`).
    func journal() async throws -> [[String: Any]] {
      let result = await harness.run(["log", "--json", "--limit", "1000"])
      #expect(result.code == 0, "\(result.stderr)")
      return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// The VTODO with this UID as the phone reads it, folded lines joined.
    func ics(_ uid: String) throws -> String {
      try server.phoneGet(uid).ics.replacingOccurrences(of: "\r\n ", with: "")
    }
  }

  /// A 412 met by a push pulls the phone's change into the SAME journal entry as the rest of the
  /// sync's pull: one `ootd undo` takes the whole sync back, and the next sync pushes the undo.
  @Test(arguments: kinds)
  func aRacedUpdateIsOneJournalEntry(_ kind: CalDAVServer.Kind) async throws {
    let setup = try await Setup(kind)
    defer { setup.server.stop() }
    let mum = try await setup.add("Call mum")
    let report = try await setup.add("Write report")
    #expect(try await setup.sync() == [2, 0, 0, 0])

    // The phone ticks one todo (pulled by the sync's plan); ootd raises the other's priority,
    // and the phone retitles it between ootd's listing and its PUT.
    try setup.server.phone("tick", mum.uuid, "20261122T010000Z")
    await setup.run(["edit", "\(report.id)", "--priority", "high"])
    setup.client.beforeUpdate { try setup.server.phone("retitle", report.uuid, "Write the report, v2") }
    let before = try await setup.journal()
    #expect(try await setup.sync() == [1, 2, 0, 0])
    #expect(setup.client.preconditionFailures == 1, "the PUT met the phone's edit")
    let after = try await setup.journal()
    #expect(after.count == before.count + 1, "one sync, one journal entry: \(after.prefix(3))")

    #expect(try await setup.todo(mum.uuid)?["done"] as? Bool == true)
    let raced = try #require(try await setup.todo(report.uuid))
    #expect(raced["title"] as? String == "Write the report, v2")
    #expect(raced["priority"] as? String == "high")
    let pushed = try setup.ics(report.uuid)
    #expect(pushed.contains("SUMMARY:Write the report\\, v2\r\n") && pushed.contains("PRIORITY:1\r\n"), "\(pushed)")
    #expect(try await setup.sync() == [0, 0, 0, 0])

    // One undo takes both pulls back (the tick and the raced retitle), not only the last.
    await setup.run(["undo"])
    #expect(try await setup.todo(mum.uuid)?["done"] as? Bool == false)
    #expect(try await setup.todo(report.uuid)?["title"] as? String == "Write report")
    #expect(try await setup.todo(report.uuid)?["priority"] as? String == "high")
    #expect(try await setup.sync() == [2, 0, 0, 0])
    #expect(try setup.ics(mum.uuid).contains("STATUS:NEEDS-ACTION\r\n"))
    let undone = try setup.ics(report.uuid)
    #expect(undone.contains("SUMMARY:Write report\r\n") && undone.contains("PRIORITY:1\r\n"), "\(undone)")
    #expect(try await setup.sync() == [0, 0, 0, 0])
  }

  /// A category added, removed or renamed on the phone changes the todo's project, block and
  /// tags in ootd: a name of a project or block of this database is that, any other category a
  /// tag (one that can be no tag stays on the server, unread); ootd's next write keeps it.
  @Test(arguments: kinds)
  func categoriesFromThePhone(_ kind: CalDAVServer.Kind) async throws {
    let setup = try await Setup(kind)
    defer { setup.server.stop() }
    await setup.run(["project", "add", "work"])
    await setup.run(["project", "add", "home"])
    let post = try await setup.add("Write post", ["--project", "work", "--tag", "draft"])
    let week = try await setup.add("Plan week")
    #expect(try await setup.sync() == [2, 0, 0, 0])
    #expect(try setup.ics(post.uuid).contains("CATEGORIES:work,draft\r\n"))

    // Renamed to another project, a tag added; a block named on a todo without one, and a
    // category that can be no tag.
    try setup.server.phone("set", post.uuid, "CATEGORIES", "home,draft,Errand")
    try setup.server.phone("set", week.uuid, "CATEGORIES", "blog,Side Thing")
    #expect(try await setup.sync() == [0, 2, 0, 0])
    let renamed = try #require(try await setup.todo(post.uuid))
    #expect(renamed["project"] as? String == "home")
    #expect(renamed["tags"] as? [String] == ["draft", "errand"])
    let blocked = try #require(try await setup.todo(week.uuid))
    #expect(blocked["block"] as? String == "blog")
    #expect(blocked["tags"] as? [String] == [])
    #expect(try await setup.sync() == [0, 0, 0, 0])

    // The project taken off and a name that is no project: a tag, never a new project.
    try setup.server.phone("set", post.uuid, "CATEGORIES", "draft,office")
    #expect(try await setup.sync() == [0, 1, 0, 0])
    let unlinked = try #require(try await setup.todo(post.uuid))
    #expect(unlinked["project"] is NSNull)
    #expect(unlinked["tags"] as? [String] == ["draft", "office"])
    let projects = await setup.harness.run(["project", "list", "--all", "--json"])
    #expect(!projects.stdout.contains("\"office\""))

    // ootd's own changes go back; the category it does not read stays.
    await setup.run(["edit", "\(post.id)", "--project", "work"])
    await setup.run(["edit", "\(week.id)", "--tag", "focus"])
    #expect(try await setup.sync() == [2, 0, 0, 0])
    #expect(try setup.ics(post.uuid).contains("CATEGORIES:work,draft,office\r\n"))
    let weekICS = try setup.ics(week.uuid)
    #expect(weekICS.contains("CATEGORIES:blog,focus,Side Thing\r\n"), "\(weekICS)")
    #expect(try await setup.sync() == [0, 0, 0, 0])
  }

  /// A repeating VTODO made on the phone comes in as its next instance by its rule (here the
  /// last Friday of the month); one ootd cannot follow stays on its DTSTART. Both are said.
  @Test(arguments: kinds)
  func repeatingFromThePhone(_ kind: CalDAVServer.Kind) async throws {
    let setup = try await Setup(kind)
    defer { setup.server.stop() }
    try setup.server.phone("add", "phone-rent", "Pay rent", "20260130")
    try setup.server.phone("set", "phone-rent", "RRULE", "FREQ=MONTHLY;BYDAY=-1FR")
    try setup.server.phone("add", "phone-close", "Close the books", "20261102")
    try setup.server.phone("set", "phone-close", "RRULE", "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR")
    let result = await setup.harness.run(["caldav", "sync", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    // The rule as the server keeps it (Xandikos writes its parts in an order of its own).
    let notes = result.stderr.split(separator: "\n").map(String.init)
    #expect(notes.contains { $0.hasPrefix("ootd: note: 'Pay rent' repeats (") && $0.hasSuffix("): taken as its instance of 2026-11-27") }, "\(notes)")
    #expect(
      notes.contains {
        $0.hasPrefix("ootd: note: 'Close the books' repeats (")
          && $0.hasSuffix(") by a rule ootd cannot follow (BYSETPOS is not followed): taken on its DTSTART, 2026-11-02")
      }, "\(notes)")
    let todos = try await setup.harness.allTodos()
    #expect(todos.first { $0["title"] as? String == "Pay rent" }?["date"] as? String == "2026-11-27")
    #expect(todos.first { $0["title"] as? String == "Close the books" }?["date"] as? String == "2026-11-02")
    #expect(try await setup.sync() == [0, 0, 0, 0])
  }
}
