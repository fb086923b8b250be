import FakeGitHubSupport
import Foundation
import TestTags
import Testing

/// A `sync --since` stopped before its first request for repositories or commits is remembered:
/// the next plain sync covers the older window (issue 21, item 15). The sync stops itself at
/// the request (OOTD_FAULT, see Sources/CLI/Environment/DebugSeams.swift).
@Suite(.tags(.binary, .network), .serialized) struct SyncSinceRememberedTests {
  /// Commits of `gr/old` per day of January 2025, from `graph --json`.
  static func januaryCommits(_ env: [String: String]) throws -> Int {
    let graph = try BinaryTests.run(
      ["graph", "--from", "2025-01-01", "--to", "2025-01-31", "--json", "--tz", "UTC"], environment: env)
    #expect(graph.code == 0, "\(graph.stderr)")
    let json = try #require(JSONSerialization.jsonObject(with: Data(graph.stdout.utf8)) as? [String: Any])
    return try #require(json["days"] as? [[String: Any]]).compactMap { $0["count"] as? Int }.reduce(0, +)
  }

  @Test(arguments: [1, 2])
  func sinceStoppedAtItsFirstRequests_isFinishedByThePlainSyncs(stopAt request: Int) throws {
    let folder = try TemporaryFolder()
    let me = GitHubContributionsTests.me
    // 30 commits in January 2025, older than the last year a plain sync covers (the pinned
    // today is in November 2026), and a few recent ones.
    let old = FixtureCommit.series(30, email: me, start: "2025-01-01T10:00:00Z", hours: 24, first: 1)
    let recent = FixtureCommit.series(5, email: me, start: "2026-10-01T10:00:00Z", hours: 24, first: 100)
    let server = try FakeGitHubProcess([
      "--login", "gr", "--token", GitHubContributionsTests.token, "--link-email", "\(me)=gr",
      "--repo", "gr/old=\(try FixtureCommit.write(old + recent, "old.tsv", in: folder))",
    ])
    let env = GitHubContributionsTests().environment(server, folder)
    // The login is saved by a first plain sync: later ones know it before any request.
    #expect(try BinaryTests.run(["sync"], environment: env).code == 0)
    #expect(try Self.januaryCommits(env) == 0)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: BinaryTests.binary)
    process.arguments = ["sync", "--since", "2024-12-01"]
    process.environment = BinaryTests.pinned(env.merging(["OOTD_FAULT": "github-request:\(request)"]) { $1 })
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    #expect(try Self.januaryCommits(env) == 0, "the stopped sync stored nothing")

    // Two plain syncs later, January 2025 is there: the request was remembered.
    for _ in 0..<2 {
      let synced = try BinaryTests.run(["sync"], environment: env)
      #expect(synced.code == 0, "\(synced.stderr)")
    }
    #expect(try Self.januaryCommits(env) == 30)
  }
}
