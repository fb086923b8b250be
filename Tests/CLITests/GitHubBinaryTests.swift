import HTTP
import FakeGitHubSupport
import Foundation
import GitHubClient
import TestTags
import Testing

/// Records how long the GitHub client asked to wait, and returns at once.
final class WaitLog: Sleeper, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [TimeInterval] = []
  var seconds: [TimeInterval] { lock.withLock { recorded } }
  func sleep(seconds: TimeInterval) async throws { lock.withLock { recorded.append(seconds) } }
}

/// The fake GitHub server (``FakeGitHubProcess``) with what these tests read of its log.
typealias FakeGitHub = FakeGitHubProcess

extension FakeGitHubProcess {
  struct Logged: Decodable {
    let path: String
    let authorization: Bool
    let if_none_match: String?
    let status: Int
  }

  /// The requests received so far, in order.
  func log() throws -> [Logged] { try log(as: Logged.self) }

  /// The first `lines` commits of grdb.tsv in a temporary file.
  static func smallHistory(lines: Int, in folder: TemporaryFolder) throws -> String {
    let text = try String(contentsOf: grdbHistory, encoding: .utf8)
    let path = folder.file("small.tsv")
    try text.split(separator: "\n").prefix(lines).joined(separator: "\n")
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}

/// Daily counts computed straight from a TSV history: commits whose author e-mail is `email`,
/// on the day of their author date in `zone` (what `git log --date=local` would show with TZ).
func expectedDailyCounts(tsv path: String, email: String, zone: TimeZone) throws -> [String: Int] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  let parser = ISO8601DateFormatter()
  parser.formatOptions = [.withInternetDateTime]
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = zone
  formatter.dateFormat = "yyyy-MM-dd"
  var counts: [String: Int] = [:]
  for line in text.split(separator: "\n") {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count >= 5, fields[3].lowercased() == email else { continue }
    let date = try #require(parser.date(from: String(fields[4])))
    counts[formatter.string(from: date), default: 0] += 1
  }
  return counts
}

@Suite("ootd sync and graph against the fake GitHub", .tags(.binary, .network), .serialized)
struct GitHubBinaryTests {
  static let token = "ghp_fakeTOKENthatMustNeverLeak0123456789"

  func environment(_ server: FakeGitHub, _ folder: TemporaryFolder, token: String? = token)
    -> [String: String]
  {
    var variables = [
      "OOTD_DB": folder.file("ootd.sqlite"), "OOTD_GITHUB_API_URL": server.apiURL,
      "TZ": "Asia/Kathmandu", "GITHUB_TOKEN": "", "GH_TOKEN": "", "PATH": "/usr/bin:/bin",
    ]
    if let token { variables["GITHUB_TOKEN"] = token }
    return variables
  }

  @Test func firstSyncOfGRDB_graphMatchesTheHistory_andResyncSkipsTheUnchangedRepository() throws {
    // Given: GRDB's 11,308-commit history, 10,817 of them by gr
    let folder = try TemporaryFolder()
    let server = try FakeGitHub([
      "--repo", "groue/GRDB.swift=\(FakeGitHub.grdbHistory.path)", "--login", "gr",
      "--token", Self.token, "--link-email", "gr@pierlis.com=gr", "--empty-repo", "gr/empty",
    ])
    let env = environment(server, folder)
    // When
    let first = try BinaryTests.run(["sync", "--since", "2015-01-01"], environment: env)
    // Then
    #expect(first.code == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Synced 2 repositories for gr: 10,817 new commits"))
    #expect(first.stderr.isEmpty, "piped: no progress line")
    let graph = try BinaryTests.run(
      ["graph", "--from", "2015-06-01", "--to", "2025-10-31", "--json", "--tz", "Asia/Kathmandu"],
      environment: env)
    #expect(graph.code == 0, "\(graph.stderr)")
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(graph.stdout.utf8)) as? [String: Any])
    let days = try #require(json["days"] as? [[String: Any]])
    var actual: [String: Int] = [:]
    for day in days where (day["count"] as? Int ?? 0) > 0 {
      actual[day["date"] as! String] = day["count"] as? Int
    }
    let expected = try expectedDailyCounts(
      tsv: FakeGitHub.grdbHistory.path, email: "gr@pierlis.com",
      zone: TimeZone(identifier: "Asia/Kathmandu")!)
    #expect(actual == expected)
    #expect(json["total"] as? Int == 10_817)
    #expect(days.count == 3806)

    // The search found nothing the listing had not stored: one page of it was enough.
    let firstLog = try server.log()
    #expect(firstLog.filter { $0.path.hasPrefix("/search/commits") }.count == 1)

    // Re-syncing stores nothing new, and lists no repository: their pushed_at has not moved.
    let before = firstLog.count
    let again = try BinaryTests.run(["sync"], environment: env)
    #expect(again.code == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 new commits (10,817 cached); 2 unchanged"))
    let resync = try server.log().dropFirst(before)
    #expect(!resync.contains { $0.path.contains("/commits?") && !$0.path.hasPrefix("/search/") })
    #expect(resync.filter { !$0.path.hasPrefix("/search/") }.map(\.path) == [
      "/user", "/user/repos?affiliation=owner,collaborator,organization_member&sort=pushed&direction=desc&per_page=100",
    ])
    let allAuthorized = resync.allSatisfy { $0.authorization }
    #expect(allAuthorized)

    // A repository no listing reports (--repo) costs one conditional request: GET /repos/o/r,
    // answered 304 once its ETag is known, and its commits are not listed again.
    for _ in 0..<2 {
      let named = try BinaryTests.run(["sync", "--repo", "groue/GRDB.swift"], environment: env)
      #expect(named.code == 0, "\(named.stderr)")
      #expect(named.stdout.contains("0 new commits (10,817 cached); 1 unchanged"))
    }
    let namedLog = try server.log().filter { $0.path == "/repos/groue/GRDB.swift" }
    #expect(namedLog.map(\.path) == ["/repos/groue/GRDB.swift", "/repos/groue/GRDB.swift"])
    #expect(namedLog.map(\.status) == [200, 304])
    #expect(namedLog.last?.if_none_match != nil)

    // The token is nowhere: not in any output, not in the database files.
    for output in [first.stdout, first.stderr, graph.stdout, again.stdout, again.stderr] {
      #expect(!output.contains(Self.token))
    }
    let status = try BinaryTests.run(["github", "status"], environment: env)
    #expect(status.stdout.contains("authenticated as gr"))
    #expect(!status.stdout.contains(Self.token) && !status.stderr.contains(Self.token))
    for suffix in ["", "-wal", "-shm"] {
      if let bytes = FileManager.default.contents(atPath: folder.file("ootd.sqlite" + suffix)) {
        #expect(bytes.range(of: Data(Self.token.utf8)) == nil, "token in ootd.sqlite\(suffix)")
      }
    }
  }

  @Test func faults_badGatewayAndRateLimit_areRiddenOut_404Warns_409IsEmpty() async throws {
    // Given: 250 commits (3 pages); the first commits request gets a 502 HTML page, the first
    // next-page request a primary rate limit resetting 600 s after the client's clock, which
    // is pinned (a real clock under a loaded machine saw 584 s). The sync runs in-process with
    // the live libcurl transport and a sleeper that records each wait and returns at once.
    var harness = try Harness()
    let pinned = harness.now
    harness.clock = { pinned }
    let reset = Int(pinned.timeIntervalSince1970) + 600
    let history = try FakeGitHub.smallHistory(lines: 250, in: harness.folder)
    let server = try FakeGitHub([
      "--repo", "gr/small=\(history)", "--login", "gr", "--token", Self.token,
      "--link-email", "gr@pierlis.com=gr", "--empty-repo", "gr/empty", "--missing-repo", "gr/gone",
      "--fault", "502@/repos/gr/small/commits", "--fault", "primaryonce@/repositories/:at=\(reset)",
    ])
    harness.variables = ["OOTD_GITHUB_API_URL": server.apiURL, "GITHUB_TOKEN": Self.token]
    harness.transport = CurlTransport(connectTimeout: 5, totalTimeout: 30)
    let waits = WaitLog()
    harness.sleeper = waits
    // When
    let result = await harness.run([
      "sync", "--repo", "gr/small", "--repo", "gr/empty", "--repo", "gr/gone", "--since",
      "2015-01-01",
    ])
    // Then: one backoff of 1 s after the 502, then a wait for the reset (600 s ahead of the
    // client's clock, plus a second's margin)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(waits.seconds == [1, 601], "\(waits.seconds)")
    #expect(result.stderr.contains("warning: skipping gr/gone: not found"))
    let expected = try expectedDailyCounts(
      tsv: history, email: "gr@pierlis.com", zone: TimeZone(identifier: "UTC")!
    ).values.reduce(0, +)
    #expect(result.stdout.contains("Synced 2 repositories for gr: \(expected) new commits"))
    #expect(result.stdout.contains("1 skipped"))
    let statuses = try server.log().map(\.status)
    #expect(statuses.contains(502) && statuses.contains(403) && statuses.contains(409))
    #expect(statuses.contains(404))
  }

  @Test func rateLimitBeyondTheWaitBound_stopsWithExit1_keepingWhatWasFetched() throws {
    let folder = try TemporaryFolder()
    let history = try FakeGitHub.smallHistory(lines: 250, in: folder)
    let server = try FakeGitHub([
      "--repo", "gr/small=\(history)", "--login", "gr", "--token", Self.token,
      "--link-email", "gr@pierlis.com=gr", "--fault", "primary@/repositories/:600",
    ])
    let env = environment(server, folder)
    let result = try BinaryTests.run(
      ["sync", "--repo", "gr/small", "--since", "2015-01-01", "--max-wait", "5"], environment: env)
    #expect(result.code == 1)
    #expect(result.stderr.contains("rate limit"))
    #expect(result.stderr.contains("Kept the 100 new commits"))
    #expect(result.stderr.split(separator: "\n").count == 1)
    let graph = try BinaryTests.run(
      ["graph", "--from", "2015-01-01", "--to", "2025-12-31", "--json"], environment: env)
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(graph.stdout.utf8)) as? [String: Any])
    #expect(json["total"] as? Int == 100)

    // The next sync (the limit has reset: a fresh server) finishes the job, without duplicates.
    let fresh = try FakeGitHub([
      "--repo", "gr/small=\(history)", "--login", "gr", "--token", Self.token,
      "--link-email", "gr@pierlis.com=gr",
    ])
    var freshEnv = env
    freshEnv["OOTD_GITHUB_API_URL"] = fresh.apiURL
    let resumed = try BinaryTests.run(["sync", "--repo", "gr/small"], environment: freshEnv)
    #expect(resumed.code == 0, "\(resumed.stderr)")
    let expected = try expectedDailyCounts(
      tsv: history, email: "gr@pierlis.com", zone: TimeZone(identifier: "UTC")!
    ).values.reduce(0, +)
    #expect(resumed.stdout.contains("\(expected - 100) new commits (\(expected) cached)"))
    // It listed from the same starting point (2015-01-01 in Kathmandu), as the interrupted
    // listing never completed.
    #expect(try fresh.log().contains { $0.path.contains("since=2014-12-31T18%3A15%3A00Z") })
  }

  @Test func badToken_isAClearErrorWithExit1() throws {
    let folder = try TemporaryFolder()
    let server = try FakeGitHub(["--login", "gr", "--token", Self.token])
    let result = try BinaryTests.run(
      ["sync"], environment: environment(server, folder, token: "ghp_wrong"))
    #expect(result.code == 1)
    #expect(
      result.stderr == "ootd: error: GitHub rejected the token: bad or expired token (401).\n")
    #expect(result.stdout.isEmpty)
  }

  /// Issue 8 (as `gh auth status`): `github status` shows the whole status, and exits 1 with
  /// one line on stderr when GitHub rejects the token; a good token exits 0.
  @Test func githubStatus_withARejectedToken_showsItAndExits1() throws {
    let folder = try TemporaryFolder()
    let server = try FakeGitHub(["--login", "gr", "--token", Self.token])
    for json in [false, true] {
      let arguments = ["github", "status"] + (json ? ["--json"] : [])
      let rejected = try BinaryTests.run(arguments, environment: environment(server, folder, token: "ghp_wrong"))
      #expect(rejected.code == 1)
      #expect(rejected.stderr == "ootd: error: GitHub rejected the token: bad or expired token (401).\n")
      #expect(rejected.stdout.contains(json ? "\"problem\" : \"GitHub rejected the token" : "Problem:"), "\(rejected.stdout)")
      let good = try BinaryTests.run(arguments, environment: environment(server, folder))
      #expect(good.code == 0, "\(good.stderr)")
      #expect(good.stderr.isEmpty)
    }
  }

  @Test func missingLibcurl_isOneLineAndExit1_beforeAnyRequest() throws {
    // Given: a libcurl that cannot be found (OOTD_LIBCURL names the library dlopen loads)
    let folder = try TemporaryFolder()
    let server = try FakeGitHub(["--login", "gr", "--token", Self.token, "--empty-repo", "gr/x"])
    var env = environment(server, folder)
    env["OOTD_LIBCURL"] = folder.file("missing/libcurl.so.4")
    let expected =
      "ootd: error: ootd needs libcurl to talk to GitHub (\(folder.file("missing/libcurl.so.4")) was not found): install libcurl4, e.g. 'apt-get install libcurl4'.\n"
    // When: a sync, a sync of named repositories for a named user, and a status check
    for arguments in [["sync"], ["sync", "--repo", "gr/x", "--user", "gr"], ["github", "status"]] {
      let result = try BinaryTests.run(arguments, environment: env)
      // Then: one clear line, exit 1, no crash, and nothing was sent
      #expect(result.code == 1, "\(arguments)")
      #expect(result.stderr == expected, "\(arguments)")
      #expect(result.stdout.isEmpty)
    }
    #expect(try server.log().isEmpty)
  }

  @Test(arguments: ["GITHUB_TOKEN", "GH_TOKEN"])
  func tokenWithALineBreak_isRejected_withoutSendingOrPrintingIt(_ variable: String) throws {
    // Given: a token that would end the Authorization line and add a header of its own
    let folder = try TemporaryFolder()
    let server = try FakeGitHub(["--login", "gr"])
    var env = environment(server, folder, token: nil)
    env[variable] = "ghp_A\r\nX-Injected: yes"
    for arguments in [["github", "status"], ["sync"]] {
      // When
      let result = try BinaryTests.run(arguments, environment: env)
      // Then: bad configuration, like a bad OOTD_GITHUB_API_URL: one line, exit 64
      #expect(result.code == 64, "\(arguments)")
      #expect(
        result.stderr
          == "ootd: error: the token from \(variable) holds a control character, a space or a non-ASCII character; a GitHub token is one word of visible ASCII\n"
      )
      #expect(!result.stderr.contains("ghp_A") && !result.stdout.contains("ghp_A"))
      #expect(!result.stderr.contains("X-Injected") && !result.stdout.contains("X-Injected"))
    }
    #expect(try server.log().isEmpty, "no request was sent")
  }

  @Test func oddCommitText_isStoredWhole_orCut_notTruncatedAtNUL() throws {
    // Given: one repository whose commit message holds a NUL, one with a 5,000-character subject
    let folder = try TemporaryFolder()
    var arguments = ["--login", "gr", "--token", Self.token, "--link-email", "gr@pierlis.com=gr"]
    let messages = [
      "nul": #""fix\u0000 the rest stays\n\nbody""#,
      "long": "\"\(String(repeating: "x", count: 5_000))\"",
    ]
    for (index, (name, message)) in messages.sorted(by: { $0.key < $1.key }).enumerated() {
      let sha = String(repeating: "\(index + 1)", count: 40)
      let date = "2025-03-01T10:00:00Z"
      let line = [sha, "", "Gr", "gr@pierlis.com", date, "Gr", "gr@pierlis.com", date, "x"]
      let path = folder.file("\(name).tsv")
      try line.joined(separator: "\t").write(toFile: path, atomically: true, encoding: .utf8)
      arguments += ["--repo", "gr/\(name)=\(path)", "--message", "\(sha)=\(message)"]
    }
    let server = try FakeGitHub(arguments)
    let env = environment(server, folder)
    for name in messages.keys {
      #expect(try BinaryTests.run(["project", "add", name, "--repo", "gr/\(name)"], environment: env).code == 0)
    }
    // When
    let sync = try BinaryTests.run(
      ["sync", "--repo", "gr/nul", "--repo", "gr/long", "--since", "2015-01-01"], environment: env)
    #expect(sync.code == 0, "\(sync.stderr)")
    // Then: what the database gives back
    func storedSubject(_ project: String) throws -> String? {
      let shown = try BinaryTests.run(["project", "show", project, "--json"], environment: env)
      #expect(shown.code == 0, "\(shown.stderr)")
      // The project's "latest" commit, wherever the JSON nests it.
      func latestSubject(_ value: Any) -> String? {
        guard let object = value as? [String: Any] else { return nil }
        if let latest = object["latest"] as? [String: Any] { return latest["subject"] as? String }
        return object.values.lazy.compactMap(latestSubject).first
      }
      return latestSubject(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)))
    }
    #expect(try storedSubject("nul") == "fix\u{FFFD} the rest stays")
    #expect(try storedSubject("long") == String(repeating: "x", count: 1_000))
  }

  @Test func withoutToken_publicReposOfTheUser_areSynced() throws {
    let folder = try TemporaryFolder()
    let history = try FakeGitHub.smallHistory(lines: 30, in: folder)
    let server = try FakeGitHub([
      "--repo", "gr/small=\(history)", "--login", "gr", "--link-email", "gr@pierlis.com=gr",
    ])
    let env = environment(server, folder, token: nil)
    let result = try BinaryTests.run(
      ["sync", "--user", "gr", "--since", "2015-01-01"], environment: env)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.contains("public data only, 60 requests an hour"))
    let log = try server.log()
    #expect(log.contains { $0.path.hasPrefix("/users/gr/repos") })
    #expect(log.allSatisfy { !$0.authorization })
  }
}
