import Core
import Foundation
import Storage
import Testing

/// `AppDatabase.open(path:givesBackUnused: true)`: a file nobody wrote to is removed on release,
/// never one another open database holds or anyone wrote to.
@Suite("AppDatabase gives back an unused new file")
struct GiveBackTests {
  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  @Test("a new file nobody wrote to goes, with the folders made for it")
  func unusedNewFileGoes() throws {
    let scratch = Scratch()
    do {
      let database = try AppDatabase.open(path: scratch.path("a/b/ootd.sqlite"), givesBackUnused: true)
      #expect(try database.blocks().count == TaskBlock.builtIns.count)
      #expect(exists(scratch.path("a/b/ootd.sqlite")))
    }
    #expect(!exists(scratch.path("a")))
    #expect(exists(scratch.path("")))
  }

  @Test("an existing empty file is emptied again")
  func emptyFileStaysEmpty() throws {
    let scratch = Scratch()
    #expect(FileManager.default.createFile(atPath: scratch.path(), contents: Data()))
    do { _ = try AppDatabase.open(path: scratch.path(), givesBackUnused: true) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path())).isEmpty)
    #expect(!exists(scratch.path() + "-wal"))
  }

  @Test("a file written through it stays")
  func writtenFileStays() throws {
    let scratch = Scratch()
    do {
      let database = try AppDatabase.open(path: scratch.path(), givesBackUnused: true)
      try database.addTodo(try draft("kept"), now: fixedNow)
    }
    #expect(try allTodos(AppDatabase.open(path: scratch.path())).map(\.title) == ["kept"])
  }

  @Test("a file another open database holds stays")
  func heldFileStays() throws {
    let scratch = Scratch()
    let other: AppDatabase
    do {
      let database = try AppDatabase.open(path: scratch.path(), givesBackUnused: true)
      other = try withExtendedLifetime(database) { try AppDatabase.open(path: scratch.path()) }
    }
    #expect(exists(scratch.path()))
    try other.addTodo(try draft("theirs"), now: fixedNow)
    #expect(try allTodos(AppDatabase.open(path: scratch.path())).map(\.title) == ["theirs"])
  }

  @Test("a file another connection wrote to and closed stays")
  func fileWrittenByAnotherStays() throws {
    let scratch = Scratch()
    do {
      let database = try AppDatabase.open(path: scratch.path(), givesBackUnused: true)
      try withExtendedLifetime(database) {
        let other = try AppDatabase.open(path: scratch.path())
        try other.addTodo(try draft("theirs"), now: fixedNow)
      }
    }
    #expect(try allTodos(AppDatabase.open(path: scratch.path())).map(\.title) == ["theirs"])
  }
}
