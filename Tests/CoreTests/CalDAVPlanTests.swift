import Core
import Foundation
import Testing

/// The CalDAV sync's plan (issue 27) as a table: base, ootd now, server now → what each side
/// does, what both have after, and the conflicts, by the remote sync's per-field rule.
@Suite struct CalDAVPlanTests {
  static let base: Fields = [
    "title": .text("Read"), "priority": .integer(1), "day": .text("2026-11-22"), "done": .bool(false),
    "doneAt": .null, "dropped": .bool(false), "notes": .null, "tags": .null, "project": .text("ootd"),
    "block": .null,
  ]

  static func with(_ changes: Fields, _ fields: Fields = base) -> Fields { fields.merging(changes) { $1 } }
  /// The server's view: its project, block and tags read from CATEGORIES (CalDAVCategories).
  static func server(_ changes: Fields = [:]) -> Fields { with(changes) }

  static let earlier = Date(timeIntervalSince1970: 1_000_000)
  static let later = Date(timeIntervalSince1970: 2_000_000)

  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let base: Fields?
    let local: Fields?
    let server: Fields?
    var localChanged = CalDAVPlanTests.earlier
    var serverChanged = CalDAVPlanTests.later
    let localAction: CalDAVPlan.Action
    let serverAction: CalDAVPlan.Action
    let merged: Fields?
    var conflicts: [SyncConflict.Kind] = []
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(name: "nothing changed", base: base, local: base, server: server(), localAction: .keep, serverAction: .keep, merged: base),
    Row(name: "new in ootd", base: nil, local: base, server: nil, localAction: .keep, serverAction: .create(base), merged: base),
    Row(
      name: "new on the server", base: nil, local: nil, server: server(),
      localAction: .create(base), serverAction: .keep, merged: base),
    Row(
      name: "ticked on the phone", base: base, local: base,
      server: server(["done": .bool(true), "doneAt": .text("20261122T083000Z")]),
      localAction: .update(with(["done": .bool(true), "doneAt": .text("20261122T083000Z")])), serverAction: .keep,
      merged: with(["done": .bool(true), "doneAt": .text("20261122T083000Z")])),
    Row(
      name: "retitled in ootd", base: base, local: with(["title": .text("Read SICP")]), server: server(),
      localAction: .keep, serverAction: .update(with(["title": .text("Read SICP")])),
      merged: with(["title": .text("Read SICP")])),
    Row(
      name: "project changed in ootd (CATEGORIES)", base: base, local: with(["project": .text("home")]), server: server(),
      localAction: .keep, serverAction: .update(with(["project": .text("home")])), merged: with(["project": .text("home")])),
    Row(
      name: "project changed on the phone (CATEGORIES)", base: base, local: base, server: server(["project": .text("home")]),
      localAction: .update(with(["project": .text("home")])), serverAction: .keep, merged: with(["project": .text("home")])),
    Row(
      name: "project and a tag taken off on the phone, a block added",
      base: with(["tags": .text("bug work")]), local: with(["tags": .text("bug work")]),
      server: server(["project": .null, "tags": .text("work"), "block": .text("blog")]),
      localAction: .update(with(["project": .null, "tags": .text("work"), "block": .text("blog")])), serverAction: .keep,
      merged: with(["project": .null, "tags": .text("work"), "block": .text("blog")])),
    Row(
      name: "project moved in ootd, tag added on the phone", base: base, local: with(["project": .text("home")]),
      server: server(["tags": .text("errand")]),
      localAction: .update(with(["project": .text("home"), "tags": .text("errand")])),
      serverAction: .update(with(["project": .text("home"), "tags": .text("errand")])),
      merged: with(["project": .text("home"), "tags": .text("errand")])),
    Row(
      name: "different fields on each side", base: base, local: with(["title": .text("Read SICP")]),
      server: server(["day": .text("2026-11-24")]),
      localAction: .update(with(["title": .text("Read SICP"), "day": .text("2026-11-24")])),
      serverAction: .update(with(["title": .text("Read SICP"), "day": .text("2026-11-24")])),
      merged: with(["title": .text("Read SICP"), "day": .text("2026-11-24")])),
    Row(
      name: "same field, the server's later", base: base, local: with(["title": .text("A")]),
      server: server(["title": .text("B")]),
      localAction: .update(with(["title": .text("B")])), serverAction: .keep, merged: with(["title": .text("B")]),
      conflicts: [.sameField]),
    Row(
      name: "same field, ootd's later", base: base, local: with(["title": .text("A")]), server: server(["title": .text("B")]),
      localChanged: later, serverChanged: earlier,
      localAction: .keep, serverAction: .update(with(["title": .text("A")])), merged: with(["title": .text("A")]),
      conflicts: [.sameField]),
    Row(
      name: "same change on both sides", base: base, local: with(["title": .text("A")]), server: server(["title": .text("A")]),
      localAction: .keep, serverAction: .keep, merged: with(["title": .text("A")])),
    Row(name: "deleted in ootd", base: base, local: nil, server: server(), localAction: .keep, serverAction: .delete, merged: nil),
    Row(name: "deleted on the server", base: base, local: base, server: nil, localAction: .delete, serverAction: .keep, merged: nil),
    Row(name: "deleted on both", base: base, local: nil, server: nil, localAction: .keep, serverAction: .keep, merged: nil),
    Row(
      name: "deleted in ootd, edited on the server", base: base, local: nil, server: server(["title": .text("B")]),
      localAction: .keep, serverAction: .delete, merged: nil, conflicts: [.editOfDeleted]),
    Row(
      name: "deleted on the server, edited in ootd", base: base, local: with(["title": .text("A")]), server: nil,
      localAction: .delete, serverAction: .keep, merged: nil, conflicts: [.editOfDeleted]),
    Row(
      name: "on both, never synced (a create whose answer was lost)", base: nil, local: base, server: server(),
      localAction: .keep, serverAction: .keep, merged: base),
  ]

  @Test(arguments: rows)
  func decide(row: Row) {
    let decision = CalDAVPlan.decide(
      CalDAVPlan.Input(
        uuid: "u", base: row.base, local: row.local, localChanged: row.localChanged, server: row.server,
        serverChanged: row.serverChanged))
    #expect(decision.local == row.localAction)
    #expect(decision.server == row.serverAction)
    #expect(decision.merged == row.merged)
    #expect(decision.conflicts.map(\.kind) == row.conflicts)
  }

  @Test func conflictWordsAreTheRemoteSyncs() throws {
    let decision = CalDAVPlan.decide(
      CalDAVPlan.Input(
        uuid: "u", base: Self.base, local: Self.with(["priority": .integer(0)]), localChanged: Self.earlier,
        server: Self.server(["priority": .integer(2)]), serverChanged: Self.later))
    let conflict = try #require(decision.conflicts.first)
    let report = SyncConflictReport(conflict: conflict, name: "Read", number: 3)
    #expect(report.kept.words == "low")
    #expect(report.lost.words == "high")
    #expect(report.subject == "#3 'Read'")
  }
}
