import Core
import Encryption
import Remote
import Storage

/// A failure the CLI reports itself. Each case reads as one line and has one exit code.
enum CLIError: Error, Equatable, CustomStringConvertible {
  /// A value on the command line is not acceptable (exit 64).
  case invalidValue(String)
  /// A destructive command ran without a terminal to ask on and without `--yes` (exit 64).
  case confirmationRequired(String)
  /// The user answered no (exit 1).
  case cancelled
  /// The environment gives no usable database path (exit 1).
  case noDatabasePath
  /// No GitHub login is known: none given, none saved, and no token to ask GitHub with (exit 64).
  case noGitHubLogin
  /// A sync stopped on a GitHub failure; what was fetched before it is kept (exit 1).
  case syncStopped(reason: String, kept: Int)
  /// An output file (e.g. `report --svg FILE`) could not be written (exit 1).
  case cannotWrite(path: String, reason: String)
  /// An input file (e.g. `import taskwarrior FILE`) could not be read (exit 1).
  case cannotRead(path: String, reason: String)
  /// A GitHub step failed after the local change was kept (e.g. `done --close-on-github`) (exit 1).
  case gitHubFailed(String)
  /// A CalDAV server refused or failed (one line, server text sanitised by the reporter).
  case calDAVFailed(String)

  var description: String {
    switch self {
    case .invalidValue(let message): return message
    case .confirmationRequired(let what):
      return "refusing to \(what) without confirmation: no terminal to ask on; pass --yes"
    case .cancelled: return "cancelled; nothing was changed"
    case .noDatabasePath:
      return "cannot find a place for the database: set OOTD_DB, XDG_DATA_HOME or HOME, or pass --db"
    case .noGitHubLogin:
      return "no GitHub login: pass --user LOGIN, save one with 'ootd github login LOGIN', or set GITHUB_TOKEN"
    case .syncStopped(let reason, let kept):
      let commits = counted(kept, "new commit")
      return "sync stopped: \(reason) Kept the \(commits) fetched before stopping; run 'ootd sync' again to finish."
    case .cannotWrite(let path, let reason):
      return "cannot write '\(path)': \(reason)"
    case .cannotRead(let path, let reason):
      return "cannot read '\(path)': \(reason)"
    case .gitHubFailed(let message), .calDAVFailed(let message):
      return message
    }
  }
}

/// The exit codes ootd uses: 0 success, 64 invalid usage or value, 1 runtime failure.
enum ExitStatus {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 64

  /// The exit code for an error thrown while running a command.
  static func code(for error: any Error) -> Int32 {
    switch error {
    case is CoreError: return usage
    case let error as CLIError:
      switch error {
      case .invalidValue, .confirmationRequired, .noGitHubLogin: return usage
      case .cancelled, .noDatabasePath, .syncStopped, .cannotWrite, .cannotRead, .gitHubFailed, .calDAVFailed:
        return failure
      }
    case let error as StorageError:
      if case .invalidValue = error { return usage }
      return failure
    case let error as RemoteError:
      return error.isUsage ? usage : failure
    case let error as EncryptionError:
      return error.isUsage ? usage : failure
    default: return failure
    }
  }
}
