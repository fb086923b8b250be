import Core
import Foundation
import TestTags
import Testing

@testable import GitHubClient

/// What a server sends is bounded and kept: a huge body stops the transfer, and odd commit text
/// (NUL, a lone surrogate, a giant subject) is stored, cut or repaired, never lost with its page.
@Suite("Unbounded and odd input from GitHub", .tags(.network), .serialized)
struct UnboundedInputTests {
  static let nul = String(repeating: "1", count: 40)
  static let lone = String(repeating: "2", count: 40)
  static let long = String(repeating: "3", count: 40)
  static let plain = String(repeating: "4", count: 40)

  /// Four commits of one repository, newest first, in the fake server's TSV format.
  static func history(in folder: URL) throws -> URL {
    let lines = [nul, lone, long, plain].enumerated().map { index, sha in
      let date = "2025-03-0\(4 - index)T10:00:00Z"
      return [sha, "", "Gr", "gr@pierlis.com", date, "Gr", "gr@pierlis.com", date, "plain"]
        .joined(separator: "\t")
    }
    let url = folder.appendingPathComponent("odd-\(UUID().uuidString).tsv")
    try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test func bodyLargerThan32MiB_stopsTheTransfer_withAClearError_andNoRetry() async throws {
    // Given: /user answers 200 with 40 MiB and no Content-Length
    let server = try FakeGitHubServer(["--login", "mona", "--fault", "huge@1:40"])
    defer { server.stop() }
    // When / Then
    await #expect {
      _ = try await server.client().authenticatedUser()
    } throws: { error in
      guard case GitHubError.invalidResponse(let reason) = error else { return false }
      return reason == "the response body is larger than 32 MiB"
    }
    #expect(try server.log().map(\.path) == ["/user"], "no retry")
  }

  @Test func bodyJustUnderTheCap_isRead() async throws {
    // A 31 MiB body is read whole (it is no user, hence the decoding error, not a size error).
    let server = try FakeGitHubServer(["--login", "mona", "--fault", "huge@1:31"])
    defer { server.stop() }
    await #expect {
      _ = try await server.client().authenticatedUser()
    } throws: { error in
      guard case GitHubError.invalidResponse(let reason) = error else { return false }
      return reason.hasPrefix("the user is not the JSON expected")
    }
  }

  @Test func oddCommitText_isKept_cut_orRepaired_andTheWholePageSyncs() async throws {
    // Given: a message with a NUL, one with a lone UTF-16 surrogate, one 5,000-character line
    let history = try Self.history(in: FileManager.default.temporaryDirectory)
    defer { try? FileManager.default.removeItem(at: history) }
    let server = try FakeGitHubServer([
      "--repo", "groue/GRDB.swift=\(history.path)",
      "--message", #"\#(Self.nul)="fix\u0000 the rest stays\n\nbody""#,
      "--message", #"\#(Self.lone)="bad \ud800 text, \ud83d\ude00 fine, \udc00 bad""#,
      "--message", "\(Self.long)=\"\(String(repeating: "é", count: 5_000))\"",
    ])
    defer { server.stop() }
    // When
    var commits: [Commit] = []
    _ = try await server.client().commits(CommitQuery(repository: grdb)) { commits += $0.commits }
    // Then
    let subjects = Dictionary(uniqueKeysWithValues: commits.map { ($0.sha, $0.subject) })
    #expect(commits.count == 4)
    #expect(subjects[Self.nul] == "fix\u{FFFD} the rest stays")
    #expect(subjects[Self.lone] == "bad \u{FFFD} text, 😀 fine, \u{FFFD} bad")
    #expect(subjects[Self.long] == String(repeating: "é", count: 1_000))
    #expect(subjects[Self.plain] == "plain")
  }

  @Test func lenientJSON_repairsOnlyWhatIsInvalid() throws {
    let json = #"["\ud800", "\\ud800", "\ud83d\ude00", "\udc00\n", "ok"]"#
    let repaired = try #require(LenientJSON.repaired(Data(json.utf8)))
    #expect(
      String(decoding: repaired, as: UTF8.self)
        == #"["\uFFFD", "\\ud800", "\ud83d\ude00", "\uFFFD\n", "ok"]"#)
    #expect(LenientJSON.repaired(Data(#"["ok", "\n"]"#.utf8)) == nil)
    let notUTF8 = Data([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D])  // ["a\xFF"]
    #expect(
      try JSONDecoder().decode([String].self, from: #require(LenientJSON.repaired(notUTF8)))
        == ["a\u{FFFD}"])
  }
}
