import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage
import UseCases

/// What the CLI adds to an issue import (UseCases' ``IssueImportRun``): the token check, the
/// client, where its warnings go, and the summary it prints.
enum IssueImportOutput {
  /// Imports the user's issues into `database`: a missing token is an error; GitHub failures
  /// that stop the run throw; warnings go to standard error, made printable.
  static func run(
    _ database: AppDatabase, _ environment: AppEnvironment, client given: GitHubClient? = nil
  ) async throws -> IssueImport {
    let access = try GitHubAccess.resolve(environment, database: database)
    guard access.token != nil else {
      throw CLIError.gitHubFailed(
        "reading your issues needs a GitHub token: set GH_TOKEN or GITHUB_TOKEN, or log in with 'gh auth login'")
    }
    return try await IssueImportRun(
      source: try given ?? access.client(environment), store: database,
      savedLogin: access.savedLogin, now: environment.now, today: environment.today,
      timeZone: environment.timeZone,
      warn: { environment.printError(TerminalText.printable($0)) }
    ).run()
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
    let waiting = result.created.count(where: \.isInBacklog)
    if waiting > 0 {
      environment.print(renderer.style.dim(
        "\(counted(waiting, "new todo")) without a milestone day \(waiting == 1 ? "waits" : "wait") in the backlog ('ootd backlog'; 'ootd plan ID' puts one on a day)"))
    }
  }
}
