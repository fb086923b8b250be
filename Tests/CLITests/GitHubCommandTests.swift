import HTTP
import Core
import Foundation
import GitHubClient
import Testing

@testable import CLI

/// Answers GitHub requests from a closure and records them.
final class StubGitHub: HTTPTransport, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [HTTPRequest] = []
  let handler: @Sendable (HTTPRequest) -> HTTPResponse

  init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.handler = handler }

  var requests: [HTTPRequest] { lock.withLock { recorded } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    lock.withLock { recorded.append(request) }
    return handler(request)
  }

  static func json(_ status: Int, _ body: String, _ headers: HTTPHeaders = [:]) -> HTTPResponse {
    var all = headers
    all.add(name: "x-ratelimit-limit", value: "5000")
    all.add(name: "x-ratelimit-remaining", value: "4999")
    all.add(name: "x-ratelimit-reset", value: "1900000000")
    return HTTPResponse(status: status, headers: all, body: Data(body.utf8))
  }

  /// A commit authored by `login` at `date`.
  static func commit(_ sha: String, _ date: String, login: String = "mona") -> String {
    #"""
    {"sha":"\#(sha)","commit":{"author":{"name":"Mona","email":"mona@example.com","date":"\#(date)"},"committer":{"name":"Mona","email":"mona@example.com","date":"\#(date)"},"message":"Work \#(sha)"},"html_url":"https://github.com/mona/app/commit/\#(sha)","author":{"login":"\#(login)","id":1},"parents":[{"sha":"p"}]}
    """#
  }

  /// A fake GitHub.com: `mona` owns `mona/app`, whose commits are `commits`.
  static func mona(commits: [String], token: String = "t0k") -> StubGitHub {
    StubGitHub { request in
      let authorized = request.headers["Authorization"] == "Bearer \(token)"
      let path = request.url.path
      switch path {
      case "/user":
        return authorized
          ? json(200, #"{"login":"mona","id":1}"#) : json(401, #"{"message":"Bad credentials"}"#)
      case "/user/repos", "/users/mona/repos":
        return json(
          200,
          #"[{"name":"app","full_name":"mona/app","owner":{"login":"mona"},"private":false,"fork":false,"default_branch":"main","pushed_at":null,"archived":false}]"#
        )
      case "/rate_limit":
        return json(
          200,
          #"{"resources":{"core":{"limit":5000,"remaining":4999,"reset":1900000000,"used":1}}}"#)
      case "/repos/mona/app":
        return json(
          200,
          #"{"name":"app","full_name":"mona/app","owner":{"login":"mona"},"private":false,"fork":false,"default_branch":"main","pushed_at":null,"archived":false}"#,
          ["ETag": "\"app\""])
      case "/user/emails":
        return authorized
          ? json(200, #"[{"email":"mona@example.com","primary":true,"verified":true}]"#)
          : json(401, #"{"message":"Requires authentication"}"#)
      case "/search/commits", "/search/issues":
        return json(200, #"{"total_count":0,"incomplete_results":false,"items":[]}"#)
      case "/repos/mona/app/commits":
        let body = "[" + commits.joined(separator: ",") + "]"
        return json(200, body, ["ETag": "\"\(body.utf8.count)\""])
      default:
        return json(404, #"{"message":"Not Found"}"#)
      }
    }
  }
}

@Suite struct GitHubCommandTests {
  @Test func sync_thenGraph_inProcess_countsByAuthorDayInZone() async throws {
    var harness = try Harness()
    let stub = StubGitHub.mona(commits: [
      StubGitHub.commit("aaaa1111", "2026-11-20T14:59:59Z"),  // 23:59:59 in Seoul
      StubGitHub.commit("bbbb2222", "2026-11-20T15:00:00Z"),  // 00:00 the 21st in Seoul
      StubGitHub.commit("cccc3333", "2026-11-21T01:00:00Z"),
    ])
    harness.transport = stub
    harness.variables["GITHUB_TOKEN"] = "t0k"
    harness.variables["OOTD_GITHUB_API_URL"] = "http://127.0.0.1:9"
    let synced = await harness.run(["sync"])
    #expect(synced.code == 0, "\(synced.stderr)")
    #expect(synced.stdout.contains("Synced 1 repository for mona: 3 new commits"))
    #expect(synced.stderr.isEmpty)  // not a terminal: no progress line
    let graph = await harness.run(["graph", "--from", "2026-11-20", "--to", "2026-11-22", "--json"])
    #expect(graph.code == 0, "\(graph.stderr)")
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(graph.stdout.utf8)) as? [String: Any])
    let days = try #require(json["days"] as? [[String: Any]])
    #expect(days.map { $0["date"] as? String } == ["2026-11-20", "2026-11-21", "2026-11-22"])
    #expect(days.map { $0["count"] as? Int } == [1, 2, 0])
    #expect(json["total"] as? Int == 3)
    #expect(json["lastSync"] is String)
    // Every request carried the contract's headers, and the token only as a Bearer.
    for request in stub.requests {
      #expect(request.headers["User-Agent"] == "ootd/\(Ootd.version)")
      #expect(request.headers["Accept"] == "application/vnd.github+json")
      #expect(request.headers["X-GitHub-Api-Version"] == "2022-11-28")
      #expect(request.headers["Authorization"] == "Bearer t0k")
    }
    #expect(!graph.stdout.contains("t0k") && !synced.stdout.contains("t0k"))
  }

  @Test func sync_onATerminal_drawsAProgressLine_thenClearsIt() async throws {
    var harness = try Harness()
    harness.terminal = true
    harness.transport = StubGitHub.mona(commits: [
      StubGitHub.commit("aaaa1111", "2026-11-21T01:00:00Z")
    ])
    harness.variables["GITHUB_TOKEN"] = "t0k"
    let result = await harness.run(["sync"])
    #expect(result.code == 0)
    #expect(
      result.stderr.contains(
        "\r\u{1B}[2Ksyncing: 0/1 repositories, 1 new commit, 4,999 requests left"))
    #expect(result.stderr.contains("syncing: 1/1 repositories"))
    #expect(result.stderr.hasSuffix("\r\u{1B}[2K"))
    #expect(result.stdout.hasPrefix("Synced 1 repository for mona: 1 new commit"))
  }

  @Test func graph_emptyDatabase_printsEveryDayWithExplicitNulls() async throws {
    let harness = try Harness()
    let result = await harness.run(["graph", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((json["days"] as? [Any])?.count == 365)
    #expect(json["to"] as? String == "2026-11-22")
    #expect(json["from"] as? String == "2025-11-23")
    #expect(json["total"] as? Int == 0)
    #expect(json["busiestDay"] is NSNull)
    #expect(json["lastSync"] is NSNull)
    // The text says "current streak 0 days": the JSON says 0 days too, never a bare null.
    for key in ["currentStreak", "longestStreak"] {
      let streak = try #require(json[key] as? [String: Any], "\(key)")
      #expect(streak["days"] as? Int == 0)
      #expect(streak["from"] is NSNull)
      #expect(streak["to"] is NSNull)
    }
    // A project whose repository was never synced has no commit figures: null, as the text's
    // "not synced yet".
    await harness.run(["project", "add", "app", "--repo", "mona/app"])
    let shown = try #require(
      JSONSerialization.jsonObject(
        with: Data(await harness.run(["project", "show", "app", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(shown["commits"] is NSNull)
    #expect(await harness.run(["project", "show", "app"]).stdout.contains("not synced yet"))
    let text = await harness.run(["graph", "--weeks", "4"])
    #expect(text.stdout.contains("Never synced with GitHub: run 'ootd sync'."))
    #expect(text.stdout.contains("· 0  ░ -  ▒ -  ▓ -  █ -"))
    let csv = await harness.run(["graph", "--from", "2026-11-21", "--to", "2026-11-22", "--csv"])
    #expect(csv.stdout == "date,count\n2026-11-21,0\n2026-11-22,0\n")
  }

  @Test(arguments: [
    ["graph", "--tz", "Mars/Olympus"],
    ["graph", "--repo", "not-a-repo"],
    ["graph", "--weeks", "0"],
    ["graph", "--from", "2026-02-30"],
    ["graph", "--from", "2026-11-22", "--to", "2026-11-01"],
    ["sync", "--repo", "https://github.com/a/b"],
    ["github", "url", "http://ghe.example.com/api/v3"],
    ["github", "login", "-bad-"],
  ])
  func invalidValues_exit64(arguments: [String]) async throws {
    let harness = try Harness()
    let result = await harness.run(arguments)
    #expect(result.code == 64, "\(result.stdout) \(result.stderr)")
    #expect(result.stderr.hasPrefix("ootd: error: "))
  }

  @Test(arguments: [
    ["sync", "--repo", "a/b", "c/d"], ["sync", "--repo", "a/b", "--repo", "c/d"],
    ["sync", "--repo", "a/b,c/d"],
  ])
  func sync_repoOption_takesSeveralRepositories(arguments: [String]) async throws {
    let command = try #require(try Ootd.parseAsRoot(arguments) as? Ootd.Sync)
    #expect(command.repositories == ["a/b", "c/d"])
  }

  @Test func sync_withoutTokenOrLogin_isAUsageError() async throws {
    var harness = try Harness()
    harness.transport = StubGitHub.mona(commits: [])
    let result = await harness.run(["sync"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("no GitHub login"))
  }

  @Test func githubURL_bareHost_becomesGHESRoot_andEnvironmentOverridesIt() async throws {
    var harness = try Harness()
    #expect(
      await harness.run(["github", "url", "ghe.example.com"]).stdout
        == "GitHub API: https://ghe.example.com/api/v3\n")
    #expect(await harness.run(["github", "url"]).stdout == "https://ghe.example.com/api/v3\n")
    harness.variables["OOTD_GITHUB_API_URL"] = "http://127.0.0.1:8080/"
    #expect(await harness.run(["github", "url"]).stdout == "http://127.0.0.1:8080\n")
  }

  @Test func status_withoutToken_saysPublicOnly_andNeverPrintsAToken() async throws {
    var harness = try Harness()
    harness.transport = StubGitHub.mona(commits: [])
    #expect(await harness.run(["github", "login", "mona"]).code == 0)
    let anonymous = await harness.run(["github", "status"])
    #expect(anonymous.code == 0, "\(anonymous.stderr)")
    #expect(anonymous.stdout.contains("public data only, 60 requests an hour"))
    #expect(anonymous.stdout.contains("api.github.com"))
    #expect(anonymous.stdout.contains("mona (saved)"))
    #expect(anonymous.stdout.contains("4,999/5,000 left"))
    harness.variables["GH_TOKEN"] = "t0k"
    let authenticated = await harness.run(["github", "status", "--json"])
    #expect(authenticated.stdout.contains("\"tokenSource\" : \"GH_TOKEN\""))
    #expect(authenticated.stdout.contains("\"tokenOwner\" : \"mona\""))
    #expect(!authenticated.stdout.contains("t0k"))
    // As gh: GH_TOKEN wins over GITHUB_TOKEN.
    harness.variables["GITHUB_TOKEN"] = "other"
    let both = await harness.run(["github", "status", "--json"])
    #expect(both.stdout.contains("\"tokenSource\" : \"GH_TOKEN\""))
  }

  @Test func ghAuthToken_isAskedForTheAPIHost_butNeverForALoopbackServer() async throws {
    var harness = try Harness()
    let stub = StubGitHub.mona(commits: [], token: "from-gh")
    harness.transport = stub
    let asked = HostLog()
    harness.ghAuthToken = { host in
      asked.append(host)
      return "from-gh"
    }
    let result = await harness.run(["sync"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(asked.hosts == ["github.com"])
    #expect(stub.requests.first?.headers["Authorization"] == "Bearer from-gh")
    harness.variables["OOTD_GITHUB_API_URL"] = "http://127.0.0.1:9"
    _ = await harness.run(["sync", "--user", "mona"])
    #expect(asked.hosts == ["github.com"])
  }

  @Test func gitHubEnterprise_requestsKeepTheAPIPrefix_andGhIsAskedForThatHost() async throws {
    var harness = try Harness()
    #expect(await harness.run(["github", "url", "ghe.example.com"]).code == 0)
    let stub = StubGitHub { request in
      let mona = StubGitHub.mona(commits: [StubGitHub.commit("aaaa1111", "2026-11-21T01:00:00Z")])
      guard request.url.path.hasPrefix("/api/v3/") else {
        return StubGitHub.json(404, #"{"message":"Not Found"}"#)
      }
      var stripped = request
      stripped.url = URL(
        string: request.url.absoluteString.replacingOccurrences(of: "/api/v3", with: ""))!
      return mona.handler(stripped)
    }
    harness.transport = stub
    let asked = HostLog()
    harness.ghAuthToken = { host in
      asked.append(host)
      return "t0k"
    }
    let result = await harness.run(["sync"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("1 new commit"))
    #expect(asked.hosts == ["ghe.example.com"])
    #expect(
      stub.requests.allSatisfy {
        $0.url.absoluteString.hasPrefix("https://ghe.example.com/api/v3/")
      })
  }

  @Test func dashboard_showsTodaysCommits_onceSynced() async throws {
    var harness = try Harness()
    #expect(await !harness.run([]).stdout.contains("Commits today"))
    #expect(await harness.run(["today", "--json"]).stdout.contains("\"commits\" : null"))
    harness.transport = StubGitHub.mona(commits: [
      StubGitHub.commit("aaaa1111", "2026-11-22T01:00:00Z"),
      StubGitHub.commit("bbbb2222", "2026-11-21T01:00:00Z"),
    ])
    harness.variables["GITHUB_TOKEN"] = "t0k"
    #expect(await harness.run(["sync"]).code == 0)
    #expect(await harness.run([]).stdout.contains("Commits today: 1"))
    #expect(await harness.run(["today", "--json"]).stdout.contains("\"commits\" : 1"))
  }

  @Test func report_showsCommitsBesideAchievement_andWhenTheyWereSynced() async throws {
    var harness = try Harness()
    #expect(await harness.run(["add", "Ship it", "--on", "2026-11-21"]).code == 0)
    harness.transport = StubGitHub.mona(commits: [
      StubGitHub.commit("aaaa1111", "2026-11-21T01:00:00Z"),
      StubGitHub.commit("bbbb2222", "2026-11-21T02:00:00Z"),
      StubGitHub.commit("cccc3333", "2026-11-22T01:00:00Z"),
    ])
    harness.variables["GITHUB_TOKEN"] = "t0k"
    #expect(await harness.run(["sync"]).code == 0)
    let json = await harness.run(["report", "--from", "2026-11-20", "--to", "2026-11-22", "--json"])
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let days = try #require(object["days"] as? [[String: Any]])
    #expect(days.map { $0["commits"] as? Int } == [0, 2, 1])
    #expect(object["commits"] as? Int == 3)
    #expect(object["lastSync"] is String)
    let table = await harness.run(["report", "--from", "2026-11-20", "--to", "2026-11-22"])
    #expect(table.stdout.contains("2 commits"))
    #expect(table.stdout.contains("Commits   3 commits on 2 days · last synced 2026-11-22 09:00"))
    let csv = await harness.run(["report", "--from", "2026-11-21", "--to", "2026-11-21", "--csv"])
    #expect(csv.stdout.hasSuffix(",2,0\n"))
  }

  @Test func syncLocal_readsProjectClones_countsTheUsersCommitsOnce() async throws {
    var harness = try Harness()
    #expect(await harness.run(["project", "add", "app", "--path", "/src/app"]).code == 0)
    let sep = "\u{1F}"
    let log =
      [
        [
          "aaaa1111", "p", "Me", "me@example.com", "2026-11-21T10:00:00+09:00",
          "2026-11-21T10:00:00+09:00", "one",
        ],
        [
          "bbbb2222", "aaaa1111", "Me", "ME@example.com", "2026-11-22T01:00:00+09:00",
          "2026-11-22T01:00:00+09:00", "two",
        ],
        [
          "cccc3333", "bbbb2222 x", "Al", "al@example.com", "2026-11-22T02:00:00+09:00",
          "2026-11-22T02:00:00+09:00", "merge",
        ],
      ].map { $0.joined(separator: sep) }.joined(separator: "\n") + "\n"
    harness.runGit = { arguments in
      guard arguments.prefix(2) == ["-C", "/src/app"] else { return nil }
      return arguments.contains("config") ? "me@example.com\n" : log
    }
    let first = await harness.run(["sync", "--local"])
    #expect(first.code == 0, "\(first.stderr)")
    #expect(first.stdout == "Read the git log of 1 project: 2 new commits (2 cached).\n")
    let again = await harness.run(["sync", "--local", "--email", "al@example.com"])
    #expect(again.stdout == "Read the git log of 1 project: 1 new commit (3 cached).\n")
    let graph = await harness.run(["graph", "--from", "2026-11-21", "--to", "2026-11-22", "--csv"])
    #expect(graph.stdout == "date,count\n2026-11-21,1\n2026-11-22,2\n")
    #expect(await harness.run(["project", "show", "app"]).stdout.contains("3 synced"))
  }

  @Test func doctor_namesLocalAuthorEmailsGitHubDoesNotLink() async throws {
    // Given: a clone with commits by the linked e-mail and by a laptop's default one
    var harness = try Harness()
    #expect(await harness.run(["project", "add", "app", "--path", "/src/app"]).code == 0)
    let log = [
      ["aaaa1111", "p", "Mona", "mona@example.com", "2026-11-21T10:00:00Z", "2026-11-21T10:00:00Z", "one"],
      ["bbbb2222", "p", "Mona", "mona@laptop.local", "2026-11-21T11:00:00Z", "2026-11-21T11:00:00Z", "two"],
      ["cccc3333", "p", "Mona", "mona@laptop.local", "2026-11-21T12:00:00Z", "2026-11-21T12:00:00Z", "three"],
      ["dddd4444", "p", "Mona", "1+mona@users.noreply.github.com", "2026-11-21T13:00:00Z", "2026-11-21T13:00:00Z", "four"],
    ].map { $0.joined(separator: "\u{1F}") }.joined(separator: "\n") + "\n"
    harness.runGit = { arguments in
      guard arguments.prefix(2) == ["-C", "/src/app"] else { return nil }
      return arguments.contains("config") ? "mona@example.com\n" : log
    }
    let local = await harness.run([
      "sync", "--local", "--email", "mona@laptop.local", "--email", "1+mona@users.noreply.github.com",
    ])
    #expect(local.code == 0, "\(local.stderr)")
    harness.transport = StubGitHub.mona(commits: [])
    harness.variables["GITHUB_TOKEN"] = "t0k"
    // When
    let doctor = await harness.run(["github", "doctor"])
    // Then: the laptop address is named with its commits; the linked and noreply ones are not
    #expect(doctor.code == 0, "\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "Not linked: mona@laptop.local (2 local commits): GitHub does not count them; add it at https://github.com/settings/emails."
      ), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("Not linked: mona@example.com"))
    #expect(!doctor.stdout.contains("noreply.github.com ("))
    let json = await harness.run(["github", "doctor", "--json"])
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let emails = try #require(object["emails"] as? [String: Any])
    #expect(emails["linked"] as? [String] == ["mona@example.com"])
    let unlinked = try #require(emails["unlinked"] as? [[String: Any]])
    #expect(unlinked.map { $0["email"] as? String } == ["mona@laptop.local"])
    #expect(unlinked.map { $0["commits"] as? Int } == [2])
  }

  @Test func projectShow_listsTheRepositorysCommits() async throws {
    var harness = try Harness()
    #expect(await harness.run(["project", "add", "app", "--repo", "mona/app"]).code == 0)
    #expect(await harness.run(["project", "show", "app"]).stdout.contains("not synced yet"))
    harness.transport = StubGitHub.mona(commits: [
      StubGitHub.commit("aaaa1111", "2026-11-22T01:00:00Z")
    ])
    harness.variables["GITHUB_TOKEN"] = "t0k"
    #expect(await harness.run(["sync", "--repo", "mona/app"]).code == 0)
    let shown = await harness.run(["project", "show", "app"])
    #expect(
      shown.stdout.contains("1 synced, 1 in the last 30 days; latest 2026-11-22 \"Work aaaa1111\""))
    let json = await harness.run(["project", "show", "app", "--json"]).stdout
    #expect(json.contains("\"last30Days\" : 1"))
  }
}

final class HostLog: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [String] = []
  func append(_ host: String) { lock.withLock { recorded.append(host) } }
  var hosts: [String] { lock.withLock { recorded } }
}
