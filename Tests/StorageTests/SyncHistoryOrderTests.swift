import Core
import Foundation
import Testing

@testable import Storage

/// Issue 24 §3: a todo's history (`ootd show`) is in the order its changes were made, on every
/// machine, not the order they were pulled in.
@Suite("Sync: a todo's history in the order its changes were made")
struct SyncHistoryOrderTests {
  /// The history of the todo `uuid` on `machine`: each entry's command.
  static func history(_ machine: AppDatabase, _ uuid: String) throws -> [String] {
    try machine.history(ofRow: uuid).map(\.command)
  }

  @Test("edited on the desktop at 10:00 and on the laptop at 10:05, the laptop syncing first: 10:00 then 10:05 on both")
  func madeOrder() throws {
    let server = FakeSyncServer()
    let laptop = try AppDatabase.inMemory(command: "laptop edit")
    let desktop = try AppDatabase.inMemory(command: "desktop edit")
    let todo = try laptop.addTodo(try draft("Write the README"), now: fixedNow)
    try server.sync(laptop, now: fixedNow)
    try server.sync(desktop, now: fixedNow)
    let id = try #require(try allTodos(desktop).first?.id)
    // 10:00 on the desktop, 10:05 on the laptop (other fields: both edits stand).
    _ = try desktop.editTodo(id: id, try TodoChanges(title: "Write the README first"), today: fixedToday, now: fixedNow + 600)
    _ = try laptop.editTodo(id: todo.id, try TodoChanges(priority: .high), today: fixedToday, now: fixedNow + 900)
    try server.sync(laptop, now: fixedNow + 1000)
    try server.sync(desktop, now: fixedNow + 1100)
    try server.sync(laptop, now: fixedNow + 1200)

    // (The todo came to the desktop with the laptop's first sync.)
    #expect(try Self.history(desktop, todo.uuid) == [SyncState.firstSyncCommand, "desktop edit", "laptop edit"])
    // The laptop pulled the desktop's edit after making its own: listed before it all the same.
    #expect(try Self.history(laptop, todo.uuid) == ["laptop edit", "desktop edit", "laptop edit"])
    // A pulled entry says when it was made there, not when it was pulled.
    let pulled = try laptop.history(ofRow: todo.uuid)[1]
    #expect(pulled.fromDevice != nil)
    #expect(pulled.madeAt == fixedNow + 600)
    #expect(try laptop.history(ofRow: todo.uuid)[2].madeAt == nil)
    #expect(try desktop.history(ofRow: todo.uuid)[2].madeAt == fixedNow + 900)
  }
}
