import Core
import Foundation
import Zone

/// One import of the user's issues: what GitHub lists, what became of the linked issues it no
/// longer lists, then one change in the database (`github issues` and `sync --issues`). It knows
/// GitHub only through Core's ``IssueSource`` and the todos through ``IssueStore``; the CLI hands
/// it the client, the database, the clock and where its warnings go.
public struct IssueImportRun {
  public let source: any IssueSource
  public let store: any IssueStore
  /// The saved GitHub login, nil to ask GitHub whose token this is.
  public let savedLogin: String?
  public let now: Date
  public let today: Day
  public let timeZone: any ZoneRules
  /// Receives each warning line (`ootd: warning: …`), raw: the CLI makes it printable.
  public let warn: (String) -> Void

  public init(
    source: any IssueSource, store: any IssueStore, savedLogin: String?, now: Date, today: Day,
    timeZone: any ZoneRules, warn: @escaping (String) -> Void
  ) {
    self.source = source
    self.store = store
    self.savedLogin = savedLogin
    self.now = now
    self.today = today
    self.timeZone = timeZone
    self.warn = warn
  }

  /// Imports, warning about what could not be read (search missing, an issue gone).
  public func run() async throws -> IssueImport {
    let owner: String
    if let savedLogin {
      owner = savedLogin
    } else {
      owner = try await source.authenticatedUser()
    }

    var open: [GitHubIssue] = []
    var seen = Set<String>()
    for issue in try await source.assignedOpenIssues() where seen.insert(issue.url).inserted {
      open.append(issue)
    }
    if let reviews = try await source.pullRequestsAwaitingReview(by: owner) {
      for issue in reviews where seen.insert(issue.url).inserted { open.append(issue) }
    } else {
      warn(
        "ootd: warning: this GitHub has no issue search (404): pull requests awaiting your review are left out")
    }

    var checks: [IssueCheck] = []
    var goneNames: [String: IssueReference] = [:]
    for todo in try store.todosLinkedToOpenIssues() {
      guard let link = todo.github, !seen.contains(link.url),
        let reference = IssueReference(url: link.url)
      else { continue }
      switch try await source.issue(reference) {
      case .found(let issue): checks.append(.found(linkedURL: link.url, issue))
      case .gone:
        checks.append(.gone(linkedURL: link.url))
        goneNames[todo.uuid] = reference
      }
    }
    let result = try store.importIssues(
      open: open, checks: checks, rules: try store.labelPriorityRules(),
      today: today, timeZone: timeZone, now: now)
    for todo in result.updated {
      if let reference = goneNames[todo.uuid] {
        warn(
          "ootd: warning: \(reference) is gone from GitHub (deleted, or no longer visible): todo \(todo.id) is left as it is, with a note")
      }
    }
    return result
  }
}
