import Core
import UseCases

/// `caldav sync --json`: `{"conflictList","conflicts","created","deleted","fullListing","notes",
/// "pulled","pushed","removed","ruleConflicts","updated"}`.
struct CalDAVSyncJSON: JSONShape {
  let summary: CalDAVSyncRun.Summary

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("conflictList")
    writer.array(summary.conflicts.map(SyncJSON.Conflict.init))
    writer.key("conflicts")
    writer.integer(summary.conflicts.count)
    writer.key("created")
    writer.integer(summary.createdOnServer)
    writer.key("deleted")
    writer.integer(summary.deleted)
    writer.key("fullListing")
    writer.bool(summary.fullListing)
    writer.key("notes")
    writer.strings(summary.notes)
    writer.key("pulled")
    writer.integer(summary.pulled)
    writer.key("pushed")
    writer.integer(summary.pushed)
    writer.key("removed")
    writer.integer(summary.deletedOnServer)
    writer.key("ruleConflicts")
    writer.strings(summary.ruleConflicts)
    writer.key("updated")
    writer.integer(summary.updatedOnServer)
    writer.endObject()
  }
}

/// `caldav status --json`: `{"displayName","lastSync","linked","url","user","waiting"}`.
struct CalDAVStatusJSON: JSONShape {
  let url: String?
  let user: String?
  let displayName: String?
  let lastSync: String?
  let linked: Int
  let waiting: Int

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("displayName")
    writer.string(displayName)
    writer.key("lastSync")
    writer.string(lastSync)
    writer.key("linked")
    writer.integer(linked)
    writer.key("url")
    writer.string(url)
    writer.key("user")
    writer.string(user)
    writer.key("waiting")
    writer.integer(waiting)
    writer.endObject()
  }
}
