import HTTP
import Core
import Encryption
import Foundation
import GitHubClient
import Interchange
import Storage

#if canImport(Glibc)
import Glibc
#endif

// Test seams of a debug build only: SwiftPM defines DEBUG for `swift build` (the binary the
// tests start) and not for `-c release` (scripts/build-release), so an installed ootd never
// reads these variables and a user cannot trip them by accident.
//
//   OOTD_NOW=2026-11-22T09:00:00+09:00   the instant the command runs at (ISO 8601, `Z` or an
//                                        offset), instead of the system clock.
//   OOTD_CLOCK_OFFSET=SECONDS            moves the running clock (not `now`: the one a sync
//                                        measures the server's against) by SECONDS, as
//                                        libfaketime's FAKETIME='+600' would.
//   OOTD_DEBUG_CHEAP_KDF=1               new sync keys are wrapped with Argon2id's minimum cost
//                                        (1 pass over 8 KiB) instead of 3 passes over 256 MiB,
//                                        for the tests that set up hundreds of machines.
//   OOTD_PULL_PAGE=N                     `remote sync` pulls N records at a time and commits
//                                        each page alone (RemoteSyncRun.pagedBy), so that a
//                                        commit falls between any two records.
//   OOTD_IMPORT_CAP=BYTES                `import` reads at most BYTES of input (at most
//                                        InputBounds.maximumInput, 1 GiB, which it lowers), so
//                                        that a test passes the cap without a gigabyte.
//   OOTD_FAULT=POINT:N[:ACTION]          at the Nth time the process reaches POINT, it kills
//                                        itself (ACTION `kill`, the default: SIGKILL, as
//                                        `kill -9` would), stops itself (`stop`: SIGSTOP; the
//                                        test sends SIGCONT), or interrupts itself (`int`:
//                                        SIGINT, as Ctrl-C would, then waits as a request in
//                                        flight would). ACTION `full` (points `wal-index`
//                                        and `import-spool` only; `wal-index` has no other):
//                                        from the Nth time on, fails as a full disk would.
//
// Fault points (see ``DebugFault/reached(_:)``):
//   remote-pulled        `remote sync`: the pull loop ended (N = 1)
//   remote-pull-fetched  `remote sync`: page N was fetched from the server, not yet applied
//   remote-pull-applied  `remote sync`: the pages fetched since the last were applied here, the
//                        Nth time (cursor moved; every RemoteSyncRun.pullCommitBytes)
//   remote-push-sent     `remote sync`: the server took page N, not yet marked pushed here
//   remote-push-marked   `remote sync`: page N was marked pushed here
//   remote-figures       `remote sync`: the day figures were published, the sync not finished
//   github-commits-page  `sync`: the response to the Nth request for a page of commits arrived
//                        (not yet stored)
//   github-request       `sync`: the Nth request to GitHub is about to go out
//   import-spool         `import`: the Nth write of a piped input to its private copy (ImportSpool)
//                        is about to be made; with `full`, it and every later one fails with ENOSPC
//   wal-index            SQLite maps the database's wal-index (`-shm`) for the Nth time; with
//                        `full` (its only action), that map and every later one cannot grow the
//                        `-shm`, as on a full disk (SQLITE_IOERR_SHMSIZE; one it holds already maps)

#if DEBUG
extension AppEnvironment {
  /// `OOTD_NOW`, when set: the instant it names. A value that names none is one line on standard
  /// error and exit 64 before anything runs.
  static func debugPinnedNow(_ variables: [String: String]) -> Date? {
    guard let text = variables["OOTD_NOW"] else { return nil }
    guard let date = Timestamp.date(text, .iso8601) else {
      StandardStream.error.write(
        "ootd: error: OOTD_NOW '\(TerminalText.printable(text))' is not an ISO 8601 instant such as 2026-11-22T09:00:00+09:00\n"
      )
      exit(ExitStatus.usage)
    }
    return date
  }

  /// `OOTD_PULL_PAGE`, when set: the records a pull reads and commits at a time. A value that
  /// is not a positive number is one line on standard error and exit 64.
  static func debugPullPage(_ variables: [String: String]) -> Int? {
    guard let text = variables["OOTD_PULL_PAGE"] else { return nil }
    guard let records = Int(text), records >= 1 else {
      StandardStream.error.write("ootd: error: OOTD_PULL_PAGE '\(TerminalText.printable(text))' is not a positive number of records\n")
      exit(ExitStatus.usage)
    }
    return records
  }

  /// `OOTD_IMPORT_CAP`, when set: the most bytes an import reads. A value that is not a number
  /// of bytes from 1 to ``InputBounds/maximumInput`` is one line on standard error and exit 64.
  static func debugImportCap(_ variables: [String: String]) -> Int? {
    guard let text = variables["OOTD_IMPORT_CAP"] else { return nil }
    guard let bytes = Int(text), (1...InputBounds.maximumInput).contains(bytes) else {
      StandardStream.error.write(
        "ootd: error: OOTD_IMPORT_CAP '\(TerminalText.printable(text))' is not a number of bytes from 1 to \(InputBounds.maximumInput)\n")
      exit(ExitStatus.usage)
    }
    return bytes
  }

  /// `OOTD_CLOCK_OFFSET`, when set: seconds added to the running clock. A value that is not a
  /// number is one line on standard error and exit 64.
  static func debugClockOffset(_ variables: [String: String]) -> Double? {
    guard let text = variables["OOTD_CLOCK_OFFSET"] else { return nil }
    guard let seconds = Double(text), seconds.isFinite else {
      StandardStream.error.write("ootd: error: OOTD_CLOCK_OFFSET '\(TerminalText.printable(text))' is not a number of seconds\n")
      exit(ExitStatus.usage)
    }
    return seconds
  }
}
#endif

extension AppEnvironment {
  /// The Argon2id cost new sync keys are wrapped with: ``KDFParameters/moderate``, or the
  /// minimum when a debug build runs with `OOTD_DEBUG_CHEAP_KDF=1` (the tests).
  var keyDerivationCost: KDFParameters {
    #if DEBUG
    if variables["OOTD_DEBUG_CHEAP_KDF"] == "1" { return .cheapForTests }
    #endif
    return .moderate
  }
}

/// The fault `OOTD_FAULT` names (debug builds only; in a release build nothing is ever reached).
enum DebugFault {
  #if DEBUG
  enum Action { case kill, stop, interrupt, full }

  struct Plan {
    let point: String
    let count: Int
    let action: Action
  }

  /// The plan `OOTD_FAULT` names; a malformed value is one line on standard error and exit 64.
  static let plan: Plan? = {
    guard let pointer = getenv("OOTD_FAULT") else { return nil }
    let text = String(cString: pointer)
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    let actions: [String: Action] = ["kill": .kill, "stop": .stop, "int": .interrupt, "full": .full]
    guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty,
      let count = Int(parts[1]), count >= 1,
      let action = parts.count == 3 ? actions[parts[2]] : .kill,
      action != .full || ["wal-index", "import-spool"].contains(parts[0]),
      action == .full || parts[0] != "wal-index"
    else {
      StandardStream.error.write(
        "ootd: error: OOTD_FAULT '\(TerminalText.printable(text))' is not POINT:COUNT[:kill|stop|int], wal-index:COUNT:full or import-spool:COUNT:full\n")
      exit(ExitStatus.usage)
    }
    // SQLite reaches this point itself: the seam is set before the first connection opens.
    if action == .full { AppDatabase.failWALIndexGrowth(from: count) }
    return Plan(point: parts[0], count: count, action: action)
  }()

  nonisolated(unsafe) private static var reachedCount = 0
  private static let lock = NSLock()
  #endif

  /// Called where a test may stop the process; does nothing unless `OOTD_FAULT` names `point`
  /// in a debug build.
  @inline(__always)
  static func reached(_ point: String) {
    #if DEBUG
    // A `full` plan is counted by ``diskIsFull(_:)`` (or inside SQLite), not here.
    guard let plan, plan.point == point, plan.action != .full else { return }
    let hit = lock.withLock {
      reachedCount += 1
      return reachedCount == plan.count
    }
    guard hit else { return }
    // To the process, as `kill` and the terminal send them (raise would send SIGINT to this
    // thread alone, which Dispatch's signal source never sees).
    switch plan.action {
    case .kill:
      kill(getpid(), SIGKILL)
    case .stop:
      kill(getpid(), SIGSTOP)
    case .interrupt:
      kill(getpid(), SIGINT)
      // As a request still in flight when Ctrl-C is pressed: the handler ends the process.
      sleep(30)
    case .full:
      break  // asked by ``diskIsFull(_:)``, or reached inside SQLite (``AppDatabase/failWALIndexGrowth(from:)``)
    }
    #endif
  }

  /// Whether a write at `point` fails as on a full disk: `OOTD_FAULT=POINT:N:full` counts each
  /// call and answers true from the Nth on (debug builds only; a release build never fails here).
  static func diskIsFull(_ point: String) -> Bool {
    #if DEBUG
    guard let plan, plan.point == point, plan.action == .full else { return false }
    return lock.withLock {
      reachedCount += 1
      return reachedCount >= plan.count
    }
    #else
    return false
    #endif
  }

  /// `transport`, which reaches `github-commits-page` at each response to a commits request,
  /// when `OOTD_FAULT` names that point (debug builds only).
  static func watching(_ transport: any HTTPTransport) -> any HTTPTransport {
    #if DEBUG
    if plan?.point == "github-commits-page" { return CommitPagesWatcher(inner: transport) }
    if plan?.point == "github-request" { return RequestWatcher(inner: transport) }
    #endif
    return transport
  }

  #if DEBUG
  private struct RequestWatcher: HTTPTransport {
    let inner: any HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      DebugFault.reached("github-request")
      return try await inner.send(request)
    }
  }

  private struct CommitPagesWatcher: HTTPTransport {
    let inner: any HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let response = try await inner.send(request)
      if request.url.path.hasSuffix("/commits") { DebugFault.reached("github-commits-page") }
      return response
    }
  }
  #endif
}
