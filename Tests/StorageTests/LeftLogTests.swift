import Core
import Foundation
import GRDB
@testable import Storage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The log the routine's own write leaves behind with a marker (docs/decisions/routine-durability.md):
/// trusted by the next open without StaleLog's copy, and only while the marker describes the
/// file and the log exactly; anything planted, copied or restored is checked in full as before.
@Suite("Left write-ahead log")
struct LeftLogTests {
  let today = day("2026-11-23")

  /// An ootd database whose "algorithm" block is in the routine, not planned today, closed
  /// (no `-wal` left).
  private func routineFile(_ scratch: Scratch, _ name: String = "ootd.sqlite") throws -> String {
    let path = scratch.path(name)
    do {
      let setup = try AppDatabase.open(path: path)
      _ = try setup.setRoutine(named: "algorithm", true, now: fixedNow)
      setup.close()
    }
    #expect(!exists(path + "-wal"))
    return path
  }

  /// What the dashboard does on the first command of a day: opens, plans the routine, closes.
  @discardableResult
  private func firstDashboard(_ path: String) throws -> Int {
    let database = try AppDatabase.open(path: path)
    defer { database.close() }
    return try database.planDueRoutineCount(on: today, now: fixedNow)
  }

  private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  @Test("the routine's own write leaves its log and a marker; reads trust and keep it; a change checkpoints it")
  func leftLog_lifecycle() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    let marker = LeftLog.markerPath(path)
    // The first dashboard of the day plans the routine and leaves the log behind, marked.
    // (Each in its own scope: a database holds its claim on the file until it is released, as
    // a command's does until its process ends.)
    do {
      let first = try AppDatabase.open(path: path)
      #expect(!first.logTrusted)
      #expect(try first.planDueRoutineCount(on: today, now: fixedNow) == 1)
      // The routine's transaction alone ran at NORMAL: the connection is back at FULL (2).
      #expect(try first.readStatement { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
      first.close()
    }
    #expect(exists(path + "-wal") && exists(marker))
    #expect(LeftLog.isMarked(path))
    // A later command trusts it (no copy), sees the routine's todo, writes nothing, and leaves
    // the log as it found it, still marked.
    do {
      let later = try AppDatabase.open(path: path)
      #expect(later.logTrusted)
      #expect(try allTodos(later).compactMap(\.block) == ["algorithm"])
      #expect(try later.planDueRoutineCount(on: today, now: fixedNow) == 0)
      later.close()
    }
    #expect(LeftLog.isMarked(path))
    // A command that writes anything else checkpoints on close as before: no log, no marker.
    do {
      let writing = try AppDatabase.open(path: path)
      #expect(writing.logTrusted)
      try writing.addTodo(try draft("Read", on: "2026-11-23"), now: fixedNow)
      writing.close()
    }
    #expect(!exists(path + "-wal") && !exists(marker))
    let reopened = try AppDatabase.open(path: path)
    #expect(try allTodos(reopened).map(\.title).sorted() == ["Read", "Solve an algorithm problem"])
    reopened.close()
  }

  @Test("a log left behind without its marker (killed before writing it) is checked in full and replayed")
  func unmarkedLog_isCheckedInFull() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    unlink(LeftLog.markerPath(path))
    #expect(try StaleLog.check(path) == .checked)
    let database = try AppDatabase.open(path: path)
    #expect(!database.logTrusted)
    #expect(try allTodos(database).compactMap(\.block) == ["algorithm"])
    database.close()
  }

  @Test("the file, its log and marker copied elsewhere (a backup, a restore) are checked in full there")
  func copiedTrio_isCheckedInFull() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    let copy = scratch.path("copy.sqlite")
    for suffix in ["", "-wal", "-wal.ootd"] {
      try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
    }
    #expect(!LeftLog.isMarked(copy))
    #expect(try StaleLog.check(copy) == .checked)
    #expect(try allTodos(AppDatabase.open(path: copy)).compactMap(\.block) == ["algorithm"])
  }

  @Test("a file restored over the database while a marked log is beside it is not trusted")
  func restoredFile_isNotTrusted() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    let backup = scratch.path("backup.sqlite")
    try FileManager.default.copyItem(atPath: path, toPath: backup)
    try firstDashboard(path)
    #expect(LeftLog.isMarked(path))
    // Written in place (same inode, as `cp backup ootd.sqlite` does): its change time moves.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: bytes)
    try handle.close()
    #expect(!LeftLog.isMarked(path))
    // The log was left for the file as it was: replayed over the restored one, its pages would
    // undo the restore (or mix with it). Refused, both files untouched.
    let before = try [FileSnapshot(path), FileSnapshot(path + "-wal")]
    #expect(throws: StorageError.leftLogOutdated(path)) { try AppDatabase.open(path: path) }
    #expect(try [FileSnapshot(path), FileSnapshot(path + "-wal")] == before)
  }

  @Test("a backup restored over the database while its routine's log is left is refused, not undone by the log")
  func olderBackupRestored_isRefused() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    let backup = scratch.path("backup.sqlite")
    try FileManager.default.copyItem(atPath: path, toPath: backup)
    do {
      let later = try AppDatabase.open(path: path)
      for index in 1...5 { try later.addTodo(try draft("Later \(index)", on: "2026-11-22"), now: fixedNow) }
      later.close()
    }
    try firstDashboard(path)
    #expect(LeftLog.isMarked(path))
    unlink(path)
    try FileManager.default.copyItem(atPath: backup, toPath: path)
    let before = try [FileSnapshot(path), FileSnapshot(path + "-wal")]
    #expect(throws: StorageError.leftLogOutdated(path)) { try AppDatabase.open(path: path) }
    #expect(try [FileSnapshot(path), FileSnapshot(path + "-wal")] == before)
    // One line that says what happened and how to keep the restored file.
    let message = StorageError.leftLogOutdated(path).description
    #expect(message.contains("changed since ootd left its log") && message.contains("move '\(path)-wal'"))
    #expect(!message.contains("\n"))
    // The log moved away, the backup opens as it was.
    unlink(path + "-wal")
    let restored = try AppDatabase.open(path: path)
    #expect(try allTodos(restored).filter { $0.title.hasPrefix("Later") }.isEmpty)
    restored.close()
  }

  @Test("a change written through another name of the file (a hard link) is not undone by the log left beside the first")
  func writeThroughHardLink_isNotUndone() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    let other = scratch.path("link.sqlite")
    #expect(link(path, other) == 0)
    do {
      // Through the other name SQLite sees no log: it writes the file and checkpoints.
      let linked = try AppDatabase.open(path: other)
      try linked.addTodo(try draft("Via the link", on: "2026-11-23"), now: fixedNow)
      linked.close()
    }
    #expect(throws: StorageError.leftLogOutdated(path)) { try AppDatabase.open(path: path) }
    // Without the stale log, the change made through the link is there.
    unlink(path + "-wal")
    let database = try AppDatabase.open(path: path)
    #expect(try allTodos(database).map(\.title).contains("Via the link"))
    database.close()
  }

  @Test("a change of the file's mode alone (its change time) still replays the left log after the full check")
  func modeChangeAlone_isCheckedAndReplayed() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    #expect(chmod(path, 0o600) == 0)
    #expect(!LeftLog.isMarked(path))
    #expect(!LeftLog.isLeftForAnotherFile(path))
    #expect(try StaleLog.check(path) == .checked)
    #expect(try allTodos(AppDatabase.open(path: path)).compactMap(\.block) == ["algorithm"])
  }

  @Test(
    "a foreign log planted beside a left one is refused, whatever marker is beside it",
    arguments: ["stale marker", "marker carried with the foreign log", "marker rewritten for the file"])
  func plantedForeignLog_isRefused(marker: String) throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    let markerPath = LeftLog.markerPath(path)
    let other = scratch.path("other.sqlite")
    try StaleLogTests.withLiveLog(other) {
      // The foreign database's own marker, as if ootd had left its log.
      LeftLog.mark(other)
      #expect(LeftLog.isMarked(other))
      unlink(path + "-wal")
      try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
      switch marker {
      case "marker carried with the foreign log":
        unlink(markerPath)
        try FileManager.default.copyItem(atPath: LeftLog.markerPath(other), toPath: markerPath)
      case "marker rewritten for the file":
        // The left marker with only its first line (the file's identity) kept: torn, or forged
        // from the file alone.
        let kept = try String(contentsOfFile: markerPath, encoding: .isoLatin1)
          .split(separator: "\n", maxSplits: 2).prefix(2).joined(separator: "\n")
        try Data(kept.utf8).write(to: URL(fileURLWithPath: markerPath))
      default:
        break  // the marker ootd wrote for its own log, now stale
      }
    }
    #expect(!LeftLog.isMarked(path))
    let before = try [FileSnapshot(path), FileSnapshot(path + "-wal")]
    #expect(throws: StorageError.foreignLog(path)) { try AppDatabase.open(path: path) }
    #expect(try [FileSnapshot(path), FileSnapshot(path + "-wal")] == before)
  }

  @Test("while another ootd process has the file, the routine's write leaves no marker; the last to close checkpoints")
  func twoProcesses_noMarkerWhileShared() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    // The TUI, say: open first (alone), writing nothing.
    let other = try AppDatabase.open(path: path)
    // A dashboard meanwhile plans the routine and closes: the log is the other's too, live.
    #expect(try firstDashboard(path) == 1)
    #expect(exists(path + "-wal"))
    #expect(!exists(LeftLog.markerPath(path)))
    #expect(try allTodos(other).compactMap(\.block) == ["algorithm"])
    other.close()
    #expect(!exists(path + "-wal") && !exists(LeftLog.markerPath(path)))
  }

  @Test("a change another process made while one that writes nothing held a trusted log stays in the log it leaves")
  func otherProcessChange_staysInTheLeftLog() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    // The TUI, say, opens on the left log (trusted) and writes nothing.
    let other = try AppDatabase.open(path: path)
    #expect(other.logTrusted)
    do {
      let writing = try AppDatabase.open(path: path)
      try writing.addTodo(try draft("Read", on: "2026-11-23"), now: fixedNow)
      writing.close()
    }
    other.close()
    // No checkpoint: the other's change (committed at FULL) is in the log, which is marked.
    #expect(exists(path + "-wal") && LeftLog.isMarked(path))
    let reopened = try AppDatabase.open(path: path)
    #expect(try allTodos(reopened).map(\.title).contains("Read"))
    reopened.close()
  }

  @Test("a left log grown past its bound is checkpointed by the close that would leave it")
  func largeLog_isCheckpointed() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    try firstDashboard(path)
    let database = try AppDatabase.open(path: path)
    #expect(database.logTrusted)
    // A derived write large enough to grow the log past the bound.
    try database.writeDerived { db in
      try db.execute(
        sql: "CREATE TABLE pad (x); INSERT INTO pad VALUES (zeroblob(?))", arguments: [LeftLog.largestLeft * 2])
    }
    #expect(!LeftLog.isSmall(path))
    database.close()
    #expect(!exists(path + "-wal") && !exists(LeftLog.markerPath(path)))
  }

  @Test("a change between two of the routine's own writes makes the close checkpoint")
  func changeBetweenDerivedWrites_checkpoints() throws {
    let scratch = Scratch()
    let path = try routineFile(scratch)
    do {
      let database = try AppDatabase.open(path: path)
      #expect(try database.planDueRoutineCount(on: today, now: fixedNow) == 1)
      try database.addTodo(try draft("Read", on: "2026-11-23"), now: fixedNow)
      #expect(try database.planDueRoutineCount(on: today.adding(days: 1), now: fixedNow) == 1)
      database.close()
    }
    #expect(!exists(path + "-wal") && !exists(LeftLog.markerPath(path)))
  }
}

/// A marker planted by another user (a shared sticky folder such as /tmp, which `checkLocation`
/// accepts because nobody else can replace the file there, but where anyone may create the
/// missing `-wal` and marker beside it): never trusted, whatever it says. Needs root to give the
/// marker to another user; elsewhere the suite has nothing to run.
@Suite("Left write-ahead log, a marker of another user's", .enabled(if: geteuid() == 0))
struct LeftLogOwnerTests {
  @Test("a marker owned by another user is not trusted: the log is checked in full")
  func foreignOwnedMarker_isNotTrusted() throws {
    let scratch = Scratch()
    let path = scratch.path("ootd.sqlite")
    do {
      let setup = try AppDatabase.open(path: path)
      _ = try setup.setRoutine(named: "algorithm", true, now: fixedNow)
      setup.close()
    }
    do {
      let first = try AppDatabase.open(path: path)
      #expect(try first.planDueRoutineCount(on: day("2026-11-23"), now: fixedNow) == 1)
      first.close()
    }
    #expect(LeftLog.isMarked(path))
    // The same bytes, now another user's file (as one planted beside the log would be).
    #expect(chown(LeftLog.markerPath(path), 65534, 65534) == 0)
    #expect(!LeftLog.isMarked(path))
    #expect(try StaleLog.check(path) == .checked)
  }
}
