import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

/// `ootd done ID --close-on-github`: the todos are done here first (one change), then each
/// linked open issue gets one PATCH; a failed PATCH is reported, never resent, and the todo
/// stays done.
struct CloseOnGitHub {
  let options: TickOptions

  func run(in environment: AppEnvironment) async throws {
    let database = try options.global.openDatabase(environment)
    let ids = try options.todos.resolved(in: database)
    let ticked = try database.setDone(
      ids: ids, done: true, today: environment.today, now: environment.now)
    var failures: [String] = []
    var closed: [Int64] = []
    for todo in ticked where todo.github == nil {
      environment.printError("ootd: todo \(todo.id) has no GitHub issue: it is done here only")
    }
    let linked = ticked.filter { $0.github?.isOpen == true }
    if !linked.isEmpty {
      let access = try GitHubAccess.resolve(environment, database: database)
      if access.token == nil {
        failures.append("closing issues needs a GitHub token (GH_TOKEN, GITHUB_TOKEN or gh)")
      } else {
        let client = try access.client(environment, rateLimitWaitBound: 0, maxAttempts: 1)
        for todo in linked {
          guard let url = todo.github?.url, let reference = IssueReference(url: url) else { continue }
          do {
            if try await client.closeIssue(reference) != nil {
              closed.append(todo.id)
            } else {
              failures.append("\(reference) is gone from GitHub (deleted, or no access)")
            }
          } catch let error as GitHubWriteUncertain {
            failures.append(error.description)
          } catch let error as GitHubError {
            failures.append("could not close \(reference): \(error.description)")
          }
        }
      }
    }
    let todos =
      closed.isEmpty
      ? ticked : try database.markIssuesClosed(todoIDs: ids, now: environment.now)
    try printTodos(
      todos, verb: "Done", json: options.output.json, noColor: options.global.noColor, environment)
    if !failures.isEmpty {
      throw CLIError.gitHubFailed(
        TerminalText.printable(failures.joined(separator: "; "))
          + "; the \(ids.count == 1 ? "todo stays" : "todos stay") done here")
    }
  }
}
