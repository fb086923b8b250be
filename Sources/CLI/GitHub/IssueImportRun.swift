import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

/// One import of the user's issues: what GitHub lists, what became of the linked issues it no
/// longer lists, then one change in the database. Shared by `github issues` and `sync --issues`.
struct IssueImportRun {
  let database: AppDatabase
  let environment: AppEnvironment

  /// Imports, printing a warning line for what could not be read (search missing, an issue
  /// gone). Throws for a missing token and for GitHub failures that stop the run.
  func run(client given: GitHubClient? = nil) async throws -> IssueImport {
    let access = try GitHubAccess.resolve(environment, database: database)
    guard access.token != nil else {
      throw CLIError.gitHubFailed(
        "reading your issues needs a GitHub token: set GH_TOKEN or GITHUB_TOKEN, or log in with 'gh auth login'")
    }
    let client = try given ?? access.client(environment)
    let owner: String
    if let saved = access.savedLogin {
      owner = saved
    } else {
      owner = try await client.authenticatedUser()
    }

    var open: [GitHubIssue] = []
    var seen = Set<String>()
    for issue in try await client.assignedOpenIssues() where seen.insert(issue.url).inserted {
      open.append(issue)
    }
    if let reviews = try await client.pullRequestsAwaitingReview(by: owner) {
      for issue in reviews where seen.insert(issue.url).inserted { open.append(issue) }
    } else {
      environment.printError(
        "ootd: warning: this GitHub has no issue search (404): pull requests awaiting your review are left out")
    }

    var checks: [IssueCheck] = []
    var goneNames: [String: IssueReference] = [:]
    for todo in try database.todosLinkedToOpenIssues() {
      guard let link = todo.github, !seen.contains(link.url),
        let reference = IssueReference(url: link.url)
      else { continue }
      switch try await client.issue(reference) {
      case .found(let issue): checks.append(.found(linkedURL: link.url, issue))
      case .gone:
        checks.append(.gone(linkedURL: link.url))
        goneNames[todo.uuid] = reference
      }
    }
    let result = try database.importIssues(
      open: open, checks: checks, rules: try database.settings.labelPriorityRules(),
      today: environment.today, timeZone: environment.timeZone, now: environment.now)
    for todo in result.updated {
      if let reference = goneNames[todo.uuid] {
        environment.printError(
          TerminalText.printable(
            "ootd: warning: \(reference) is gone from GitHub (deleted, or no longer visible): todo \(todo.id) is left as it is, with a note"))
      }
    }
    return result
  }

  /// One line on standard error per todo the rules mended (``IssueImport/conflicts``).
  static func printConflicts(_ result: IssueImport, _ environment: AppEnvironment) {
    for sentence in result.conflicts {
      environment.printError("ootd: conflict: " + TerminalText.printable(sentence))
    }
  }

  /// `Added 2 todos from GitHub:` and the todos, `Updated 1 todo from GitHub:` …, or one line
  /// saying nothing changed.
  static func printSummary(_ result: IssueImport, noColor: Bool, _ environment: AppEnvironment) {
    printConflicts(result, environment)
    if result.created.isEmpty && result.updated.isEmpty {
      environment.print("Your GitHub issues are up to date: no todo added or changed.")
      return
    }
    let renderer = TodoRenderer(environment, noColor: noColor)
    for (verb, todos) in [("Added", result.created), ("Updated", result.updated)] where !todos.isEmpty {
      environment.print("\(verb) \(counted(todos.count, "todo")) from GitHub:")
      for line in renderer.changed(todos) { environment.print(line) }
    }
  }
}
