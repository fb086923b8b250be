import Core

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One element of `GET /repos/{owner}/{repo}/commits`, only the fields ootd reads.
///
/// Everything GitHub documents as nullable or that old responses lack is optional here:
/// the top-level `author` (null when the e-mail is linked to no account), `html_url`,
/// `parents`; `commit.verification` is not read at all, so any shape of it decodes.
struct CommitDTO: Decodable {
  struct Account: Decodable {
    let login: String?
  }
  struct Signature: Decodable {
    let name: String?
    let email: String?
    let date: String?
  }
  struct Details: Decodable {
    let author: Signature?
    let committer: Signature?
    let message: String?
  }
  struct Parent: Decodable {
    let sha: String?
  }

  let sha: String
  let commit: Details
  let author: Account?
  let htmlURL: String?
  let parents: [Parent]?

  enum CodingKeys: String, CodingKey {
    case sha, commit, author, parents
    case htmlURL = "html_url"
  }

  func toCore(source: CommitSource) throws -> Commit {
    guard let authorDateText = commit.author?.date ?? commit.committer?.date,
      let authorDate = Timestamp.date(authorDateText, .iso8601)
    else { throw GitHubError.invalidResponse("commit \(sha) has no readable author date") }
    let committerDate = commit.committer?.date.flatMap { Timestamp.date($0, .iso8601) } ?? authorDate
    return Commit(
      sha: sha,
      source: source,
      authorLogin: author?.login.map(StoredText.replacingNUL),
      authorName: StoredText.replacingNUL(commit.author?.name ?? ""),
      authorEmail: StoredText.replacingNUL(commit.author?.email ?? ""),
      authorDate: authorDate,
      committerDate: committerDate,
      subject: StoredText.replacingNUL(Commit.subject(ofMessage: commit.message ?? "")),
      htmlURL: htmlURL.flatMap { URL(string: $0) },
      parentCount: parents?.count ?? 0
    )
  }
}
