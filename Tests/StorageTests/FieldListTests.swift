import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Issue 22, point 5: each journaled table's columns are exactly its entity's typed field list
/// (``TodoField``, ``ProjectField``, ``BlockField``) plus the row's identity (`uuid`, and a
/// todo's local `id`). A migration that adds a column fails here until the field list says what
/// the column is, and the compiler then walks through every switch over it.
@Suite struct FieldListTests {
  /// The columns that are the row's identity or bookkeeping, not journaled fields.
  static let identity: [String: Set<String>] = [
    // `titleFold`: the title's search key, derived from the title wherever it is written
    // (migration v15-search-fold).
    "todo": ["uuid", "titleFold"], "project": ["uuid"], "block": ["uuid"],
  ]

  static func columns(_ table: String) throws -> Set<String> {
    let scratch = Scratch()
    _ = try scratch.freshDatabase("fields.sqlite")
    return try withRawDatabase(scratch.path("fields.sqlite")) { db in
      Set(try db.columns(in: table).map(\.name))
    }
  }

  static func stored(_ names: [String]) -> Set<String> {
    Set(names.map { $0 == "project" ? "projectId" : $0 })
  }

  @Test func theTodoTableHasExactlyTheTodoFields() throws {
    let columns = try Self.columns("todo").subtracting(Self.identity["todo"]!)
    #expect(columns == Self.stored(TodoField.allCases.map(\.rawValue)))
  }

  @Test func theProjectTableHasExactlyTheProjectFields() throws {
    let columns = try Self.columns("project").subtracting(Self.identity["project"]!)
    #expect(columns == Self.stored(ProjectField.allCases.map(\.rawValue)))
  }

  @Test func theBlockTableHasExactlyTheBlockFields() throws {
    let columns = try Self.columns("block").subtracting(Self.identity["block"]!)
    #expect(columns == Self.stored(BlockField.allCases.map(\.rawValue)))
  }

  @Test func theExecutorAllowsExactlyTheFieldLists() {
    #expect(OperationExecutor.allowedFields(.todo) == Set(TodoField.allCases.map(\.rawValue)))
    #expect(OperationExecutor.allowedFields(.project) == Set(ProjectField.allCases.map(\.rawValue)))
    #expect(OperationExecutor.allowedFields(.block) == Set(BlockField.allCases.map(\.rawValue)))
    #expect(!OperationExecutor.allowedFields(.todo).contains("uuid"))
  }

  @Test func typedPairsAndSubscriptsNameTheSameFields() {
    var fields = Fields.todo([.title: .text("x"), .done: .bool(true)])
    #expect(fields == ["title": .text("x"), "done": .integer(1)])
    fields[todo: .notes] = .null
    #expect(fields["notes"] == .null)
    #expect(Fields.project([.name: .text("ootd")])[project: .name] == .text("ootd"))
    #expect(Fields.block([.routine: .bool(false)])["routine"] == .integer(0))
  }
}
