import Core

/// Why the database could not do what was asked. Each case reads as one line for the user.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path names a directory, not a file.
  case pathIsDirectory(String)
  /// The file or its folder could not be created or opened for writing.
  case cannotOpen(path: String, reason: String)
  /// The file exists but is not an SQLite database.
  case notADatabase(String)
  /// The file is an SQLite database of some other program.
  case foreignDatabase(String)
  /// A write-ahead log (`-wal`) beside the file is not this database's: replaying it would
  /// damage the file.
  case foreignLog(String)
  /// The write-ahead log ootd left beside the file (``LeftLog``) is whole, but the file changed
  /// without it (a backup copied over it, a write under another name): replaying it would undo
  /// that change.
  case leftLogOutdated(String)
  /// The file system holding the database has no room left: the change was not made.
  case diskFull(String)
  /// A newer ootd wrote this database; this one does not know its schema.
  case newerSchema(path: String, unknownMigrations: [String])
  /// No todo has these ids.
  case todosNotFound([Int64])
  /// No todo has a uuid beginning with this prefix.
  case todoUUIDPrefixNotFound(String)
  /// No project has this name.
  case projectNotFound(String)
  /// No block has this name.
  case blockNotFound(String)
  /// A project with this name exists already.
  case duplicateProject(String)
  /// A block with this name exists already.
  case duplicateBlock(String)
  /// A value broke a domain rule (e.g. an edit made a project end before it starts).
  case invalidValue(CoreError)
  /// `undo` found no change of this device that is not undone.
  case nothingToUndo
  /// `redo` found no undone change to apply again.
  case nothingToRedo
  /// An undo or redo would overwrite a row changed since by this machine's own change that is
  /// not undone, or outside the journal (another device's later change is left as it is).
  case journalConflict(String)
  /// SQLite failed; the message is SQLite's.
  case sqlite(String)

  public var description: String {
    switch self {
    case .pathIsDirectory(let path):
      return "database path '\(path)' is a directory: name a file, e.g. \(path)/ootd.sqlite"
    case .cannotOpen(let path, let reason):
      return "cannot open database '\(path)': \(reason)"
    case .notADatabase(let path):
      return "'\(path)' is not an SQLite database; ootd leaves it untouched"
    case .foreignDatabase(let path):
      return "'\(path)' is an SQLite database of another program; ootd leaves it untouched"
    case .foreignLog(let path):
      // Never advice to move the log away: a log that merely looks damaged may hold committed
      // changes, and a database without them is damaged for good.
      return "'\(path)-wal' does not replay into '\(path)' (another database's log, or damaged); ootd leaves both untouched: copy both files somewhere safe before trying anything else"
    case .leftLogOutdated(let path):
      return "'\(path)' changed since ootd left its log '\(path)-wal' beside it (a backup copied over it?); replaying the log would undo that, so ootd leaves both untouched: to keep the file as it is now, move '\(path)-wal', '-shm' and '-wal.ootd' away"
    case .diskFull(let path):
      return "no space left on the file system of '\(path)': nothing was changed; free some space and run the command again"
    case .newerSchema(let path, let unknown):
      return "'\(path)' was written by a newer ootd (unknown migration \(unknown.joined(separator: ", "))); upgrade ootd"
    case .todosNotFound(let ids):
      // Echo a few ids, not all of them: a command may name thousands.
      let list = ShortList.text(ids.map(String.init))
      return "no \(noun(ids.count, "todo")) with \(noun(ids.count, "id")) \(list)"
    case .todoUUIDPrefixNotFound(let prefix):
      return "no todo with a uuid beginning '\(prefix)'"
    case .projectNotFound(let name):
      return "no project named '\(name)' (see 'ootd project list --all')"
    case .blockNotFound(let name):
      return "no block named '\(name)' (see 'ootd block list')"
    case .duplicateProject(let name):
      return "a project named '\(name)' already exists"
    case .duplicateBlock(let name):
      return "a block named '\(name)' already exists"
    case .invalidValue(let error):
      return error.description
    case .nothingToUndo:
      return "nothing to undo (see 'ootd log')"
    case .nothingToRedo:
      return "nothing to redo: no change was undone since the last change (see 'ootd log')"
    case .journalConflict(let message):
      return message
    case .sqlite(let message):
      return "database error: \(message)"
    }
  }
}
