#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import Zone

/// An issue or pull request as GitHub lists it, reduced to what a todo needs.
public struct GitHubIssue: Hashable, Sendable {
  /// The issue's page (`html_url`): the link a todo remembers, and the name of its uuid.
  public var url: String
  /// GitHub's global node id, when sent.
  public var nodeID: String?
  /// The repository it belongs to.
  public var repository: RepositoryName
  /// Its number in the repository.
  public var number: Int
  /// Its title on GitHub.
  public var title: String
  /// Whether it is open (else closed; a merged pull request is closed).
  public var isOpen: Bool
  /// When it was closed, if it is.
  public var closedAt: Date?
  /// Its label names.
  public var labels: [String]
  /// Its milestone's due date, if it has a milestone with one.
  public var milestoneDueOn: Date?
  /// Whether it is a pull request.
  public var isPullRequest: Bool

  /// Creates an issue value.
  public init(
    url: String, nodeID: String? = nil, repository: RepositoryName, number: Int, title: String,
    isOpen: Bool = true, closedAt: Date? = nil, labels: [String] = [],
    milestoneDueOn: Date? = nil, isPullRequest: Bool = false
  ) {
    self.url = url
    self.nodeID = nodeID
    self.repository = repository
    self.number = number
    self.title = title
    self.isOpen = isOpen
    self.closedAt = closedAt
    self.labels = labels
    self.milestoneDueOn = milestoneDueOn
    self.isPullRequest = isPullRequest
  }
}

/// Where an issue lives, read back from its page URL: `…/OWNER/REPO/issues/N` or
/// `…/OWNER/REPO/pull/N` (github.com, GitHub Enterprise, or a test server).
public struct IssueReference: Hashable, Sendable, CustomStringConvertible {
  /// The repository.
  public var repository: RepositoryName
  /// The issue's number.
  public var number: Int

  /// Creates a reference.
  public init(repository: RepositoryName, number: Int) {
    self.repository = repository
    self.number = number
  }

  /// Parses an issue's page URL; nil when it is not one.
  public init?(url: String) {
    let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
    let parts = path.split(separator: "/").map(String.init)
    guard parts.count >= 4, let number = Int(parts[parts.count - 1]), number > 0,
      ["issues", "pull"].contains(parts[parts.count - 2]),
      let repository = RepositoryName(owner: parts[parts.count - 4], name: parts[parts.count - 3])
    else { return nil }
    self.init(repository: repository, number: number)
  }

  /// `owner/repo#123`.
  public var description: String { "\(repository)#\(number)" }
}

/// How a todo is linked to a GitHub issue: its page and its state when last seen.
public struct GitHubLink: Hashable, Sendable {
  /// The issue's page URL.
  public var url: String
  /// Whether the issue was open when ootd last saw it.
  public var isOpen: Bool

  /// Creates a link.
  public init(url: String, isOpen: Bool) {
    self.url = url
    self.isOpen = isOpen
  }

  /// `open` or `closed`, as GitHub spells the state.
  public var state: String { isOpen ? "open" : "closed" }
}

/// What ticked a done todo.
public enum DoneBy: String, Hashable, Sendable, CaseIterable {
  /// A command (`ootd done`, `add --done`, an import).
  case manual
  /// A sync found a commit on the todo's day (a block's `commits` rule).
  case commits
  /// The linked issue was closed on GitHub.
  case github
}

/// The rules that turn GitHub issues into todos: title, priority, day and identity.
public enum IssueTodoRule {
  /// `owner/repo#123 Title`, cut to the longest title a todo may have.
  public static func title(_ issue: GitHubIssue) -> String {
    let text = "\(issue.repository)#\(issue.number) " + issue.title.split(whereSeparator: \.isNewline)
      .joined(separator: " ")
    let trimmed = trimmingWhiteSpace(text)
    return trimmed.count <= Title.maximumLength
      ? trimmed : String(trimmed.prefix(Title.maximumLength - 1)) + "…"
  }

  /// The day a new todo for `issue` is planned for: its milestone's due day in `timeZone` when
  /// that is after `today`, else `today` (a past due day would only make it overdue at once);
  /// nil, the backlog, without a milestone due day (an issue is not planned work until then).
  public static func day(_ issue: GitHubIssue, today: Day, timeZone: any ZoneRules) -> Day? {
    guard let due = issue.milestoneDueOn else { return nil }
    return max(today, Day(due, in: timeZone))
  }

  /// The uuid of the todo for the issue at `url`: a name-based (version 5) uuid of the URL in
  /// RFC 4122's URL namespace, so two machines importing one issue create the same todo.
  public static func uuid(url: String) -> String {
    RowID.nameBased(url, namespace: urlNamespace)
  }

  /// RFC 4122's namespace for URLs, 6ba7b811-9dad-11d1-80b4-00c04fd430c8.
  static let urlNamespace: [UInt8] = [
    0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
  ]
}

/// Which labels make an issue's todo high or low priority.
///
/// The user's rules (`ootd github issues --priority-label LABEL=PRIORITY`) come first, matched
/// by the whole label name in any case; then the built-in ones: `priority: high` (also
/// `priority/high`, `priority-high`, `high priority`), `P0`, `P1`, `critical`, `urgent` → high;
/// `priority: low` (and the same spellings), `P3`, `P4`, `low` → low. An issue with labels of
/// several priorities takes the highest; one without any is mid.
public struct LabelPriorityRules: Hashable, Sendable {
  /// The user's rules: a lowercased label name → its priority.
  public var custom: [String: Priority]

  /// Creates rules with the user's additions.
  public init(custom: [String: Priority] = [:]) {
    self.custom = Dictionary(custom.map { (Self.key($0.key), $0.value) }) { $1 }
  }

  /// The priority of a todo for an issue with `labels`.
  public func priority(labels: [String]) -> Priority {
    labels.compactMap(priority(label:)).min() ?? .mid
  }

  /// The priority one label asks for, or nil when it names none.
  public func priority(label: String) -> Priority? {
    let key = Self.key(label)
    if let custom = custom[key] { return custom }
    return Self.builtIn[key]
  }

  /// A label name compared: lowercased, white space trimmed, inner runs of spaces made one.
  static func key(_ label: String) -> String {
    trimmingWhiteSpace(label).lowercased().split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
  }

  /// The built-in rules.
  static let builtIn: [String: Priority] = {
    var rules: [String: Priority] = [
      "p0": .high, "p1": .high, "critical": .high, "urgent": .high, "high priority": .high,
      "p3": .low, "p4": .low, "low": .low, "low priority": .low,
    ]
    for (word, priority) in [("high", Priority.high), ("low", .low)] {
      for separator in [": ", ":", "/", "-", " "] { rules["priority\(separator)\(word)"] = priority }
    }
    return rules
  }()

  /// Parses `LABEL=PRIORITY` (`high`, `mid` or `low`; the last `=` separates, so a label may
  /// hold `=`); nil when it is not that shape.
  public static func parse(_ text: String) -> (label: String, priority: Priority)? {
    guard let separator = text.lastIndex(of: "=") else { return nil }
    let label = trimmingWhiteSpace(String(text[..<separator]))
    guard !label.isEmpty,
      let priority = try? Priority(
        parsing: trimmingWhiteSpace(String(text[text.index(after: separator)...])))
    else { return nil }
    return (label, priority)
  }
}

/// What a block's todos are ticked by, besides the user.
public struct DoneRule: Hashable, Sendable, CustomStringConvertible {
  /// Only commits in this repository count; nil: any.
  public var repository: RepositoryName?

  /// A rule "at least one commit authored on the todo's day" (in `repository`, when given).
  public init(repository: RepositoryName? = nil) {
    self.repository = repository
  }

  /// The name stored and shown: always `commits` (the only rule so far).
  public static let commits = "commits"

  /// `commits`, or `commits in OWNER/NAME`.
  public var description: String {
    repository.map { "commits in \($0)" } ?? "commits"
  }
}
