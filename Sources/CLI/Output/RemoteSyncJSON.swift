import ArgumentParser
import Core
import Foundation
import Remote
import Storage
import UseCases

/// `remote sync --json`: `{"changed","conflictList","conflicts","device","pulled","pushed",
/// "renumbered","ruleConflicts","setAside"}`.
struct SyncJSON: JSONShape {
  let summary: RemoteSyncRun.Summary
  init(_ summary: RemoteSyncRun.Summary) { self.summary = summary }

  /// A conflict the pull resolved: `{"entity","field","kept","kind","lost","name","uuid"}`.
  struct Conflict: JSONShape {
    let report: SyncConflictReport

    func write(to writer: inout JSONStreamWriter) {
      let conflict = report.conflict
      writer.beginObject()
      writer.key("entity")
      writer.string(conflict.entity.rawValue)
      writer.key("field")
      writer.string(conflict.field)
      writer.key("kept")
      writer.string(report.kept.words)
      writer.key("kind")
      writer.string(conflict.kind.rawValue)
      writer.key("lost")
      writer.string(report.lost.words)
      writer.key("name")
      writer.string(report.name)
      writer.key("rule")
      writer.string(report.rule.rawValue)
      writer.key("uuid")
      writer.string(conflict.row)
      writer.endObject()
    }
  }

  /// A todo whose number changed here: `{"from","title","to","uuid"}`.
  struct Renumbered: JSONShape {
    let renumbering: SyncRenumbering

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("from")
      writer.integer(renumbering.from)
      writer.key("title")
      writer.string(renumbering.title)
      writer.key("to")
      writer.integer(renumbering.to)
      writer.key("uuid")
      writer.string(renumbering.uuid)
      writer.endObject()
    }
  }

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("changed")
    writer.integer(summary.changed)
    writer.key("clockSkewSeconds")
    // To the millisecond; + 0 makes a -0 a 0.
    writer.double((summary.clockSkewSeconds * 1000).rounded() / 1000 + 0)
    writer.key("conflictList")
    writer.array(summary.conflicts.map(Conflict.init))
    writer.key("conflicts")
    writer.integer(summary.conflicts.count)
    writer.key("device")
    writer.string(summary.device)
    writer.key("publishedDays")
    writer.integer(summary.publishedDays)
    writer.key("pulled")
    writer.integer(summary.pulled)
    writer.key("pulledBytes")
    writer.integer(summary.pulledBytes)
    writer.key("pushed")
    writer.integer(summary.pushed)
    writer.key("pushRefused")
    writer.bool(summary.pushRefused)
    writer.key("renumbered")
    writer.array(summary.renumbered.map(Renumbered.init))
    writer.key("ruleConflicts")
    writer.strings(summary.ruleConflicts)
    writer.key("setAside")
    writer.array(summary.setAside.map(SetAsideJSON.init))
    writer.endObject()
  }
}

/// `remote status --json`: `{"device","firstSync","lastSync","server","setAside",
/// "waitingChanges","waitingOperations"}`.
struct StatusJSON: JSONShape {
  let server: String?
  let device: String?
  let deviceName: String?
  let lastSync: String?
  let waitingChanges: Int
  let waitingOperations: Int
  let firstSync: Bool
  let setAside: [SetAsideRow]

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("device")
    writer.string(device)
    writer.key("deviceName")
    writer.string(deviceName)
    writer.key("firstSync")
    writer.bool(firstSync)
    writer.key("lastSync")
    writer.string(lastSync)
    writer.key("server")
    writer.string(server)
    writer.key("setAside")
    writer.array(setAside.map(SetAsideJSON.init))
    writer.key("waitingChanges")
    writer.integer(waitingChanges)
    writer.key("waitingOperations")
    writer.integer(waitingOperations)
    writer.endObject()
  }
}

/// A server row set aside, in `remote sync --json` and `remote status --json`: its server
/// position, device and reason (`{"device","id","reason"}`).
struct SetAsideJSON: JSONShape {
  let row: SetAsideRow

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("device")
    writer.string(row.device)
    writer.key("id")
    writer.integer(row.seq)
    writer.key("reason")
    writer.string(row.reason)
    writer.endObject()
  }
}
