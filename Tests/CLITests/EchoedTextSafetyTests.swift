import Core
import Foundation
import GitHubSync
import Storage
import Testing

@testable import CLI

/// Names and server text echoed on standard output (not only in errors) never drive the
/// terminal. Project and repository names cannot hold controls (``Name``, ``RepositoryName``),
/// so the text comes from where the input rules do not reach: a sync error from a server, a
/// login stored in an edited database.
@Suite struct EchoedTextSafetyTests {
  static let attack = "\u{1B}]0;PWN\u{07}"

  @Test func githubStatus_showsServerTextAndStoredLoginAsSymbols() async throws {
    let harness = try Harness()
    do {
      let database = try AppDatabase.open(path: harness.databasePath)
      let repository = try #require(RepositoryName("mona/app"))
      try database.recordSyncError("gone \(Self.attack)", repository: repository, author: "mona")
      try database.setGitHubSetting(.login, to: "mona\(Self.attack)")
    }
    let status = await harness.run(["github", "status", "--offline"])
    #expect(status.code == 0, "\(status.stderr)")
    #expect(!status.stdout.contains("\u{1B}]"), "\(status.stdout)")
    #expect(!status.stdout.contains("\u{07}"), "\(status.stdout)")
    #expect(status.stdout.contains("gone ␛]0;PWN␇"), "\(status.stdout)")
    #expect(status.stdout.contains("mona␛]0;PWN␇ (saved)"), "\(status.stdout)")
    let login = await harness.run(["github", "login"])
    #expect(login.stdout == "mona␛]0;PWN␇\n")
  }

  @Test func syncSummary_showsTheLoginAsSymbols() {
    let summary = CommitSync.Summary(login: "mona\(Self.attack)")
    let line = Ootd.Sync.summaryLine(summary, cached: 0)
    #expect(!line.contains("\u{1B}"), "\(line)")
    #expect(line.contains("mona␛]0;PWN␇"), "\(line)")
  }

  @Test func projectAdd_rejectsAControlInTheName_soItsConfirmationIsPlain() async throws {
    let harness = try Harness()
    let added = await harness.run(["project", "add", "x\(Self.attack)"])
    #expect(added.code == 64, "\(added.stderr)")
    #expect(added.stdout.isEmpty)
    #expect(!added.stderr.contains("\u{1B}"), "\(added.stderr)")
  }
}
