import Foundation

/// Where the database lives, and how paths the user writes are read.
extension AppEnvironment {
  /// The database file: `--db`, else `OOTD_DB` (refused when empty, as `--db ''` is), else `$XDG_DATA_HOME/ootd/ootd.sqlite`, else
  /// `~/.local/share/ootd/ootd.sqlite`.
  func databasePath(option: String?) throws(CLIError) -> String {
    if let option {
      guard !option.isEmpty else { throw .invalidValue("--db needs a file path") }
      return expandTilde(option)
    }
    if let path = variables["OOTD_DB"] {
      guard !path.isEmpty else { throw .invalidValue("OOTD_DB is empty: unset it or give a file path") }
      return expandTilde(path)
    }
    if let data = variables["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/ootd/ootd.sqlite"
    }
    guard let home = variables["HOME"], !home.isEmpty else { throw .noDatabasePath }
    return home + "/.local/share/ootd/ootd.sqlite"
  }

  func expandTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = variables["HOME"] else { return path }
    return home + path.dropFirst()
  }

  /// `path` made absolute: `~` expanded, a relative path taken from the current folder.
  func absolutePath(_ path: String) -> String {
    let expanded = expandTilde(path)
    guard !expanded.hasPrefix("/") else { return expanded }
    return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: currentDirectory + "/"))
      .standardizedFileURL.path
  }
}
