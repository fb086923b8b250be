import CalDAV
import Core
import Foundation
import HTTP
import Testing

/// A transport that answers from a closure and records what was sent.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
  let lock = NSLock()
  var sent: [HTTPRequest] = []
  let answer: @Sendable (HTTPRequest) -> HTTPResponse
  init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.answer = answer }
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    lock.withLock { sent.append(request) }
    return answer(request)
  }
  var requests: [HTTPRequest] { lock.withLock { sent } }
}

/// The client's rules that need no server: which URLs it accepts, where the password goes,
/// which hrefs count as the collection's, and how statuses map to errors.
@Suite struct ClientRulesTests {
  @Test(arguments: [
    ("https://dav.example.com/alice/tasks/", true),
    ("https://dav.example.com/alice/tasks", true),
    ("http://127.0.0.1:5232/alice/tasks/", true),
    ("http://localhost:5232/alice/tasks/", true),
    ("http://[::1]:5232/alice/tasks/", true),
    ("http://dav.example.com/alice/tasks/", false),
    ("http://127.0.0.1.example.com/a/", false),
    ("ftp://dav.example.com/a/", false),
    ("https://alice:secret@dav.example.com/a/", false),
    ("https://dav.example.com/a/?x=1", false),
    ("/alice/tasks/", false),
  ])
  func collectionURL_httpsOrLoopbackOnly(_ text: String, _ accepted: Bool) {
    let url = URL(string: text)!
    let made = Result { try CalDAVClient(collectionURL: url, user: "alice", password: "secret") }
    #expect(((try? made.get()) != nil) == accepted, "\(text)")
    if case .failure(let error) = made {
      #expect(!"\(error)".contains("secret"), "the password never appears in an error")
    }
  }

  @Test func collectionURL_getsATrailingSlash() throws {
    let client = try CalDAVClient(
      collectionURL: URL(string: "https://dav.example.com/alice/my%20tasks")!, user: nil, password: nil)
    #expect(client.collectionPath == "/alice/my%20tasks/")
  }

  @Test(arguments: [
    ("/alice/tasks/a.ics", "/alice/tasks/a.ics"),
    ("a.ics", "/alice/tasks/a.ics"),
    ("https://dav.example.com/alice/tasks/a%40b.ics", "/alice/tasks/a@b.ics"),
    ("https://DAV.example.com:443/alice/tasks/x.ics", "/alice/tasks/x.ics"),
    ("/alice/tasks/a b+c.ics", "/alice/tasks/a%20b%2Bc.ics"),
    ("/alice/tasks/a%20b+c.ics", "/alice/tasks/a%20b%2Bc.ics"),
    ("/alice/tasks/a%20b%2bc.ics", "/alice/tasks/a%20b%2Bc.ics"),
    ("/%61lice/tasks/%7Ex.ics", "/alice/tasks/~x.ics"),
    ("/alice/tasks/a%2Fb.ics", nil),
    ("/alice/tasks/", nil),
    ("/alice/tasks", nil),
    ("/alice/tasks/sub/x.ics", nil),
    ("/alice/other/x.ics", nil),
    ("/alice/tasks/../other/x.ics", nil),
    ("/alice/tasks/%2E%2E", nil),
    ("https://evil.example.com/alice/tasks/x.ics", nil),
    ("http://dav.example.com/alice/tasks/x.ics", nil),
    ("https://dav.example.com:8443/alice/tasks/x.ics", nil),
  ] as [(String, String?)])
  func hrefs_resolvedAndKeptInsideTheCollection(_ href: String, _ expected: String?) throws {
    let client = try CalDAVClient(
      collectionURL: URL(string: "https://dav.example.com/alice/tasks/")!, user: nil, password: nil)
    #expect(client.memberPath(href) == expected, "\(href)")
  }

  @Test func redirectToAnotherHost_isNotFollowed_andThePasswordStaysHome() async throws {
    let transport = RecordingTransport { request in
      if request.url.host == "dav.example.com" {
        return HTTPResponse(status: 301, headers: ["Location": "https://evil.example.com/alice/tasks/"])
      }
      return HTTPResponse(status: 207, body: Data("<multistatus xmlns='DAV:'/>".utf8))
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "https://dav.example.com/alice/tasks/")!, user: "alice",
      password: "secret-1", transport: transport)
    await #expect {
      try await client.describe()
    } throws: { error in
      guard case CalendarCollectionError.transport(let reason) = error else { return false }
      return reason.contains("evil.example.com") && !reason.contains("secret-1")
    }
    #expect(transport.requests.count == 1)
    #expect(transport.requests.allSatisfy { $0.url.host == "dav.example.com" })
  }

  @Test func sameOriginRedirect_isFollowedForReads_butNotForWrites() async throws {
    let multistatus = """
      <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response>\
      <d:href>/new/tasks/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/>\
      </d:resourcetype><d:displayname>T &amp; Co</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status>\
      </d:propstat></d:response></d:multistatus>
      """
    let transport = RecordingTransport { request in
      if request.url.path.hasPrefix("/old/") {
        return HTTPResponse(status: 308, headers: ["Location": "/new/tasks/"])
      }
      return HTTPResponse(status: 207, body: Data(multistatus.utf8))
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "https://dav.example.com/old/tasks/")!, user: "alice",
      password: "pw", transport: transport)
    let info = try await client.describe()
    #expect(info.displayName == "T & Co")
    #expect(info.supportsTodos)
    #expect(
      transport.requests.map(\.url.absoluteString) == [
        "https://dav.example.com/old/tasks/", "https://dav.example.com/new/tasks/",
      ])
    #expect(transport.requests.allSatisfy { $0.headers["Authorization"] == "Basic YWxpY2U6cHc=" })
    await #expect(throws: CalendarCollectionError.self) {
      _ = try await client.create(name: "x.ics", ics: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    }
    #expect(transport.requests.last?.method == "PUT")
    #expect(transport.requests.count == 3, "a write is not resent to the redirect's target")
  }

  @Test(arguments: [
    (401, CalendarCollectionError.unauthorized),
    (412, CalendarCollectionError.preconditionFailed(href: "/a/t/x.ics")),
    (404, CalendarCollectionError.notFound(href: "/a/t/x.ics")),
    (403, CalendarCollectionError.refused(status: 403, reason: "no way")),
  ])
  func statuses_mapToErrors(_ status: Int, _ expected: CalendarCollectionError) async throws {
    let transport = RecordingTransport { _ in HTTPResponse(status: status, body: Data("no way\nmore".utf8)) }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: transport)
    await #expect(throws: expected) {
      _ = try await client.update(href: "/a/t/x.ics", ifMatch: "\"1\"", ics: "x")
    }
    #expect(transport.requests.first?.headers["If-Match"] == "\"1\"")
  }

  @Test func aResourceOutsideTheCollection_isNeverSent() async throws {
    let transport = RecordingTransport { _ in HTTPResponse(status: 204) }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: transport)
    await #expect(throws: CalendarCollectionError.self) {
      try await client.delete(href: "/a/other/x.ics", ifMatch: "\"1\"")
    }
    await #expect(throws: CalendarCollectionError.self) {
      _ = try await client.create(name: "../x.ics", ics: "x")
    }
    await #expect(throws: CalendarCollectionError.self) { _ = try await client.fetch(["/b/x.ics"]) }
    #expect(transport.requests.isEmpty)
  }

  @Test func createName_isPercentEncoded() async throws {
    let transport = RecordingTransport { _ in HTTPResponse(status: 201, headers: ["ETag": "\"e1\""]) }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: nil, password: nil, transport: transport)
    let made = try await client.create(name: "a b+é.ics", ics: "x")
    #expect(made == CalendarResource(href: "/a/t/a%20b%2B%C3%A9.ics", etag: "\"e1\""))
    #expect(transport.requests.first?.headers["If-None-Match"] == "*")
    #expect(transport.requests.first?.headers["Authorization"] == nil, "no user: no Authorization")
  }

  @Test func putWithoutETag_asksForTheEtag() async throws {
    let transport = RecordingTransport { request in
      if request.method == "PUT" { return HTTPResponse(status: 201) }
      return HTTPResponse(status: 207, body: Data("""
        <multistatus xmlns="DAV:"><response><href>/a/t/x.ics</href><propstat><prop>\
        <getetag>"fetched"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """.utf8))
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: transport)
    let made = try await client.create(name: "x.ics", ics: "x")
    #expect(made == CalendarResource(href: "/a/t/x.ics", etag: "\"fetched\""))
    #expect(transport.requests.map(\.method) == ["PUT", "PROPFIND"])
    #expect(transport.requests.last?.headers["Depth"] == "0")
    #expect(transport.requests.last?.url.absoluteString == "http://127.0.0.1:9/a/t/x.ics")
  }

  @Test func truncatedSyncCollection_isFollowed_andRemovalsKept() async throws {
    let transport = RecordingTransport { request in
      let body = String(decoding: request.body ?? Data(), as: UTF8.self)
      let first = body.contains("<D:sync-token>t1</D:sync-token>")
      let text = first
        ? """
          <d:multistatus xmlns:d="DAV:"><d:response><d:href>/a/t/x.ics</d:href><d:propstat><d:prop>\
          <d:getetag>"x1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
          <d:response><d:href>/a/t/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>\
          <d:sync-token>t2</d:sync-token></d:multistatus>
          """
        : """
          <d:multistatus xmlns:d="DAV:"><d:response><d:href>http://127.0.0.1:9/a/t/y.ics</d:href>\
          <d:status>HTTP/1.1 404 Not Found</d:status></d:response>\
          <d:response><d:href>/elsewhere/z.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>\
          <d:sync-token>t3</d:sync-token></d:multistatus>
          """
      return HTTPResponse(status: 207, body: Data(text.utf8))
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: transport)
    let changes = try await client.changes(since: "t1")
    #expect(changes == CollectionChanges(
      syncToken: "t3", changed: [CalendarResource(href: "/a/t/x.ics", etag: "\"x1\"")],
      removed: ["/a/t/y.ics"], isFullListing: false))
    #expect(transport.requests.count == 2)
    #expect(transport.requests.allSatisfy { $0.method == "REPORT" && $0.headers["Depth"] == "0" })
  }

  @Test func notACalendar_isRefused() async throws {
    let transport = RecordingTransport { _ in
      HTTPResponse(status: 207, body: Data("""
        <multistatus xmlns="DAV:"><response><href>/a/t/</href><propstat><prop>\
        <resourcetype><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat>\
        </response></multistatus>
        """.utf8))
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: transport)
    await #expect(throws: CalendarCollectionError.invalidResponse("/a/t/ is not a calendar collection")) {
      _ = try await client.describe()
    }
  }

  @Test func aDOCTYPEFromTheServer_isRefused_notExpanded() async throws {
    let transport = RecordingTransport { _ in
      HTTPResponse(status: 207, body: Data("""
        <?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>\
        <multistatus xmlns="DAV:"><response><href>&x;</href></response></multistatus>
        """.utf8))
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: transport)
    await #expect {
      _ = try await client.changes(since: nil)
    } throws: { error in
      guard case CalendarCollectionError.invalidResponse(let reason) = error else { return false }
      return reason.contains("DOCTYPE")
    }
  }

  @Test func thePassword_isNeverPrinted() throws {
    let client = try CalDAVClient(
      collectionURL: URL(string: "https://dav.example.com/a/t/")!, user: "alice", password: "hunter2-secret")
    var dumped = ""
    dump(client, to: &dumped)
    for text in ["\(client)", String(reflecting: client), dumped] {
      #expect(!text.contains("hunter2-secret"), "\(text)")
      #expect(text.contains("alice"))
    }
  }

  @Test func anAnswerPastTheTransportCap_isTooLarge() async throws {
    struct Capped: HTTPTransport {
      func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw HTTPTransportError.tooLarge("the response body is larger than 32 MiB")
      }
    }
    let client = try CalDAVClient(
      collectionURL: URL(string: "http://127.0.0.1:9/a/t/")!, user: "u", password: "p", transport: Capped())
    await #expect(throws: CalendarCollectionError.tooLarge) { _ = try await client.changes(since: nil) }
  }
}
