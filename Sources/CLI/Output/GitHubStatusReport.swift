import Core
import Foundation
import GitHubClient
import Storage
import Zone

/// What `ootd github status` shows. Never the token: only where it came from.
struct StatusReport: Encodable {
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

  enum CodingKeys: String, CodingKey {
    case apiURL, apiURLSource, token, tokenSource, tokenOwner, login, rateLimit, problem
    case repositories, issueLabelRules
  }

  enum RuleKeys: String, CodingKey { case label, priority }

  /// The user's rules, by label.
  var savedRules: [(label: String, priority: Priority)] {
    labelRules.custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  enum RateKeys: String, CodingKey { case limit, remaining, reset }
  enum RepoKeys: String, CodingKey { case repository, branch, author, commits, lastSync, lastError }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(access.baseURL.absoluteString, forKey: .apiURL)
    try c.encode(access.baseURLSource, forKey: .apiURLSource)
    try c.encode(access.token != nil, forKey: .token)
    try c.encode(access.tokenSource, forKey: .tokenSource)
    try c.encode(tokenOwner, forKey: .tokenOwner)
    try c.encode(access.savedLogin, forKey: .login)
    if let rateLimit {
      var r = c.nestedContainer(keyedBy: RateKeys.self, forKey: .rateLimit)
      try r.encode(rateLimit.limit, forKey: .limit)
      try r.encode(rateLimit.remaining, forKey: .remaining)
      try r.encode(Timestamp.string(rateLimit.reset, .iso8601), forKey: .reset)
    } else {
      try c.encodeNil(forKey: .rateLimit)
    }
    try c.encode(problem, forKey: .problem)
    var list = c.nestedUnkeyedContainer(forKey: .repositories)
    for state in states {
      var r = list.nestedContainer(keyedBy: RepoKeys.self)
      try r.encode(state.repository.description, forKey: .repository)
      try r.encode(state.branch, forKey: .branch)
      try r.encode(state.author, forKey: .author)
      try r.encode(counts[state.repository.description.lowercased()] ?? 0, forKey: .commits)
      try r.encode(
        state.lastSyncAt.map { Timestamp.string($0, .iso8601) }, forKey: .lastSync)
      try r.encode(state.lastError, forKey: .lastError)
    }
    var rules = c.nestedUnkeyedContainer(forKey: .issueLabelRules)
    for rule in savedRules {
      var r = rules.nestedContainer(keyedBy: RuleKeys.self)
      try r.encode(rule.label, forKey: .label)
      try r.encode(rule.priority.rawValue, forKey: .priority)
    }
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
