import CalDAV
import CalDAVSupport
import Core
import Foundation
import HTTP
import TestTags
import Testing

/// CalDAVClient against real servers started by the test: Radicale and Xandikos (behind its
/// authenticating proxy), on 127.0.0.1 with the live libcurl transport. The phone script makes
/// the changes another client would.
@Suite(.tags(.network))
struct RealServerTests {
  static let kinds = CalDAVServer.Kind.allCases.filter(CalDAVServer.available)

  static func client(_ server: CalDAVServer, password: String? = nil) throws -> CalDAVClient {
    try CalDAVClient(
      collectionURL: server.collectionURL, user: server.user, password: password ?? server.password,
      transport: CurlTransport(connectTimeout: 5, totalTimeout: 30))
  }

  static func vtodo(_ uid: String, _ title: String, day: String = "20261127") -> String {
    [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ootd//tests//EN", "BEGIN:VTODO", "UID:\(uid)",
      "DTSTAMP:20261127T080000Z", "SUMMARY:\(title)", "DTSTART;VALUE=DATE:\(day)", "STATUS:NEEDS-ACTION",
      "END:VTODO", "END:VCALENDAR",
    ].map { $0 + "\r\n" }.joined()
  }

  @Test(arguments: kinds)
  func describe_create_conflicts_changes_fetch_delete(_ kind: CalDAVServer.Kind) async throws {
    let server = try CalDAVServer(kind)
    defer { server.stop() }
    var client = try Self.client(server)

    let info = try await client.describe()
    #expect(info.displayName == "Tasks")
    #expect(info.supportsTodos)
    let firstToken = try #require(info.syncToken)
    #expect(info.ctag != nil)

    let initial = try await client.changes(since: nil)
    #expect(initial.isFullListing && initial.changed.isEmpty && initial.removed.isEmpty)

    // Create: a path in the collection and an etag; a second create meets If-None-Match: *.
    let a = try await client.create(name: "uid-a.ics", ics: Self.vtodo("uid-a", "Alpha"))
    let b = try await client.create(name: "uid-b.ics", ics: Self.vtodo("uid-b", "Beta"))
    #expect(a.href == client.collectionPath + "uid-a.ics")
    #expect(!a.etag.isEmpty && a.etag != b.etag)
    await #expect(throws: CalendarCollectionError.preconditionFailed(href: a.href)) {
      _ = try await client.create(name: "uid-a.ics", ics: Self.vtodo("uid-a", "Alpha again"))
    }
    #expect(try server.phoneGet("uid-a").ics.contains("SUMMARY:Alpha\r\n"), "the refused create changed nothing")

    // Update: a stale etag is refused, the current one accepted.
    let a2 = try await client.update(href: a.href, ifMatch: a.etag, ics: Self.vtodo("uid-a", "Alpha 2"))
    #expect(a2.etag != a.etag)
    await #expect(throws: CalendarCollectionError.preconditionFailed(href: a.href)) {
      _ = try await client.update(href: a.href, ifMatch: a.etag, ics: Self.vtodo("uid-a", "Lost update"))
    }
    #expect(try server.phoneGet("uid-a").ics.contains("SUMMARY:Alpha 2\r\n"))

    // Incremental changes since the first token: both, with their current etags.
    let since = try await client.changes(since: firstToken)
    #expect(!since.isFullListing)
    #expect(Set(since.changed) == [a2, b])
    #expect(since.removed.isEmpty)
    let token = try #require(since.syncToken)
    #expect(token != firstToken)

    // The phone ticks A and deletes B: one changed, one removed.
    try server.phone("tick", "uid-a")
    try server.phone("delete", "uid-b")
    let phoneChanges = try await client.changes(since: token)
    #expect(phoneChanges.changed.map(\.href) == [a.href])
    #expect(phoneChanges.removed == [b.href])
    let a3 = try #require(phoneChanges.changed.first)
    #expect(a3.etag != a2.etag)
    let unchanged = try await client.changes(since: try #require(phoneChanges.syncToken))
    #expect(unchanged.changed.isEmpty && unchanged.removed.isEmpty && !unchanged.isFullListing)

    // Fetch: what is gone is left out; the body is the phone's.
    let fetched = try await client.fetch([a.href, b.href])
    #expect(fetched.map(\.href) == [a.href])
    #expect(fetched.first?.etag == a3.etag)
    #expect(fetched.first?.ics.contains("STATUS:COMPLETED") == true)

    // Fetch in batches of 2 over 5 resources.
    var made: [CalendarResource] = [a3]
    for index in 0..<4 {
      made.append(try await client.create(name: "uid-n\(index).ics", ics: Self.vtodo("uid-n\(index)", "N\(index)")))
    }
    client.multigetBatch = 2
    let batched = try await client.fetch(made.map(\.href))
    #expect(Set(batched.map { CalendarResource(href: $0.href, etag: $0.etag) }) == Set(made))
    #expect(batched.allSatisfy { $0.ics.contains("BEGIN:VTODO") })

    // Delete: a stale etag is refused; the right one deletes; again is done (404).
    await #expect(throws: CalendarCollectionError.preconditionFailed(href: a.href)) {
      try await client.delete(href: a.href, ifMatch: a2.etag)
    }
    try await client.delete(href: a.href, ifMatch: a3.etag)
    try await client.delete(href: a.href, ifMatch: a3.etag)
    #expect(try server.phoneList().map(\.uid).contains("uid-a") == false)
    let after = try await client.describe()
    #expect(after.ctag != info.ctag)

    // A wrong password: 401 is .unauthorized, and the password is in no error.
    let wrong = try Self.client(server, password: "not-the-password")
    await #expect(throws: CalendarCollectionError.unauthorized) { _ = try await wrong.describe() }
    await #expect(throws: CalendarCollectionError.unauthorized) {
      _ = try await wrong.create(name: "uid-z.ics", ics: Self.vtodo("uid-z", "Z"))
    }
    #expect(try server.phoneList().map(\.uid).contains("uid-z") == false)
  }

  @Test(arguments: kinds)
  func invalidToken_fallsBackToAFullListing_andOddNamesHaveOneSpelling(_ kind: CalDAVServer.Kind) async throws {
    let server = try CalDAVServer(kind)
    defer { server.stop() }
    let client = try Self.client(server)
    let a = try await client.create(name: "uid-a.ics", ics: Self.vtodo("uid-a", "Alpha"))
    try server.phone("add", "uid-p", "From the phone", "20261128")
    for bogus in ["http://radicale.org/ns/sync/0000", "not-a-token", "0123456789abcdef0123456789abcdef01234567"] {
      let listing = try await client.changes(since: bogus)
      #expect(listing.isFullListing, "\(bogus)")
      #expect(listing.removed.isEmpty)
      #expect(Set(listing.changed.map(\.href)) == [a.href, client.collectionPath + "uid-p.ics"])
      let token = try #require(listing.syncToken)
      let next = try await client.changes(since: token)
      #expect(!next.isFullListing && next.changed.isEmpty, "the fallback's token is a real one")
    }

    // An odd name has one spelling in every answer (the same server, to start fewer).
    let token = try #require(try await client.describe().syncToken)
    let made = try await client.create(name: "a b+é@x.ics", ics: Self.vtodo("uid-odd", "Odd"))
    #expect(made.href == client.collectionPath + "a%20b%2B%C3%A9@x.ics")
    #expect(try await client.changes(since: token).changed == [made])
    #expect(try await client.changes(since: nil).changed.contains(made))
    #expect(try await client.changes(since: "bogus-token").changed.contains(made))
    #expect(try await client.fetch([made.href]).map(\.href) == [made.href])
    let updated = try await client.update(href: made.href, ifMatch: made.etag, ics: Self.vtodo("uid-odd", "Odder"))
    try await client.delete(href: updated.href, ifMatch: updated.etag)
    #expect(try server.phoneList().map(\.uid).contains("uid-odd") == false)
  }

  @Test func serverWithoutSyncCollection_fallsBackToAFullListing() async throws {
    guard CalDAVServer.available(.xandikos) else { return }
    let server = try CalDAVServer(.xandikos, refuseSyncCollection: true)
    defer { server.stop() }
    let client = try Self.client(server)
    let a = try await client.create(name: "uid-a.ics", ics: Self.vtodo("uid-a", "Alpha"))
    for token in [nil, "093d067027fd9d2bc37ea3dc8fb5ba73f6f399f1"] as [String?] {
      let listing = try await client.changes(since: token)
      #expect(listing.isFullListing)
      #expect(listing.changed == [a])
      #expect(listing.syncToken == nil, "no token from a server that refuses sync-collection")
    }
  }

  @Test func https_verifiesTheCertificate_andHonoursTheCABundle() async throws {
    guard CalDAVServer.available(.xandikos) else { return }
    let server = try CalDAVServer(.xandikos, tls: true)
    defer { server.stop() }
    #expect(server.collectionURL.scheme == "https")
    let ca = try #require(server.caBundle)
    let trusting = try CalDAVClient(
      collectionURL: server.collectionURL, user: server.user, password: server.password,
      transport: CurlTransport(connectTimeout: 5, totalTimeout: 30, caBundle: ca))
    #expect(try await trusting.describe().displayName == "Tasks")
    let made = try await trusting.create(name: "uid-tls.ics", ics: Self.vtodo("uid-tls", "Over TLS"))
    // Without the bundle, the self-signed certificate is refused before anything is sent.
    let untrusting = try Self.client(server)
    await #expect {
      _ = try await untrusting.describe()
    } throws: { error in
      guard case CalendarCollectionError.transport(let reason) = error else { return false }
      return !reason.contains(server.password)
    }
    #expect(try server.phoneList().map(\.href) == [made.href])
  }
}
