import Core

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One issue or pull request of `GET /issues`, `GET /search/issues` or
/// `GET /repos/{o}/{r}/issues/{n}`, only the fields ootd reads.
struct IssueDTO: Decodable {
  struct Label: Decodable {
    let name: String?

    // GitHub sends label objects; very old payloads sent bare names.
    init(from decoder: any Decoder) throws {
      if let text = try? decoder.singleValueContainer().decode(String.self) {
        name = text
        return
      }
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decodeIfPresent(String.self, forKey: .name)
    }

    enum CodingKeys: String, CodingKey { case name }
  }

  struct Milestone: Decodable {
    let dueOn: String?
    enum CodingKeys: String, CodingKey { case dueOn = "due_on" }
  }

  struct Repository: Decodable {
    let fullName: String?
    enum CodingKeys: String, CodingKey { case fullName = "full_name" }
  }

  struct PullRequest: Decodable {}

  let number: Int
  let title: String
  let htmlURL: String
  let nodeID: String?
  let state: String
  let closedAt: String?
  let labels: [Label]?
  let milestone: Milestone?
  let pullRequest: PullRequest?
  let repository: Repository?
  let repositoryURL: String?

  enum CodingKeys: String, CodingKey {
    case number, title, state, labels, milestone, repository
    case htmlURL = "html_url"
    case nodeID = "node_id"
    case closedAt = "closed_at"
    case pullRequest = "pull_request"
    case repositoryURL = "repository_url"
  }

  func toCore() throws -> GitHubIssue {
    // The repository: from the embedded object (GET /issues), else from repository_url
    // (`…/repos/OWNER/NAME`, search results), else from the page URL.
    var repository = repository?.fullName.flatMap(RepositoryName.init)
    if repository == nil, let text = repositoryURL {
      let parts = text.split(separator: "/").map(String.init)
      if parts.count >= 2 {
        repository = RepositoryName(owner: parts[parts.count - 2], name: parts[parts.count - 1])
      }
    }
    if repository == nil { repository = IssueReference(url: htmlURL)?.repository }
    guard let repository else {
      throw GitHubError.invalidResponse("issue \(number) names no repository")
    }
    return GitHubIssue(
      url: htmlURL, nodeID: nodeID, repository: repository, number: number, title: title,
      isOpen: state.lowercased() != "closed", closedAt: closedAt.flatMap { Timestamp.date($0, .iso8601) },
      labels: (labels ?? []).compactMap(\.name),
      milestoneDueOn: milestone?.dueOn.flatMap { Timestamp.date($0, .iso8601) },
      isPullRequest: pullRequest != nil)
  }
}

/// `GET /search/issues`: the items of one page.
struct IssueSearchDTO: Decodable {
  let items: [IssueDTO]
}
