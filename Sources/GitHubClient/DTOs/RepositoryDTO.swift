import Core

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One element of `GET /user/repos` or `GET /users/{login}/repos`, only the fields ootd reads.
///
/// `archived` is missing from responses recorded before 2017, so it defaults to false.
struct RepositoryDTO: Decodable {
  struct Owner: Decodable {
    let login: String
  }

  let name: String
  let fullName: String?
  let owner: Owner
  let isPrivate: Bool?
  let fork: Bool?
  let defaultBranch: String?
  let pushedAt: String?
  let archived: Bool?
  let hasPages: Bool?

  enum CodingKeys: String, CodingKey {
    case name, owner, fork, archived
    case hasPages = "has_pages"
    case fullName = "full_name"
    case isPrivate = "private"
    case defaultBranch = "default_branch"
    case pushedAt = "pushed_at"
  }

  func toCore() throws -> GitHubRepository {
    guard let repositoryName = RepositoryName(owner: owner.login, name: name) else {
      throw GitHubError.invalidResponse("invalid repository name \(owner.login)/\(name)")
    }
    return GitHubRepository(
      fullName: repositoryName,
      isPrivate: isPrivate ?? false,
      isFork: fork ?? false,
      defaultBranch: defaultBranch ?? "main",
      pushedAt: pushedAt.flatMap { Timestamp.date($0, .iso8601) },
      isArchived: archived ?? false,
      hasPages: hasPages ?? false
    )
  }
}

/// `GET /user`: only the login is needed.
struct UserDTO: Decodable {
  let login: String
}

/// The JSON error body GitHub sends with most 4xx/5xx answers.
struct ErrorBodyDTO: Decodable {
  let message: String?
  let documentationURL: String?

  enum CodingKeys: String, CodingKey {
    case message
    case documentationURL = "documentation_url"
  }
}

/// `GET /rate_limit`: the `core` bucket is what listing commits spends.
struct RateLimitDTO: Decodable {
  struct Bucket: Decodable {
    let limit: Int
    let remaining: Int
    let reset: Double
    let used: Int?
  }
  struct Resources: Decodable {
    let core: Bucket?
  }
  let resources: Resources?
  let rate: Bucket?
}

/// One element of `GET /user/emails`.
struct EmailDTO: Decodable {
  let email: String
}

/// `GET /search/commits` and `GET /search/issues`: the count, whether the search timed out,
/// and the items, of which only the repository matters.
struct SearchDTO<Item: Decodable>: Decodable {
  let totalCount: Int
  let incompleteResults: Bool?
  let items: [Item]

  enum CodingKeys: String, CodingKey {
    case items
    case totalCount = "total_count"
    case incompleteResults = "incomplete_results"
  }
}

/// A commit search result: its SHA and the repository holding it.
struct SearchCommitDTO: Decodable {
  let sha: String?
  let repository: RepositoryDTO?
}

/// An issue search result: the pull request's repository, as an API URL.
struct SearchIssueDTO: Decodable {
  let repositoryURL: String?

  enum CodingKeys: String, CodingKey {
    case repositoryURL = "repository_url"
  }
}
