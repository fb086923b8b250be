import FakeGitHubSupport
import Foundation
import TestTags
import Testing

/// A commit of a fixture history, written as a TSV line of fake_github.py.
struct FixtureCommit {
  var sha: String
  var email: String
  var date: String  // ISO 8601, UTC
  var committed: String? = nil  // when it differs (a pull request merged later)

  var line: String {
    [sha, "p", "Someone", email, date, "Someone", email, committed ?? date, "work"]
      .joined(separator: "\t")
  }

  /// Writes `commits`, newest first as GitHub lists them, to `name` in `folder`.
  static func write(_ commits: [FixtureCommit], _ name: String, in folder: TemporaryFolder)
    throws -> String
  {
    let path = folder.file(name)
    try commits.sorted { $0.date > $1.date }.map(\.line).joined(separator: "\n")
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// `count` commits by `email`, one every `hours` hours from `start`, with SHAs from `first`.
  static func series(_ count: Int, email: String, start: String, hours: Int, first: Int)
    -> [FixtureCommit]
  {
    let parser = ISO8601DateFormatter()
    let begin = parser.date(from: start)!
    return (0..<count).map { index in
      FixtureCommit(
        sha: String(format: "%040x", first + index), email: email,
        date: parser.string(from: begin.addingTimeInterval(Double(index * hours) * 3600)))
    }
  }
}

@Suite("Contributions everywhere: search discovery, gh-pages, forks, doctor", .tags(.binary, .network), .serialized)
struct GitHubContributionsTests {
  static let token = "ghp_fakeTOKENthatMustNeverLeak0123456789"
  static let me = "gr@pierlis.com"

  func environment(_ server: FakeGitHubProcess, _ folder: TemporaryFolder) -> [String: String] {
    [
      "OOTD_DB": folder.file("ootd.sqlite"), "OOTD_GITHUB_API_URL": server.apiURL, "TZ": "UTC",
      "GITHUB_TOKEN": Self.token, "GH_TOKEN": "", "PATH": "/usr/bin:/bin",
    ]
  }

  /// The graph's days with a count, from `graph --json`.
  func graphDays(_ arguments: [String], _ env: [String: String]) throws -> [String: Int] {
    let graph = try BinaryTests.run(
      ["graph", "--from", "2026-01-01", "--to", "2026-10-31", "--json", "--tz", "UTC"] + arguments,
      environment: env)
    #expect(graph.code == 0, "\(graph.stderr)")
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(graph.stdout.utf8)) as? [String: Any])
    var days: [String: Int] = [:]
    for day in try #require(json["days"] as? [[String: Any]]) where (day["count"] as? Int ?? 0) > 0 {
      days[day["date"] as! String] = day["count"] as? Int
    }
    return days
  }

  @Test func mixedHistory_graphEqualsGitHubsCount_madeFromTheFixture() throws {
    // Given: the user's own repository (with a gh-pages branch), a collaborator repository, an
    // upstream project of another owner that no listing shows, and the user's fork of it with
    // commits that exist only there; commits by a laptop e-mail GitHub does not link.
    let folder = try TemporaryFolder()
    let laptop = "gr@laptop.local"
    let own =
      FixtureCommit.series(40, email: Self.me, start: "2026-03-01T09:00:00Z", hours: 29, first: 1)
      + FixtureCommit.series(5, email: laptop, start: "2026-03-02T09:00:00Z", hours: 50, first: 100)
    let pages = FixtureCommit.series(6, email: Self.me, start: "2026-04-10T23:30:00Z", hours: 7, first: 200)
    let team = FixtureCommit.series(12, email: Self.me, start: "2026-05-01T12:00:00Z", hours: 13, first: 300)
    let upstream =
      FixtureCommit.series(20, email: Self.me, start: "2026-06-01T08:00:00Z", hours: 31, first: 400)
      + FixtureCommit.series(15, email: "maintainer@up.org", start: "2026-06-01T10:00:00Z", hours: 40, first: 500)
    // The fork shares 8 of the upstream commits (the user's merged work) and adds 7 of its own.
    let forkOnly = FixtureCommit.series(7, email: Self.me, start: "2026-07-20T16:00:00Z", hours: 23, first: 600)
    let fork = Array(upstream.prefix(8)) + forkOnly
    let late = FixtureCommit(
      sha: String(format: "%040x", 700), email: Self.me, date: "2025-12-01T10:00:00Z",
      committed: "2026-06-21T10:00:00Z")
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--repo", "gr/site=\(try FixtureCommit.write(own, "own.tsv", in: folder))",
      "--pages-branch", "gr/site=\(try FixtureCommit.write(pages, "pages.tsv", in: folder))",
      "--repo", "team/tool=\(try FixtureCommit.write(team, "team.tsv", in: folder))",
      "--outside-repo", "up/project=\(try FixtureCommit.write(upstream, "up.tsv", in: folder))",
      "--fork-repo", "gr/project=\(try FixtureCommit.write(fork, "fork.tsv", in: folder))",
      "--merged-pr", "up/project=2026-06-20",
      // A pull request merged in June whose commit was authored before the window: only the
      // pull-request search finds this project.
      "--outside-repo", "docs/site=\(try FixtureCommit.write([late], "docs.tsv", in: folder))",
      "--merged-pr", "docs/site=2026-06-21",
    ])
    let env = environment(server, folder)

    // When
    let sync = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env)

    // Then: the upstream project was found by commit search, the docs site by its merged pull
    // request, and both were listed like the others
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(sync.stdout.contains("Synced 5 repositories for gr"), "\(sync.stdout)")
    #expect(sync.stdout.contains("2 found by search"), "\(sync.stdout)")
    #expect(sync.stderr.isEmpty, "\(sync.stderr)")
    let log = try server.log(as: Logged.self)
    #expect(log.contains { $0.path.hasPrefix("/search/commits?q=author:gr+author-date:2026-01-01..") })
    #expect(log.contains { $0.path.hasPrefix("/repos/up/project/commits?author=gr") })
    #expect(log.contains { $0.path.hasPrefix("/search/issues?q=author:gr+type:pr+is:merged") })
    #expect(log.contains { $0.path.hasPrefix("/repos/docs/site/commits?author=gr") })
    #expect(log.contains { $0.path.contains("/repos/gr/site/commits?") && $0.path.contains("sha=gh-pages") })

    // GitHub's rules, counted here from the fixture: the author e-mail is linked, the repository
    // is not a fork, the commit is on the default branch or gh-pages; each SHA once; by UTC day.
    var counted: [String: String] = [:]  // sha -> day
    for (history, isFork) in [(own, false), (pages, false), (team, false), (upstream, false), (fork, true)]
    where !isFork {
      for commit in history where commit.email == Self.me { counted[commit.sha] = String(commit.date.prefix(10)) }
    }
    var expected: [String: Int] = [:]
    for day in counted.values { expected[day, default: 0] += 1 }
    #expect(try graphDays([], env) == expected)
    #expect(counted.count == 40 + 6 + 12 + 20)

    // --include-forks counts the fork's own commits too.
    var withForks = expected
    for commit in forkOnly { withForks[String(commit.date.prefix(10)), default: 0] += 1 }
    #expect(try graphDays(["--include-forks"], env) == withForks)

    // A re-sync of the same window lists nothing again: no repository was pushed to.
    let before = try server.log(as: Logged.self).count
    let again = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env)
    #expect(again.code == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 new commits"), "\(again.stdout)")
    let resync = try server.log(as: Logged.self).dropFirst(before)
    #expect(!resync.contains { $0.path.contains("/commits?author=") }, "\(resync.map(\.path))")
    #expect(try graphDays([], env) == expected)
  }

  @Test func searchMissing_isOneWarningLine_andTheListingIsSynced() throws {
    let folder = try TemporaryFolder()
    let own = FixtureCommit.series(5, email: Self.me, start: "2026-03-01T09:00:00Z", hours: 24, first: 1)
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr", "--search-404",
      "--repo", "gr/own=\(try FixtureCommit.write(own, "own.tsv", in: folder))",
    ])
    let result = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: environment(server, folder))
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "ootd: warning: this GitHub server has no search API (404): repositories outside your listing are not found; synced the other repositories\n"
    )
    #expect(result.stdout.contains("Synced 1 repository for gr: 5 new commits"))
  }

  @Test func searchRefused422_isOneWarningLine_andTheSyncGoesOn() throws {
    let folder = try TemporaryFolder()
    let own = FixtureCommit.series(3, email: Self.me, start: "2026-03-01T09:00:00Z", hours: 24, first: 1)
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--fault", "422@/search/commits",
      "--repo", "gr/own=\(try FixtureCommit.write(own, "own.tsv", in: folder))",
    ])
    let result = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: environment(server, folder))
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "ootd: warning: GitHub refused the search (422: Validation Failed); synced the other repositories\n")
    #expect(result.stdout.contains("3 new commits"))
  }

  @Test func searchRateLimit_isItsOwn_neverSpentOnACertain403_andWhatWasFoundIsListed() throws {
    // Given: a search API allowing 1 request a minute; a project only commit search finds, and
    // one only the merged pull-request search (the second search request) would find
    let folder = try TemporaryFolder()
    let own = FixtureCommit.series(3, email: Self.me, start: "2026-03-01T09:00:00Z", hours: 24, first: 1)
    let upstream = FixtureCommit.series(4, email: Self.me, start: "2026-06-01T08:00:00Z", hours: 31, first: 400)
    let late = FixtureCommit(
      sha: String(format: "%040x", 700), email: Self.me, date: "2025-12-01T10:00:00Z",
      committed: "2026-06-21T10:00:00Z")
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--search-rate-limit", "1",
      "--repo", "gr/own=\(try FixtureCommit.write(own, "own.tsv", in: folder))",
      "--outside-repo", "up/project=\(try FixtureCommit.write(upstream, "up.tsv", in: folder))",
      "--outside-repo", "docs/site=\(try FixtureCommit.write([late], "docs.tsv", in: folder))",
      "--merged-pr", "docs/site=2026-06-21",
    ])
    let env = environment(server, folder)
    // When: the sync may not wait for the search window's reset (a minute away)
    let result = try BinaryTests.run(["sync", "--since", "2026-01-01", "--max-wait", "5"], environment: env)
    // Then: one warning; the core listing went on; what commit search found was listed
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("ootd: warning: the repository search stopped"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stdout.contains("7 new commits"), "\(result.stdout)")
    let log = try server.log(as: Logged.self)
    let searches = log.filter { $0.path.hasPrefix("/search/") }
    #expect(searches.map(\.path).allSatisfy { $0.hasPrefix("/search/commits?") }, "\(searches.map(\.path))")
    #expect(searches.count == 1 && searches.allSatisfy { $0.status == 200 }, "no request spent on a certain 403")
    #expect(log.contains { $0.path.hasPrefix("/repos/up/project/commits?author=gr") })
    #expect(!log.contains { $0.path.hasPrefix("/repos/docs/site/") })
    #expect(try graphDays([], env).values.reduce(0, +) == 7)

    // The window counts as searched only once both searches ran: the next sync searches it again.
    let before = try server.log(as: Logged.self).count
    let again = try BinaryTests.run(["sync", "--since", "2026-01-01", "--max-wait", "5"], environment: env)
    #expect(again.code == 0, "\(again.stderr)")
    let next = try server.log(as: Logged.self).dropFirst(before)
    #expect(next.contains { $0.path.hasPrefix("/search/commits?q=author:gr+author-date:2026-01-01..") }, "\(next.map(\.path))")
  }

  @Test func resultCap_andIncompleteResults_splitTheWindow_andEveryCommitIsFound() throws {
    // Given: 2,400 commits of the user in a project no listing shows: more than the 1,000
    // results one search returns; the first search also times out (incomplete_results).
    let folder = try TemporaryFolder()
    let upstream = FixtureCommit.series(2_400, email: Self.me, start: "2026-01-05T00:30:00Z", hours: 2, first: 1)
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--outside-repo", "up/big=\(try FixtureCommit.write(upstream, "big.tsv", in: folder))",
      "--search-incomplete", "1", "--search-rate-limit", "1000",
    ])
    let env = environment(server, folder)
    let result = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2,400 new commits"), "\(result.stdout)")
    let searches = try server.log(as: Logged.self).filter { $0.path.hasPrefix("/search/commits") }
    #expect(searches.allSatisfy { $0.status == 200 }, "no page past the 1,000th result")
    let windows = Set(searches.compactMap { entry -> String? in
      guard let range = entry.path.range(of: "author-date:") else { return nil }
      return String(entry.path[range.upperBound...].prefix(22))
    })
    #expect(windows.count >= 3, "\(windows)")
    #expect(try graphDays([], env).values.reduce(0, +) == 2_400)
  }

  @Test func interruptedSyncSince_isFinishedByAPlainSync() throws {
    // Given: three repositories with history back to 2016; a sync --since 2016-01-01 stops on
    // a rate limit in the second one, before the third was started.
    let folder = try TemporaryFolder()
    var arguments = ["--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr"]
    var total = 0
    for (index, name) in ["a", "b", "c"].enumerated() {
      let history = FixtureCommit.series(
        150, email: Self.me, start: "2016-02-01T10:00:00Z", hours: 24 * 23, first: 1000 * (index + 1))
      total += history.count
      arguments += ["--repo", "gr/\(name)=\(try FixtureCommit.write(history, "\(name).tsv", in: folder))"]
    }
    let limited = try FakeGitHubProcess(arguments + ["--fault", "primary@/repositories/:600"])
    var env = environment(limited, folder)
    let stopped = try BinaryTests.run(["sync", "--since", "2016-01-01", "--max-wait", "5"], environment: env)
    #expect(stopped.code == 1, "\(stopped.stderr)")
    #expect(stopped.stderr.contains("rate limit"))

    // When: a plain sync (the limit has reset: a fresh server)
    let fresh = try FakeGitHubProcess(arguments)
    env["OOTD_GITHUB_API_URL"] = fresh.apiURL
    let resumed = try BinaryTests.run(["sync"], environment: env)

    // Then: the older window is finished for every repository
    #expect(resumed.code == 0, "\(resumed.stderr)")
    let graph = try BinaryTests.run(
      ["graph", "--from", "2016-01-01", "--to", "2026-10-31", "--json"], environment: env)
    let json = try #require(JSONSerialization.jsonObject(with: Data(graph.stdout.utf8)) as? [String: Any])
    #expect(json["total"] as? Int == total)
    #expect(try fresh.log(as: Logged.self).contains {
      $0.path.hasPrefix("/repos/gr/c/commits") && $0.path.contains("since=2016-01-01")
    })
  }

  @Test func sinceInTheFuture_isRefusedWithExit64() throws {
    let folder = try TemporaryFolder()
    let server = try FakeGitHubProcess(["--login", "gr", "--token", Self.token])
    let result = try BinaryTests.run(["sync", "--since", "2999-01-01"], environment: environment(server, folder))
    #expect(result.code == 64)
    #expect(result.stderr == "ootd: error: --since 2999-01-01 is in the future: there are no commits to fetch from it yet\n")
    #expect(try server.log(as: Logged.self).isEmpty)
  }

  @Test func doctor_namesHiddenScopes_unreadableEmails_andSearchGaps() throws {
    // Given: a token with only public_repo; e-mails it may not read; a project search finds
    // commits in but the token cannot read (404)
    let folder = try TemporaryFolder()
    let own = FixtureCommit.series(3, email: Self.me, start: "2026-03-01T09:00:00Z", hours: 24, first: 1)
    let secret = FixtureCommit.series(4, email: Self.me, start: "2026-04-01T09:00:00Z", hours: 24, first: 50)
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--header-scopes", "public_repo", "--no-emails-scope",
      "--repo", "gr/own=\(try FixtureCommit.write(own, "own.tsv", in: folder))",
      "--outside-repo", "sso/secret=\(try FixtureCommit.write(secret, "secret.tsv", in: folder))",
      "--missing-repo", "sso/secret",
    ])
    let env = environment(server, folder)
    let sync = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env)
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(sync.stderr.contains("warning: skipping sso/secret: not found"))
    // When
    let doctor = try BinaryTests.run(["github", "doctor", "--json"], environment: env)
    // Then
    #expect(doctor.code == 0, "\(doctor.stderr)")
    let json = try #require(JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
    let token = try #require(json["token"] as? [String: Any])
    #expect(token["scopes"] as? [String] == ["public_repo"])
    let hidden = try #require(json["hidden"] as? [String])
    #expect(hidden.contains { $0.hasPrefix("no 'repo' scope") })
    #expect(hidden.contains { $0.hasPrefix("no 'user:email' scope") }, "GET /user/emails answered 404")
    let emails = try #require(json["emails"] as? [String: Any])
    #expect(emails["linked"] is NSNull)
    let gaps = try #require(json["searchGaps"] as? [[String: Any]])
    #expect(gaps.count == 1)
    #expect(gaps.first?["repository"] as? String == "sso/secret")
    #expect(gaps.first?["searchCommits"] as? Int == 4)
    #expect(gaps.first?["listedCommits"] as? Int == 0)
    let repositories = try #require(json["repositories"] as? [[String: Any]])
    #expect(repositories.contains { $0["repository"] as? String == "gr/own" && $0["lastSync"] is String })
    let text = try BinaryTests.run(["github", "doctor"], environment: env)
    #expect(text.stdout.contains("Search found 4 commits in sso/secret but the listing read 0"))
    #expect(!text.stdout.contains(Self.token) && !doctor.stdout.contains(Self.token))
  }

  @Test func doctor_believesTheEmailsEndpoint_overTheScopes() throws {
    // Given: a token whose scopes name no 'user:email', on a server that lists its e-mails anyway
    let folder = try TemporaryFolder()
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--header-scopes", "repo, read:org",
    ])
    // When
    let doctor = try BinaryTests.run(["github", "doctor", "--json"], environment: environment(server, folder))
    // Then: the e-mails were read, so no line says they cannot be
    #expect(doctor.code == 0, "\(doctor.stderr)")
    let json = try #require(JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
    #expect((json["emails"] as? [String: Any])?["linked"] as? [String] == [Self.me])
    #expect(json["hidden"] as? [String] == [], "\(doctor.stdout)")
  }

  @Test func doctor_namesProjectsFoundOnlyByCommitSearch_whereGitHubsMembershipRuleIsUnchecked() throws {
    // Given: two projects of other owners holding the user's commits; a pull request of the
    // user was merged in one of them only
    let folder = try TemporaryFolder()
    let upstream = FixtureCommit.series(4, email: Self.me, start: "2026-06-01T08:00:00Z", hours: 31, first: 400)
    let solo = FixtureCommit.series(3, email: Self.me, start: "2026-07-01T08:00:00Z", hours: 20, first: 500)
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr",
      "--header-scopes", "repo, read:org, user:email",
      "--outside-repo", "up/project=\(try FixtureCommit.write(upstream, "up.tsv", in: folder))",
      "--merged-pr", "up/project=2026-06-20",
      "--outside-repo", "solo/lib=\(try FixtureCommit.write(solo, "solo.tsv", in: folder))",
    ])
    let env = environment(server, folder)
    #expect(try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env).code == 0)
    // When
    let doctor = try BinaryTests.run(["github", "doctor", "--json"], environment: env)
    // Then: only the project without a merged pull request is named, with its commits
    #expect(doctor.code == 0, "\(doctor.stderr)")
    let json = try #require(JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
    let unconfirmed = try #require(json["unconfirmed"] as? [[String: Any]], "\(doctor.stdout)")
    #expect(unconfirmed.count == 1)
    #expect(unconfirmed.first?["repository"] as? String == "solo/lib")
    #expect(unconfirmed.first?["commits"] as? Int == 3)
    let text = try BinaryTests.run(["github", "doctor"], environment: env).stdout
    #expect(text.contains("Unconfirmed: solo/lib (3 commits, found by search"), "\(text)")
    #expect(!text.contains("Unconfirmed: up/project"))
    // A re-sync keeps what was learnt: the merged pull request still vouches for up/project.
    #expect(try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env).code == 0)
    let again = try #require(
      JSONSerialization.jsonObject(
        with: Data(try BinaryTests.run(["github", "doctor", "--json"], environment: env).stdout.utf8))
        as? [String: Any])
    #expect((again["unconfirmed"] as? [[String: Any]])?.compactMap { $0["repository"] as? String } == ["solo/lib"])
  }

  @Test func ctrlC_saysWhatWasKept_andTheNextSyncFinishes() throws {
    // Given: five repositories of three pages each
    let folder = try TemporaryFolder()
    var arguments = ["--login", "gr", "--token", Self.token, "--link-email", "\(Self.me)=gr"]
    for index in 0..<5 {
      let history = FixtureCommit.series(
        250, email: Self.me, start: "2026-02-01T10:00:00Z", hours: 11, first: 10_000 * (index + 1))
      arguments += ["--repo", "gr/r\(index)=\(try FixtureCommit.write(history, "r\(index).tsv", in: folder))"]
    }
    let server = try FakeGitHubProcess(arguments)
    let env = environment(server, folder)
    // When: Ctrl-C once the third commit page has arrived (a dozen more are to come): the
    // sync interrupts itself there (OOTD_FAULT, see Sources/CLI/Environment/DebugSeams.swift)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BinaryTests.binary)
    process.arguments = ["sync", "--since", "2026-01-01"]
    process.environment = BinaryTests.pinned(env.merging(["OOTD_FAULT": "github-commits-page:3:int"]) { $1 })
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    // Then: one line, exit 130, and what it says was kept is in the database
    #expect(process.terminationStatus == 130, "\(stderr)")
    let lines = stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(stderr)")
    let line = String(lines.first ?? "")
    #expect(line.hasPrefix("ootd: interrupted; kept the "), "\(line)")
    #expect(line.hasSuffix(" fetched so far; run 'ootd sync' to resume."), "\(line)")
    // It stopped part-way: three commit pages were asked for, not the fifteen
    let pages = try server.log(as: Logged.self).filter { $0.path.contains("/commits?") }.count
    #expect(pages == 3, "\(pages) commit pages asked for")
    // And the next sync finishes the job
    let resumed = try BinaryTests.run(["sync", "--since", "2026-01-01"], environment: env)
    #expect(resumed.code == 0, "\(resumed.stderr)")
    #expect(try graphDays([], env).values.reduce(0, +) == 5 * 250)
  }

  struct Logged: Decodable {
    let path: String
    let status: Int
  }
}
