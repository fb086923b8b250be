import Core
import Foundation
import Storage

/// How the CLI reaches the CalDAV collection (issue 27): the URL's checks, the password (never
/// stored, printed or logged) and the client.
enum CalDAVAccess {
  /// The variable holding the password.
  static let passwordVariable = "OOTD_CALDAV_PASSWORD"

  /// A collection URL as `caldav set` takes it: `https://`, or `http://` on a loopback host
  /// only; a host; no user name or password in it (`--user` and the password's sources say
  /// them). Throws a usage error otherwise.
  static func checked(_ text: String) throws -> URL {
    guard text.count <= 2048, !text.unicodeScalars.contains(where: { ControlCharacters.isControl($0) || $0 == " " }),
      let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
    else {
      throw CLIError.invalidValue("'\(text)' is not a CalDAV collection URL (e.g. https://dav.example.com/alice/tasks/)")
    }
    guard url.user == nil && url.password == nil else {
      throw CLIError.invalidValue("a CalDAV URL must not hold a user name or password: pass --user, and the password in \(passwordVariable), ~/.netrc or at the prompt")
    }
    switch scheme {
    case "https": break
    case "http":
      guard isLoopback(host) else {
        throw CLIError.invalidValue("plain http:// is only for a server on this machine (127.0.0.1, ::1, localhost): use https://")
      }
    default:
      throw CLIError.invalidValue("'\(scheme)://' is not a CalDAV URL: use https:// (or http:// on this machine)")
    }
    return url
  }

  /// Whether `host` names this machine.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// The password and the user for `url`: `OOTD_CALDAV_PASSWORD`, else `~/.netrc`'s entry for
  /// the host (and the user, when one is saved; its login names the user when none is), else
  /// asked on the terminal without echo. None, and no terminal to ask on: a one-line error
  /// (exit 64, as `remote` without its passphrase: the invocation lacks what it needs).
  static func credentials(_ environment: AppEnvironment, url: URL, user: String?) throws -> (user: String?, password: String) {
    if let value = environment.variables[passwordVariable], !value.isEmpty { return (user, value) }
    if let home = environment.variables["HOME"], !home.isEmpty, let host = url.host,
      let entry = netrc(atPath: home + "/.netrc", host: host, user: user)
    {
      return (user ?? entry.login, entry.password)
    }
    guard environment.stdinIsTerminal else {
      throw CLIError.invalidValue(
        "no CalDAV password: set \(passwordVariable), add 'machine \(url.host ?? "HOST") login \(user ?? "USER") password …' to ~/.netrc, or run on a terminal to be asked")
    }
    let who = user.map { "\($0) at " } ?? ""
    guard let answer = environment.askSecret("CalDAV password for \(who)\(url.host ?? ""): "), !answer.isEmpty else {
      throw CLIError.cancelled
    }
    return (user, answer)
  }

  /// The `~/.netrc` entry for `host` (and `user`, when given): `machine HOST login USER
  /// password P`, or the `default` entry. Nil when the file is missing, unreadable or over
  /// 64 KiB, or has no such entry.
  static func netrc(atPath path: String, host: String, user: String?) -> (login: String?, password: String)? {
    guard let data = FileManager.default.contents(atPath: path), data.count <= 64 << 10 else { return nil }
    return netrc(String(decoding: data, as: UTF8.self), host: host, user: user)
  }

  /// The entry of netrc `text` for `host` (see ``netrc(atPath:host:user:)``).
  static func netrc(_ text: String, host: String, user: String?) -> (login: String?, password: String)? {
    var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)[...]
    var entries: [(machine: String?, login: String?, password: String?)] = []
    while let token = tokens.popFirst() {
      switch token {
      case "machine": entries.append((tokens.popFirst() ?? "", nil, nil))
      case "default": entries.append((nil, nil, nil))
      case "login", "password", "account":
        let value = tokens.popFirst()
        guard !entries.isEmpty else { continue }
        if token == "login" { entries[entries.count - 1].login = value }
        if token == "password" { entries[entries.count - 1].password = value }
      case "macdef":
        // A macro runs to the next blank line: what follows is not an entry.
        return pick(entries, host: host, user: user)
      default: continue
      }
    }
    return pick(entries, host: host, user: user)
  }

  private static func pick(
    _ entries: [(machine: String?, login: String?, password: String?)], host: String, user: String?
  ) -> (login: String?, password: String)? {
    let matching = entries.filter { entry in
      (entry.machine == nil || entry.machine?.lowercased() == host.lowercased())
        && (user == nil || entry.login == nil || entry.login == user)
    }
    // A machine's own entry before `default`.
    let entry = matching.first { $0.machine != nil } ?? matching.first
    guard let entry, let password = entry.password, !password.isEmpty else { return nil }
    return (entry.login, password)
  }

  /// The one line for a failed CalDAV call (server text sanitised by the error reporter).
  static func failure(_ error: CalendarCollectionError, url: String) -> CLIError {
    let text: String
    switch error {
    case .unauthorized: text = "the CalDAV server refused the user name or password (401)"
    case .refused(let status, let reason): text = "the CalDAV server refused (\(status)): \(reason.prefix(200))"
    case .tooLarge: text = "the CalDAV server's answer was larger than ootd reads"
    case .invalidResponse(let why): text = "the CalDAV server's answer is not CalDAV: \(why.prefix(200))"
    case .transport(let why): text = "cannot reach \(url): \(why.prefix(200))"
    case .notFound(let href): text = "not found on the CalDAV server: \(href.prefix(200))"
    case .preconditionFailed(let href): text = "\(href.prefix(200)) kept changing on the server; run the sync again"
    }
    return CLIError.calDAVFailed(text)
  }

  /// Runs `body`, turning the collection's errors into one line each.
  static func reporting<T>(url: String, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as CalendarCollectionError {
      throw failure(error, url: url)
    }
  }
}
