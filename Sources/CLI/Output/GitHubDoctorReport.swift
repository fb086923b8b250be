import Core
import Foundation
import GitHubClient
import Storage
import Zone

/// What `ootd github doctor` finds: every known reason the graph can differ from GitHub's
/// profile, in plain lines (or JSON).
struct DoctorReport: Encodable {
  struct UnlinkedEmail { var email: String; var commits: Int }
  struct SearchGap { var repository: String; var searchCommits: Int; var listedCommits: Int; var lastError: String? }
  /// A repository of another owner only the commit search found (no merged pull request of
  /// the user there): GitHub counts its commits only if the user is a collaborator or member,
  /// forked it, or opened an issue or pull request there, which ootd does not check.
  struct Unconfirmed { var repository: String; var commits: Int }

  var login: String?
  var tokenSource: String?
  var tokenOwner: String?
  /// `X-OAuth-Scopes`, or nil when GitHub sent none (fine-grained token) or nothing was asked.
  var scopes: [String]?
  var hidden: [String]
  /// The e-mails linked to the account, or nil when the token may not read them.
  var linkedEmails: [String]?
  var unlinked: [UnlinkedEmail]
  var gaps: [SearchGap]
  var unconfirmed: [Unconfirmed] = []
  var states: [RepositorySyncState]
  var forks: Set<String>
  var problem: String?
  var timeZone: any ZoneRules

  /// What a token's scopes hide, one sentence each.
  /// `emailsRead`: `GET /user/emails` answered, so the scopes hide no e-mail whatever they say
  /// (a classic token's scopes are not the only way in: a GitHub App or an enterprise server
  /// may allow it).
  static func hidden(token: Bool, scopes: [String]?, emailsRead: Bool = false) -> [String] {
    guard token else {
      return [
        "no token: only public repositories are read, and search allows 10 requests a minute"
      ]
    }
    guard let scopes else {
      return [
        "no OAuth scopes reported (a fine-grained token or an app): repositories outside the token's selection are invisible; check its repository access"
      ]
    }
    var lines: [String] = []
    if !scopes.contains("repo") {
      lines.append("no 'repo' scope: private repositories and their commits are not read")
    }
    if !scopes.contains(where: { ["read:org", "admin:org", "write:org"].contains($0) }) {
      lines.append(
        "no 'read:org' scope: repositories of organisations may be hidden, and organisations with SAML SSO need the token authorised for them")
    }
    if !emailsRead, !scopes.contains(where: { ["user", "user:email"].contains($0) }) {
      lines.append("no 'user:email' scope: the e-mails linked to the account cannot be checked")
    }
    return lines
  }

  /// E-mails of local commits GitHub would not link (noreply addresses are always linked).
  static func unlinked(local: [(email: String, commits: Int)], linked: [String]?) -> [UnlinkedEmail]
  {
    let known = Set((linked ?? []).map { $0.lowercased() })
    return local.filter {
      !known.contains($0.email) && !$0.email.hasSuffix("@users.noreply.github.com")
    }.map { UnlinkedEmail(email: $0.email, commits: $0.commits) }
  }

  enum CodingKeys: String, CodingKey {
    case login, token, hidden, emails, searchGaps, repositories, problem, unconfirmed
  }
  enum UnconfirmedKeys: String, CodingKey { case repository, commits }
  enum TokenKeys: String, CodingKey { case source, owner, scopes }
  enum EmailKeys: String, CodingKey { case linked, unlinked }
  enum UnlinkedKeys: String, CodingKey { case email, commits }
  enum GapKeys: String, CodingKey { case repository, searchCommits, listedCommits, lastError }
  enum RepoKeys: String, CodingKey { case repository, branch, fork, lastSync, lastError }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(login, forKey: .login)
    var t = c.nestedContainer(keyedBy: TokenKeys.self, forKey: .token)
    try t.encode(tokenSource, forKey: .source)
    try t.encode(tokenOwner, forKey: .owner)
    try t.encode(scopes, forKey: .scopes)
    try c.encode(hidden, forKey: .hidden)
    var e = c.nestedContainer(keyedBy: EmailKeys.self, forKey: .emails)
    try e.encode(linkedEmails, forKey: .linked)
    var u = e.nestedUnkeyedContainer(forKey: .unlinked)
    for entry in unlinked {
      var x = u.nestedContainer(keyedBy: UnlinkedKeys.self)
      try x.encode(entry.email, forKey: .email)
      try x.encode(entry.commits, forKey: .commits)
    }
    var g = c.nestedUnkeyedContainer(forKey: .searchGaps)
    for gap in gaps {
      var x = g.nestedContainer(keyedBy: GapKeys.self)
      try x.encode(gap.repository, forKey: .repository)
      try x.encode(gap.searchCommits, forKey: .searchCommits)
      try x.encode(gap.listedCommits, forKey: .listedCommits)
      try x.encode(gap.lastError, forKey: .lastError)
    }
    var o = c.nestedUnkeyedContainer(forKey: .unconfirmed)
    for entry in unconfirmed {
      var x = o.nestedContainer(keyedBy: UnconfirmedKeys.self)
      try x.encode(entry.repository, forKey: .repository)
      try x.encode(entry.commits, forKey: .commits)
    }
    var r = c.nestedUnkeyedContainer(forKey: .repositories)
    for state in states {
      var x = r.nestedContainer(keyedBy: RepoKeys.self)
      try x.encode(state.repository.description, forKey: .repository)
      try x.encode(state.branch, forKey: .branch)
      try x.encode(forks.contains(state.repository.description.lowercased()), forKey: .fork)
      try x.encode(state.lastSyncAt.map { Timestamp.string($0, .iso8601) }, forKey: .lastSync)
      try x.encode(state.lastError, forKey: .lastError)
    }
    try c.encode(problem, forKey: .problem)
  }

  func text() -> String {
    var lines: [String] = []
    let who = login.map { TerminalText.printable($0) } ?? "(no login)"
    if let source = tokenSource {
      let scopeText = scopes.map { $0.isEmpty ? "no scopes" : "scopes \($0.joined(separator: ", "))" }
        ?? "scopes not reported"
      lines.append("Token: from \(source)\(tokenOwner.map { ", owner \(TerminalText.printable($0))" } ?? ""); \(TerminalText.printable(scopeText)).")
    } else {
      lines.append("Token: none.")
    }
    if let problem { lines.append("Problem: \(TerminalText.printable(problem))") }
    for line in hidden { lines.append("Hidden: \(line).") }
    switch (linkedEmails, unlinked.isEmpty) {
    case (nil, _):
      lines.append("E-mails: the token cannot read the e-mails linked to \(who).")
    case (_, true):
      lines.append("E-mails: every author e-mail of local commits is linked to \(who).")
    case (_, false):
      break
    }
    for entry in unlinked {
      lines.append(
        "Not linked: \(TerminalText.printable(entry.email)) (\(group(entry.commits)) local commit\(entry.commits == 1 ? "" : "s")): GitHub does not count them; add it at https://github.com/settings/emails.")
    }
    for gap in gaps {
      var line =
        "Search found \(group(gap.searchCommits)) commit\(gap.searchCommits == 1 ? "" : "s") in \(TerminalText.printable(gap.repository)) but the listing read \(group(gap.listedCommits))"
      if let error = gap.lastError { line += " (\(TerminalText.printable(error)))" }
      lines.append(line + ".")
    }
    if gaps.isEmpty { lines.append("Search: no repository where search found more than the listing read.") }
    for entry in unconfirmed {
      lines.append(
        "Unconfirmed: \(TerminalText.printable(entry.repository)) (\(group(entry.commits)) commit\(entry.commits == 1 ? "" : "s"), found by search, no merged pull request of yours there): GitHub counts them only if you are a collaborator or member, forked it, or opened an issue or pull request there; ootd counts them.")
    }
    if states.isEmpty {
      lines.append("Repositories: none synced yet (ootd sync).")
    }
    for state in states {
      let name = state.repository.description + (state.branch.map { "@\($0)" } ?? "")
      var line = "Synced: \(TerminalText.printable(name)) "
      line += state.lastSyncAt.map { "last \(syncStamp($0, timeZone: timeZone))" } ?? "never completed"
      if forks.contains(state.repository.description.lowercased()) {
        line += " (a fork: commits only there do not count)"
      }
      if let error = state.lastError { line += "; \(TerminalText.printable(error))" }
      lines.append(line)
    }
    return lines.map { $0 + "\n" }.joined()
  }
}
