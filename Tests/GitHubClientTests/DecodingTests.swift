import HTTP
import Core
import Foundation
import Testing

@testable import GitHubClient

@Suite("Decoding recorded GitHub responses")
struct DecodingTests {
  func commits(fromFixture name: String) async throws -> [Commit] {
    let harness = try Harness(
      transport: StubTransport(always: HTTPResponse(status: 200, body: try Fixture.data(name))))
    let (_, pages) = try await harness.listCommits()
    return pages.flatMap(\.commits)
  }

  @Test func commitsWithNullAuthor_decodeWithoutLogin() async throws {
    // hub4j/github-api CommitTest (2021): every top-level "author" is null.
    let commits = try await commits(fromFixture: "hub4j-commits-null-author.json")
    #expect(commits.count == 14)
    #expect(commits.allSatisfy { $0.authorLogin == nil })
    #expect(Set(commits.map(\.sha)).count == 14)
    #expect(
      commits.allSatisfy {
        $0.sha.count == 40 && !$0.authorName.isEmpty && !$0.subject.contains("\n")
      })
    #expect(commits.allSatisfy { $0.source == .gitHub(.example) })
  }

  @Test func commitsWithMergesAndSignatures_decode() async throws {
    // github3.py Repository_commits (2018): 25 commits, 8 merges, signed verification objects.
    let commits = try await commits(fromFixture: "github3py-commits-merges.json")
    #expect(commits.count == 25)
    #expect(commits.filter(\.isMerge).count == 8)
    let first = try #require(commits.first)
    #expect(first.parentCount == 2)
    #expect(first.subject == "Merge pull request #759 from sigmavirus24/add-py36")
    #expect(first.authorName == "Jesse Keating")
    #expect(first.authorLogin != nil)
    #expect(first.htmlURL?.host == "github.com")
    #expect(commits.allSatisfy { $0.authorDate.timeIntervalSince1970 > 1_300_000_000 })
  }

  @Test func commitFields_mapFromTheRightJSONFields() async throws {
    let body = #"""
      [{"sha":"0791cc7b","node_id":"C_1","commit":{"author":{"name":"Enrico","email":"e@example.com","date":"2023-08-28T18:27:45Z"},"committer":{"name":"GitHub","email":"noreply@github.com","date":"2023-08-29T01:02:03Z"},"message":"Fix the thing  \r\n\r\nLonger body","tree":{"sha":"t","url":"u"},"comment_count":0,"verification":{"verified":false,"reason":"unsigned","signature":null,"payload":null,"verified_at":null}},"url":"u","html_url":"https://github.com/O/R/commit/0791cc7b","author":{"login":"EnricoMi","id":44700269},"committer":null,"parents":[]}]
      """#
    let harness = try Harness(transport: StubTransport(always: .json(200, body)))
    let (_, pages) = try await harness.listCommits()
    let commit = try #require(pages.first?.commits.first)
    #expect(
      commit
        == Commit(
          sha: "0791cc7b", source: .gitHub(.example), authorLogin: "EnricoMi", authorName: "Enrico",
          authorEmail: "e@example.com", authorDate: Date(timeIntervalSince1970: 1_693_247_265),
          committerDate: Date(timeIntervalSince1970: 1_693_270_923), subject: "Fix the thing",
          htmlURL: URL(string: "https://github.com/O/R/commit/0791cc7b"), parentCount: 0))
  }

  @Test(arguments: [
    ("github3py-user-repos-2017.json", 2, false),
    ("octokitrb-user-repos-2024.json", 1, true),
  ])
  func repositoryListings_decode(_ fixture: String, _ count: Int, _ hasArchivedField: Bool)
    async throws
  {
    let harness = try Harness(
      transport: StubTransport(always: HTTPResponse(status: 200, body: try Fixture.data(fixture))))
    let repositories = try await harness.client.repositories(
      for: "someone", authenticatedAsLogin: true)
    #expect(repositories.count == count)
    let raw = try JSONSerialization.jsonObject(with: Fixture.data(fixture)) as! [[String: Any]]
    for (repository, json) in zip(repositories, raw) {
      #expect(repository.fullName.description == json["full_name"] as? String)
      #expect(repository.isPrivate == json["private"] as? Bool)
      #expect(repository.isFork == json["fork"] as? Bool)
      #expect(repository.defaultBranch == json["default_branch"] as? String)
      #expect((repository.pushedAt != nil) == (json["pushed_at"] as? String != nil))
      #expect((json["archived"] != nil) == hasArchivedField)
    }
  }

  @Test(arguments: [
    ("2023-08-28T18:27:45Z", 1_693_247_265.0),
    ("2011-01-20T00:00:00+00:00", 1_295_481_600.0),
    ("2025-10-02T08:11:07+02:00", 1_759_385_467.0),
    ("2025-10-02T08:11:07-0530", 1_759_412_467.0),
    ("2024-02-29T23:59:59.250Z", 1_709_251_199.25),
    ("1970-01-01T00:00:00Z", 0.0),
  ])
  func iso8601_parsesGitHubTimestamps(_ text: String, _ seconds: Double) {
    #expect(Timestamp.date(text, .iso8601) == Date(timeIntervalSince1970: seconds))
  }

  @Test(arguments: [
    "", "2023-08-28", "2023-08-28T18:27:45", "2023-13-01T00:00:00Z", "2023-08-28T18:27:45Zjunk",
    "2023-08-28T18:27:45+2",
  ])
  func iso8601_rejectsMalformedTimestamps(_ text: String) {
    #expect(Timestamp.date(text, .iso8601) == nil)
  }

  @Test func iso8601_formatsTheWayGitHubDocuments() {
    #expect(Timestamp.string(Date(timeIntervalSince1970: 1_704_067_200), .iso8601) == "2024-01-01T00:00:00Z")
    #expect(Timestamp.string(Date(timeIntervalSince1970: 1_693_247_265.9), .iso8601) == "2023-08-28T18:27:45Z")
    #expect(Timestamp.string(Date(timeIntervalSince1970: -1), .iso8601) == "1969-12-31T23:59:59Z")
  }

  @Test func subject_isTheFirstLineWithoutTrailingSpace() {
    #expect(Commit.subject(ofMessage: "One\nTwo") == "One")
    #expect(Commit.subject(ofMessage: "One  \r\nTwo") == "One")
    #expect(Commit.subject(ofMessage: "") == "")
  }

  @Test func rawHeaderBlock_keepsOnlyTheLastResponse() {
    let headers = HTTPHeaders(
      parsingRawBlock:
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/2 200\r\nETag: \"a\"\r\nlink: <https://h/n>;\r\n rel=\"next\"\r\nX-Empty:\r\n\r\n"
    )
    #expect(headers["etag"] == "\"a\"")
    #expect(headers["Link"] == "<https://h/n>; rel=\"next\"")
    #expect(headers["x-empty"] == "")
    #expect(headers.fields.count == 3)
  }
}
