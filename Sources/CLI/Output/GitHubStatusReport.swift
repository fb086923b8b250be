import Core
import Foundation
import GitHubClient
import Storage
import Zone

/// What `ootd github status` shows. Never the token: only where it came from.
struct StatusReport: JSONShape {
  let access: GitHubAccess
  let tokenOwner: String?
  let rateLimit: RateLimitStatus?
  let problem: String?
  let states: [RepositorySyncState]
  let counts: [String: Int]
  let timeZone: any ZoneRules
  let now: Date
  /// The user's saved label → priority rules for `ootd github issues` (over the built-in ones).
  let labelRules: LabelPriorityRules

  /// The user's rules, by label.
  var savedRules: [(label: String, priority: Priority)] {
    labelRules.custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// `{"apiURL","apiURLSource","issueLabelRules":[{"label","priority"}],"login","problem",
  /// "rateLimit":{"limit","remaining","reset"} or null,"repositories":[{"author","branch",
  /// "commits","lastError","lastSync","repository"}],"token","tokenOwner","tokenSource"}`.
  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("apiURL")
    writer.string(access.baseURL.absoluteString)
    writer.key("apiURLSource")
    writer.string(access.baseURLSource)
    writer.key("issueLabelRules")
    writer.beginArray()
    for rule in savedRules {
      writer.beginObject()
      writer.key("label")
      writer.string(rule.label)
      writer.key("priority")
      writer.string(rule.priority.rawValue)
      writer.endObject()
    }
    writer.endArray()
    writer.key("login")
    writer.string(access.savedLogin)
    writer.key("problem")
    writer.string(problem)
    writer.key("rateLimit")
    if let rateLimit {
      writer.beginObject()
      writer.key("limit")
      writer.integer(rateLimit.limit)
      writer.key("remaining")
      writer.integer(rateLimit.remaining)
      writer.key("reset")
      writer.string(Timestamp.string(rateLimit.reset, .iso8601))
      writer.endObject()
    } else {
      writer.null()
    }
    writer.key("repositories")
    writer.beginArray()
    for state in states {
      writer.beginObject()
      writer.key("author")
      writer.string(state.author)
      writer.key("branch")
      writer.string(state.branch)
      writer.key("commits")
      writer.integer(counts[state.repository.description.lowercased()] ?? 0)
      state.writeLastMembers(to: &writer)
      writer.endObject()
    }
    writer.endArray()
    writer.key("token")
    writer.bool(access.token != nil)
    writer.key("tokenOwner")
    writer.string(tokenOwner)
    writer.key("tokenSource")
    writer.string(access.tokenSource)
    writer.endObject()
  }

  func text(style: Style) -> String {
    var lines: [String] = []
    lines.append("\(style.bold("API")):         \(access.displayHost) (\(access.baseURLSource))")
    if let source = access.tokenSource {
      let owner = tokenOwner.map { ", authenticated as \(TerminalText.printable($0))" } ?? ""
      lines.append("\(style.bold("Token")):       from \(source)\(owner)")
    } else {
      lines.append(
        "\(style.bold("Token")):       none: public data only, 60 requests an hour (set GITHUB_TOKEN)"
      )
    }
    let login =
      access.savedLogin.map { "\(TerminalText.printable($0)) (saved)" }
      ?? tokenOwner.map { "\(TerminalText.printable($0)) (the token's owner)" }
      ?? "none: ootd github login LOGIN"
    lines.append("\(style.bold("Login")):       \(login)")
    if let rateLimit {
      let minutes = max(0, Int((rateLimit.reset.timeIntervalSince(now) / 60).rounded(.up)))
      lines.append(
        "\(style.bold("Rate limit")):  \(group(rateLimit.remaining))/\(group(rateLimit.limit)) left, resets at \(clock(rateLimit.reset)) (in \(minutes) min)"
      )
    } else if problem == nil {
      lines.append("\(style.bold("Rate limit")):  unknown (not checked, or none on this server)")
    }
    if let problem { lines.append("\(style.bold("Problem")):     \(TerminalText.printable(problem))") }
    let rules = savedRules.map { "'\($0.label)' → \($0.priority)" }.joined(separator: ", ")
    lines.append(
      "\(style.bold("Issue labels")): "
        + (rules.isEmpty
          ? "built-in priorities only (ootd github issues --priority-label LABEL=PRIORITY)"
          : TerminalText.printable(rules) + ", over the built-in ones"))
    if states.isEmpty {
      lines.append("Repositories: none synced yet (ootd sync)")
    } else {
      lines.append("\(style.bold("Repositories")):")
      let label = { (state: RepositorySyncState) in
        state.repository.description + (state.branch.map { "@\($0)" } ?? "")
      }
      let width = states.map { DisplayWidth.of(label($0)) }.max() ?? 0
      for state in states {
        let name = DisplayWidth.padRight(TerminalText.printable(label(state)), to: width)
        let commits = state.branch == nil ? counts[state.repository.description.lowercased()] ?? 0 : 0
        let when = state.lastSyncAt.map { "last sync \(stamp($0))" } ?? "never completed"
        var line = "  \(name)  \(DisplayWidth.padLeft(group(commits), to: 7)) commits  \(when)"
        if let error = state.lastError { line += "  " + style.red(TerminalText.printable(error)) }
        lines.append(line)
      }
    }
    return lines.map { $0 + "\n" }.joined()
  }

  private func clock(_ date: Date) -> String { clockTime(date, timeZone: timeZone) }

  private func stamp(_ date: Date) -> String { syncStamp(date, timeZone: timeZone) }
}

extension RepositorySyncState {
  /// The members `github status --json` and `github doctor --json` both end a repository with,
  /// in their sorted order: `lastError`, `lastSync` (ISO 8601, null before one completed) and
  /// `repository`.
  func writeLastMembers(to writer: inout JSONStreamWriter) {
    writer.key("lastError")
    writer.string(lastError)
    writer.key("lastSync")
    writer.string(lastSyncAt.map { Timestamp.string($0, .iso8601) })
    writer.key("repository")
    writer.string(repository.description)
  }
}
