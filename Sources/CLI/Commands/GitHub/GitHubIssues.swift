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
        try database.settings.setLabelPriority(rule.label, rule.priority)
        if !output.json {
          environment.print(
            TerminalText.printable(
              rule.priority.map { "Saved: issues labelled '\(rule.label)' get \($0) priority." }
                ?? "Forgot your rule for the label '\(rule.label)': the built-in ones apply."))
        }
      }
      let result = try await IssueImportOutput.run(database, environment)
      if output.json {
        IssueImportOutput.printConflicts(result, environment)
        let todos = (result.created + result.updated).sorted(by: Todo.listOrder)
        JSONOutput.print(todos.map { JSONOutput.TodoJSON($0, environment) }, environment)
        return
      }
      IssueImportOutput.printSummary(result, noColor: global.noColor, environment)
    }
  }
}
