#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zone

// The two sides of an issue import, as the run (UseCases' `IssueImportRun`) sees them: GitHub
// (GitHubClient implements ``IssueSource``) and this machine's todos (Storage's database
// implements ``IssueStore``), with the values that pass between them.

/// What GitHub said about one issue asked for by number.
public enum IssueLookup: Hashable, Sendable {
  /// The issue as it is now (after following a transfer's redirect: its URL may differ).
  case found(GitHubIssue)
  /// 404 or 410: deleted, or not visible to the token.
  case gone
}

/// What GitHub said about an issue a todo is linked to, when it was not among the open ones.
public enum IssueCheck: Hashable, Sendable {
  /// The issue as it is now (closed, retitled, or moved: its URL differs from `linkedURL` after
  /// a transfer GitHub answered with a redirect).
  case found(linkedURL: String, GitHubIssue)
  /// GitHub answers 404 or 410: deleted, or no longer visible to the token.
  case gone(linkedURL: String)
}

/// What one `ootd github issues` run changed.
public struct IssueImport: Sendable {
  public init(created: [Todo] = [], updated: [Todo] = [], conflicts: [String] = []) {
    self.created = created
    self.updated = updated
    self.conflicts = conflicts
  }

  /// The todos created, in list order.
  public var created: [Todo] = []
  /// The todos changed (retitled, closed, reopened, moved, marked gone), in list order.
  public var updated: [Todo] = []
  /// Todos a closed issue would have left done on a day after today, mended by the fixed
  /// resolution (``TodoRules``): one sentence each.
  public var conflicts: [String] = []
}

/// GitHub's side of an issue import.
public protocol IssueSource: Sendable {
  /// The login the token belongs to.
  func authenticatedUser() async throws -> String
  /// The open issues and pull requests assigned to the user.
  func assignedOpenIssues() async throws -> [GitHubIssue]
  /// The open pull requests awaiting `login`'s review; nil when this GitHub has no issue search.
  func pullRequestsAwaitingReview(by login: String) async throws -> [GitHubIssue]?
  /// One issue as it is now.
  func issue(_ reference: IssueReference) async throws -> IssueLookup
}

/// This machine's side of an issue import: the linked todos and the one change that imports.
public protocol IssueStore {
  /// The todos linked to an issue whose state, when last seen, was open.
  func todosLinkedToOpenIssues() throws -> [Todo]
  /// The label rules that give an issue's todo its priority.
  func labelPriorityRules() throws -> LabelPriorityRules
  /// Imports `open` and the `checks` of linked issues no longer listed, as one change.
  func importIssues(
    open: [GitHubIssue], checks: [IssueCheck], rules: LabelPriorityRules, today: Day,
    timeZone: any ZoneRules, now: Date
  ) throws -> IssueImport
}
