import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

extension Ootd.GitHubCommand {
  /// `ootd github issues`: the user's open issues and pull requests as todos.
  struct Issues: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "issues",
      abstract: "Bring your open GitHub issues and pull requests in as todos.",
      discussion: """
        Brings the open issues and pull requests assigned to you, and the pull requests awaiting \
        your review, in as todos titled 'owner/repo#123 Title', for today (or the milestone's \
        due day, when later), linked to the project whose --repo it is. Re-running never \
        duplicates: a retitled issue's todo is retitled, a closed issue's todo is done on the \
        day it was closed, a transferred issue's todo follows it, and a deleted issue's todo is \
        left as it is with a note. 'ootd undo' takes a run back. Needs a token (GH_TOKEN, \
        GITHUB_TOKEN or gh).

        Priority comes from labels: 'priority: high', P0, P1, critical, urgent → high; \
        'priority: low', P3, P4, low → low; else mid. --priority-label LABEL=PRIORITY adds a \
        rule of your own (saved; it wins over the built-in ones; LABEL=default forgets it; \
        'ootd github status' shows your rules).

        --json prints the todos created or changed by this run (each with \
        "github": {"url", "state"}); a run that changes nothing prints [].

        Examples:
          ootd github issues
          ootd github issues --json
          ootd github issues --priority-label 'needs love=high'
          ootd sync --issues     # commits, then issues
          ootd done 12 --close-on-github
        """)

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Save a rule: issues labelled LABEL get PRIORITY (high, mid, low; 'default' forgets it).",
        valueName: "label=priority"))
    var priorityLabel: [String] = []

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    /// The `--priority-label` rules: a priority, or nil to forget the label's rule.
    func labelRules() throws -> [(label: String, priority: Priority?)] {
      try priorityLabel.map { text in
        if let separator = text.lastIndex(of: "="),
          text[text.index(after: separator)...].lowercased() == "default"
        {
          let label = text[..<separator].trimmingCharacters(in: .whitespaces)
          if !label.isEmpty { return (label, nil) }
        }
        guard let rule = LabelPriorityRules.parse(text) else {
          throw ValidationError(
            "--priority-label '\(text)': use LABEL=PRIORITY with high, mid, low or default, e.g. 'needs love=high'")
        }
        return (rule.label, rule.priority)
      }
    }

    func validate() throws { _ = try labelRules() }

    func run(in environment: AppEnvironment) async throws {
      let database = try global.openDatabase(environment)
      for rule in try labelRules() {
        try database.setLabelPriority(rule.label, rule.priority)
        if !output.json {
          environment.print(
            TerminalText.printable(
              rule.priority.map { "Saved: issues labelled '\(rule.label)' get \($0) priority." }
                ?? "Forgot your rule for the label '\(rule.label)': the built-in ones apply."))
        }
      }
      let result = try await IssueImportRun(database: database, environment: environment).run()
      if output.json {
        IssueImportRun.printConflicts(result, environment)
        let todos = (result.created + result.updated).sorted(by: Todo.listOrder)
        environment.output(
          try JSONOutput.encode(todos.map { JSONOutput.TodoJSON($0, environment) }) + "\n")
        return
      }
      IssueImportRun.printSummary(result, noColor: global.noColor, environment)
    }
  }
}

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
      open: open, checks: checks, rules: try database.labelPriorityRules(),
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
      environment.print("\(verb) \(todos.count) \(todos.count == 1 ? "todo" : "todos") from GitHub:")
      for line in renderer.changed(todos) { environment.print(line) }
    }
  }
}

/// `ootd done ID --close-on-github`: the todos are done here first (one change), then each
/// linked open issue gets one PATCH; a failed PATCH is reported, never resent, and the todo
/// stays done.
struct CloseOnGitHub {
  let options: TickOptions

  func run(in environment: AppEnvironment) async throws {
    let database = try options.global.openDatabase(environment)
    let ticked = try database.setDone(
      ids: options.ids, done: true, today: environment.today, now: environment.now)
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
      ? ticked : try database.markIssuesClosed(todoIDs: options.ids, now: environment.now)
    try printTodos(
      todos, verb: "Done", json: options.output.json, noColor: options.global.noColor, environment)
    if !failures.isEmpty {
      throw CLIError.gitHubFailed(
        TerminalText.printable(failures.joined(separator: "; "))
          + "; the \(options.ids.count == 1 ? "todo stays" : "todos stay") done here")
    }
  }
}
