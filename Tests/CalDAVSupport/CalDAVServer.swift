import Foundation
import ScriptSupport

/// A real CalDAV server on 127.0.0.1 for one test (or one suite), in a temporary folder:
/// Radicale (htpasswd login) or Xandikos (behind `auth_proxy.py`, a small authenticating proxy),
/// started by `caldav_server.py` beside this file, with a calendar collection for VTODOs made by
/// MKCALENDAR. The servers stop and the folder goes when ``stop()`` runs, this value goes away,
/// or the test process ends (the script stops when its standard input closes).
///
///     let server = try CalDAVServer(.radicale)
///     let client = try CalDAVClient(collectionURL: server.collectionURL, user: server.user,
///                                   password: server.password)
///     try server.phone("tick", uuid)              // the phone ticks the VTODO with this UID
///     let items: [CalDAVServer.Item] = try server.phoneList()
public final class CalDAVServer: @unchecked Sendable {
  public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
    case radicale, xandikos
    public var description: String { rawValue }
    /// The Debian package's program.
    var program: String { rawValue }
  }

  public let kind: Kind
  /// The calendar collection, e.g. `http://127.0.0.1:PORT/alice/tasks/` (Radicale) or
  /// `http://127.0.0.1:PORT/alice/calendars/tasks/` (Xandikos).
  public let collectionURL: URL
  /// The server's port on 127.0.0.1.
  public let port: Int
  public let user: String
  public let password: String
  /// With `tls: true`, the self-signed certificate to trust (a `CURL_CA_BUNDLE` file); nil
  /// for plain HTTP.
  public let caBundle: String?

  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSLock()

  /// The folder of this file: the scripts.
  public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  public static let serverScript = folder.appendingPathComponent("caldav_server.py")
  /// The phone: `phone.py` (see its --help).
  public static let phoneScript = folder.appendingPathComponent("phone.py")

  /// Whether the tests of `kind` should run: its program is installed (`scripts/bootstrap`), or
  /// CI is set (where a missing server must fail the run, not skip it).
  public static func available(_ kind: Kind) -> Bool {
    installed(kind) || ProcessInfo.processInfo.environment["CI"] == "true"
  }

  static func installed(_ kind: Kind) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(kind.program)")
    }
  }

  /// The server did not start; `description` holds the script's last words.
  public struct DidNotStart: Error, CustomStringConvertible {
    public let description: String
  }

  /// Starts a server of `kind` with one user. `refuseSyncCollection` (Xandikos only): the proxy
  /// answers every `sync-collection` REPORT with 501, as a server without RFC 6578 does.
  /// `tls` (Xandikos only): the proxy speaks HTTPS with a self-signed certificate for 127.0.0.1
  /// (``caBundle``).
  public init(
    _ kind: Kind, user: String = "alice", password: String = "phone-secret-8d2f",
    refuseSyncCollection: Bool = false, tls: Bool = false
  ) throws {
    self.kind = kind
    self.user = user
    self.password = password
    var arguments = [kind.rawValue, "--user", user, "--password", password]
    if refuseSyncCollection { arguments.append("--refuse-sync-collection") }
    if tls { arguments.append("--tls") }
    let errors = Pipe()
    process.standardError = errors
    let line = try ScriptProcess.start(process, script: Self.serverScript, arguments: arguments, input: input, output: output)
    struct Started: Decodable {
      let url: String
      let port: Int
      let ca: String?
    }
    guard let started = try? JSONDecoder().decode(Started.self, from: line),
      let url = URL(string: started.url)
    else {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw DidNotStart(description: "\(kind) did not start: \(said)")
    }
    collectionURL = url
    port = started.port
    caBundle = started.ca
  }

  deinit { stop() }

  /// Stops the server and removes its folder (waits for both).
  public func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// What the phone script printed and said, when it failed.
  public struct PhoneFailed: Error, CustomStringConvertible {
    public let status: Int32
    public let description: String
  }

  /// Runs `phone.py COMMAND ARGS…` against the collection as this server's user (the password
  /// goes through the environment, not argv) and returns what it printed (one JSON line).
  /// Throws ``PhoneFailed`` when it exits non-zero (e.g. a refused PUT).
  @discardableResult
  public func phone(_ command: String, _ arguments: String...) throws -> String {
    try phone(command, arguments: arguments)
  }

  @discardableResult
  public func phone(_ command: String, arguments: [String]) throws -> String {
    let phone = Process()
    phone.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    phone.arguments =
      ["python3", Self.phoneScript.path, "--url", collectionURL.absoluteString, "--user", user, command]
      + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["CALDAV_PASSWORD"] = password
    if let caBundle { environment["SSL_CERT_FILE"] = caBundle }
    phone.environment = environment
    let out = Pipe()
    let err = Pipe()
    phone.standardOutput = out
    phone.standardError = err
    phone.standardInput = FileHandle.nullDevice
    try phone.run()
    // Read both to their end before waiting: a full pipe would block the script.
    let errors = ErrorReader(err.fileHandleForReading)
    let printed = out.fileHandleForReading.readDataToEndOfFile()
    phone.waitUntilExit()
    let said = errors.text()
    guard phone.terminationStatus == 0 else {
      throw PhoneFailed(status: phone.terminationStatus, description: "phone \(command): \(said)")
    }
    return String(decoding: printed, as: UTF8.self)
  }

  /// One resource as `phone.py list` prints it.
  public struct Item: Decodable, Hashable, Sendable {
    public let href: String
    public let etag: String?
    public let uid: String?
  }

  /// `phone.py list`: every resource of the collection with its UID, sorted by href.
  public func phoneList() throws -> [Item] {
    try JSONDecoder().decode([Item].self, from: Data(try phone("list").utf8))
  }

  /// One resource as `phone.py get` prints it.
  public struct Resource: Decodable, Hashable, Sendable {
    public let href: String
    public let etag: String?
    public let ics: String
  }

  /// `phone.py get UID`: the VTODO with this UID, its href and etag.
  public func phoneGet(_ uid: String) throws -> Resource {
    try JSONDecoder().decode(Resource.self, from: Data(try phone("get", uid).utf8))
  }

  /// Reads a pipe on a thread of its own, so the other pipe can be drained meanwhile.
  private final class ErrorReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
      Thread.detachNewThread { [self] in
        data = handle.readDataToEndOfFile()
        done.signal()
      }
    }
    func text() -> String {
      done.wait()
      return String(decoding: data, as: UTF8.self)
    }
  }
}
