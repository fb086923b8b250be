import Core
import Foundation
import Testing

@Suite("Caps and clock ceilings")
struct CapsTests {
  @Test("clock arithmetic saturates at Int64.max instead of trapping")
  func saturatingClock() {
    #expect(HybridClock.tick(last: .max, milliseconds: 0) == .max)
    #expect(HybridClock.advanced(.max - 1, by: 5) == .max)
    #expect(HybridClock.advanced(10, by: 5) == 15)
    #expect(HybridClock.tick(last: 41, milliseconds: 0) == 42)
  }

  @Test("an operation's clock outside 0...2^62 is refused; the ceiling itself is accepted")
  func clockRange() {
    func operation(_ clock: Int64) -> SyncOperation {
      SyncOperation(.todo, row: RowID.random(), .delete, stamp: Stamp(clock: clock, device: RowID.random()))
    }
    #expect(Caps.violation(operation(1 << 62)) == nil)
    #expect(Caps.violation(operation((1 << 62) + 1)) != nil)
    #expect(Caps.violation(operation(.max)) != nil)
    #expect(Caps.violation(operation(-1)) != nil)
  }

  @Test("titles, names, tags and free text are held to their caps, the caps themselves accepted")
  func fieldCaps() {
    func text(_ count: Int) -> FieldValue { .text(String(repeating: "é", count: count)) }
    #expect(Caps.violation(.todo, field: "title", value: text(Caps.titleCharacters)) == nil)
    #expect(Caps.violation(.todo, field: "title", value: text(Caps.titleCharacters + 1)) != nil)
    #expect(Caps.violation(.block, field: "name", value: text(Caps.nameCharacters + 1)) != nil)
    #expect(Caps.violation(.todo, field: "notes", value: text(Caps.notesCharacters)) == nil)
    #expect(Caps.violation(.todo, field: "notes", value: text(Caps.notesCharacters + 1)) != nil)
    #expect(Caps.violation(.project, field: "memo", value: text(Caps.notesCharacters + 1)) != nil)
    let tags = (1...Caps.tagsPerTodo).map { "t\($0)" }
    #expect(Caps.violation(.todo, field: "tags", value: .text(tags.joined(separator: " "))) == nil)
    // More tags than a todo may have are what a merge of two machines' tags may make: merged
    // (and cut by the sync), not set aside; a tag too long, or tags past the free text's cap, are.
    #expect(Caps.violation(.todo, field: "tags", value: .text((tags + ["more"]).joined(separator: " "))) == nil)
    #expect(
      Caps.violation(.todo, field: "tags", value: .text("a " + String(repeating: "t", count: Caps.tagCharacters + 1)))
        == "a tag longer than \(Caps.tagCharacters) characters")
    let endless = (0..<30_000).map { "t\($0)" }.joined(separator: " ")
    #expect(Caps.violation(.todo, field: "tags", value: .text(endless)) == "tags longer than \(Caps.notesCharacters) characters")
    #expect(Caps.violation(.todo, field: "priority", value: .integer(.max)) == nil)
  }

  @Test("a payload over the byte cap or with too many operations is refused before decoding")
  func payloadCaps() throws {
    let device = RowID.random()
    let operations = (0...Caps.operationsPerRecord).map { _ in
      SyncOperation(.todo, row: RowID.random(), .delete, stamp: Stamp(clock: 1, device: device))
    }
    #expect(throws: CoreError.self) {
      try SyncPayload.decode(SyncPayload.encode(command: "x", operations), device: device)
    }
    let fits = try SyncPayload.decode(
      SyncPayload.encode(command: "x", Array(operations.dropFirst())), device: device)
    #expect(fits.operations.count == Caps.operationsPerRecord)
    let padded = SyncPayload.encode(command: "x", []) + String(repeating: " ", count: Caps.payloadBytes)
    #expect(throws: CoreError.self) { try SyncPayload.decode(padded, device: device) }
  }

  @Test("pushed payloads are split to stay under the byte and operation caps, and read back whole")
  func chunks() throws {
    let device = RowID.random()
    let notes = String(repeating: "\u{1F600}", count: Caps.notesCharacters)  // 4 bytes each
    let operations = (0..<30).map { index in
      SyncOperation(
        .todo, row: RowID.random(), .update(field: "notes", value: .text(notes)),
        stamp: Stamp(clock: Int64(index), device: device))
    }
    let chunks = SyncPayload.chunks(command: "edit", operations)
    #expect(chunks.count > 1)
    #expect(chunks.allSatisfy { $0.payload.utf8.count <= Caps.plainPayloadBytes })
    #expect(chunks.map(\.range).flatMap { Array($0) } == Array(operations.indices))
    let decoded = try chunks.flatMap { try SyncPayload.decode($0.payload, device: device).operations }
    #expect(decoded == operations)
    let small = (0..<(Caps.operationsPerRecord * 2 + 1)).map { index in
      SyncOperation(.todo, row: RowID.random(), .delete, stamp: Stamp(clock: Int64(index), device: device))
    }
    #expect(SyncPayload.chunks(command: "x", small).map(\.range.count) == [Caps.operationsPerRecord, Caps.operationsPerRecord, 1])
    #expect(SyncPayload.chunks(command: "x", []).isEmpty)
  }

  @Test("import refuses notes over the cap and more tags than the cap")
  func importCaps() throws {
    let day = try #require(Day(iso: "2026-01-05"))
    #expect(throws: CoreError.self) {
      try ImportedTodo(
        uuid: RowID.random(), title: "x", priority: .mid, day: day,
        notes: String(repeating: "n", count: Caps.notesCharacters + 1))
    }
    #expect(throws: CoreError.self) {
      try ImportedTodo(
        uuid: RowID.random(), title: "x", priority: .mid, day: day,
        tags: (0...Caps.tagsPerTodo).map { "t\($0)" })
    }
    let ok = try ImportedTodo(
      uuid: RowID.random(), title: "x", priority: .mid, day: day,
      notes: String(repeating: "n", count: Caps.notesCharacters), tags: ["a"])
    #expect(ok.notes?.count == Caps.notesCharacters)
  }

  @Test("tags merged past the cap keep the first 100 in their stored order, whatever order they come in")
  func cappedTags() {
    let hundred = (0..<Caps.tagsPerTodo).map { String(format: "t%03d", $0) }
    #expect(Caps.cappedTags([]) == ([], []))
    #expect(Caps.cappedTags(["b", "a", "b"]) == (["a", "b"], []))
    #expect(Caps.cappedTags(hundred.reversed()) == (hundred, []))
    let over = hundred + ["zz", "aa", "t050"]
    let (kept, dropped) = Caps.cappedTags(over.reversed())
    #expect(kept == ["aa"] + hundred.dropLast())
    #expect(dropped == ["t099", "zz"])
    // The same tags in any order: the same cut (each machine that merged them cuts alike).
    #expect(Caps.cappedTags(Array(over[50...] + over[..<50])) == (kept, dropped))
  }

  @Test("a tags text that may hold more than the cap: at least as many spaces as the cap, never fewer tags than that")
  func mayExceedTags() {
    let tags = { (count: Int) in (0..<count).map { "t\($0)" }.joined(separator: " ") }
    #expect(!Caps.mayExceedTags(nil))
    #expect(!Caps.mayExceedTags(""))
    #expect(!Caps.mayExceedTags(tags(Caps.tagsPerTodo)))
    #expect(Caps.mayExceedTags(tags(Caps.tagsPerTodo + 1)))
    // One-letter tags: 101 of them are 201 bytes, still past the length test.
    #expect(Caps.mayExceedTags((0..<(Caps.tagsPerTodo + 1)).map { _ in "a" }.joined(separator: " ")))
    #expect(!Caps.mayExceedTags((0..<Caps.tagsPerTodo).map { _ in "a" }.joined(separator: " ")))
  }
}
