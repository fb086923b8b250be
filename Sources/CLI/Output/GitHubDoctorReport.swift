import Core
import Foundation
import GitHubClient
import Storage
import Zone

/// What `ootd github doctor` finds: every known reason the graph can differ from GitHub's
/// profile, in plain lines (or JSON).
struct DoctorReport: JSONShape {
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

  /// `{"emails":{"linked","unlinked":[{"commits","email"}]},"hidden","login","problem",
  /// "repositories":[{"branch","fork","lastError","lastSync","repository"}],"searchGaps":
  /// [{"lastError","listedCommits","repository","searchCommits"}],"token":{"owner","scopes",
  /// "source"},"unconfirmed":[{"commits","repository"}]}`.
  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("emails")
    writer.beginObject()
    writer.key("linked")
    writer.strings(linkedEmails)
    writer.key("unlinked")
    writer.beginArray()
    for entry in unlinked {
      writer.beginObject()
      writer.key("commits")
      writer.integer(entry.commits)
      writer.key("email")
      writer.string(entry.email)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    writer.key("hidden")
    writer.strings(hidden)
    writer.key("login")
    writer.string(login)
    writer.key("problem")
    writer.string(problem)
    writer.key("repositories")
    writer.beginArray()
    for state in states {
      writer.beginObject()
      writer.key("branch")
      writer.string(state.branch)
      writer.key("fork")
      writer.bool(forks.contains(state.repository.description.lowercased()))
      state.writeLastMembers(to: &writer)
      writer.endObject()
    }
    writer.endArray()
    writer.key("searchGaps")
    writer.beginArray()
    for gap in gaps {
      writer.beginObject()
      writer.key("lastError")
      writer.string(gap.lastError)
      writer.key("listedCommits")
      writer.integer(gap.listedCommits)
      writer.key("repository")
      writer.string(gap.repository)
      writer.key("searchCommits")
      writer.integer(gap.searchCommits)
      writer.endObject()
    }
    writer.endArray()
    writer.key("token")
    writer.beginObject()
    writer.key("owner")
    writer.string(tokenOwner)
    writer.key("scopes")
    writer.strings(scopes)
    writer.key("source")
    writer.string(tokenSource)
    writer.endObject()
    writer.key("unconfirmed")
    writer.beginArray()
    for entry in unconfirmed {
      writer.beginObject()
      writer.key("commits")
      writer.integer(entry.commits)
      writer.key("repository")
      writer.string(entry.repository)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
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
