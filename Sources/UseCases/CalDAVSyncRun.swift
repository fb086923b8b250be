import Core
import Foundation
import Zone

/// One `ootd caldav sync` (issue 27): makes ootd's todos in a window and the VTODOs of a CalDAV
/// collection equal. It knows the two sides through Core's ``CalDAVStore`` and
/// ``CalendarCollection`` only, and reads and writes VTODOs through ``CalendarObjectMapping``;
/// the CLI hands it the database, the client, the mapping, the clock and where its test fault
/// points are (`reached`).
///
/// The steps, each safe to stop at (a killed process, a server gone mid-sync):
/// 1. what changed on the server since the last sync's token (or a full listing), and the
///    bodies of the resources whose etag is not the one this machine recorded;
/// 2. the plan, todo by todo (``CalDAVPlan``: the remote sync's per-field merge);
/// 3. everything ootd takes from the server, applied as ONE journal change together with the
///    states of the todos that need no push and the new token (one transaction: stopped
///    before it, nothing changed here);
/// 4. each push (create with `If-None-Match: *`, update and delete with `If-Match`), its todo's
///    state recorded right after the server took it. Stopped between the two, the next sync
///    finds the resource (its `UID` is the todo's uuid) equal to the todo and only records it:
///    nothing is pushed twice. A 412 fetches the resource, merges again and retries, a bounded
///    number of times; what that merge takes from the server joins step 3's journal change (one
///    sync is one change to undo).
public struct CalDAVSyncRun {
  public let store: any CalDAVStore
  public let collection: any CalendarCollection
  /// VTODO text to fields and back (Interchange's, handed in by the CLI).
  public let mapping: any CalendarObjectMapping
  /// The days whose todos are pushed (the backlog too); what the server holds is pulled
  /// whatever its day.
  public let window: DayRange
  public let now: Date
  public let today: Day
  public let timeZone: any ZoneRules
  /// Written in `PRODID`.
  public let productVersion: String
  /// Called at each named step (the CLI's test fault points; nothing in a release build).
  public let reached: (String) -> Void

  public init(
    store: any CalDAVStore, collection: any CalendarCollection, mapping: any CalendarObjectMapping, window: DayRange,
    now: Date, today: Day, timeZone: any ZoneRules, productVersion: String, reached: @escaping (String) -> Void = { _ in }
  ) {
    self.store = store
    self.collection = collection
    self.mapping = mapping
    self.window = window
    self.now = now
    self.today = today
    self.timeZone = timeZone
    self.productVersion = productVersion
    self.reached = reached
  }

  /// The default window: from 30 days ago to 60 days ahead.
  public static func defaultWindow(today: Day) -> DayRange {
    try! DayRange(from: today.adding(days: -30), to: today.adding(days: 60))
  }

  /// How many pushed todos' states one transaction records.
  public static let recordBatch = 200

  /// How many times one push meets a 412 before the sync gives up on it (until the next sync).
  public static let attempts = 3

  public struct Summary: Sendable {
    /// VTODOs created, updated or deleted on the server.
    public var pushed = 0
    /// Todos created or changed in ootd from the server.
    public var pulled = 0
    /// Todos removed in ootd because they were deleted on the server.
    public var deleted = 0
    public var createdOnServer = 0
    public var updatedOnServer = 0
    public var deletedOnServer = 0
    public var conflicts: [SyncConflictReport] = []
    /// Todos the pull left breaking a rule, mended: one sentence each.
    public var ruleConflicts: [String] = []
    /// What else to tell (a repeating VTODO taken as its next instance, an object skipped):
    /// server text inside, sanitise before a terminal.
    public var notes: [String] = []
    /// Whether the server sent a whole listing (no token, or the token refused).
    public var fullListing = false
    /// The journal entry of what was pulled, if anything.
    public var change: Int64?

    public init() {}
  }

  /// A server resource read and mapped.
  struct ServerSide {
    var object: CalendarObject
    var todo: CalDAVServerTodo
  }

  /// Why a sync stopped.
  public enum Failure: Error, Hashable, Sendable {
    case notLinked
  }

  public func run() async throws -> Summary {
    var summary = Summary()
    guard let link = try store.calDAVLink() else { throw Failure.notLinked }
    var states = try store.calDAVStates()
    let names = try store.calDAVCategoryNames()
    var uuidByHref: [String: String] = [:]
    for state in states.values { uuidByHref[state.href] = state.uuid }

    // 1. What changed on the server.
    let changes = try await collection.changes(since: link.syncToken)
    reached("caldav-listed")
    summary.fullListing = changes.isFullListing
    var removed = Set<String>()
    if changes.isFullListing {
      let listed = Set(changes.changed.map(\.href))
      for state in states.values where !listed.contains(state.href) { removed.insert(state.href) }
    } else {
      for href in changes.removed where uuidByHref[href] != nil { removed.insert(href) }
    }
    let toFetch = changes.changed.filter { resource in
      guard let uuid = uuidByHref[resource.href], let state = states[uuid] else { return true }
      return state.etag != resource.etag
    }.map(\.href)
    var server: [String: ServerSide] = [:]
    if !toFetch.isEmpty {
      let objects = try await collection.fetch(toFetch)
      reached("caldav-fetched")
      let answered = Set(objects.map(\.href))
      for href in toFetch where !answered.contains(href) && uuidByHref[href] != nil { removed.insert(href) }
      for object in objects {
        guard let side = read(object, &summary) else { continue }
        let uuid = uuidByHref[object.href] ?? Self.uuid(uid: side.todo.uid)
        if let state = states[uuid], state.href != object.href {
          summary.notes.append("skipped \(object.href): its UID is that of \(state.href)")
          continue
        }
        server[uuid] = side
      }
    }

    // 2. The plan.
    let locals = Dictionary(
      try store.calDAVTodos(window: window).map { todo in
        var todo = todo
        todo.fields = CalDAVPlan.normalized(todo.fields)
        return (todo.uuid, todo)
      }) { a, _ in a }
    for (uuid, state) in states { states[uuid]?.base = CalDAVPlan.normalized(state.base) }
    var uuids = Set(locals.keys).union(states.keys).union(server.keys)
    var inputs: [CalDAVPlan.Input] = []
    var bothChanged: [String] = []
    for uuid in uuids {
      let state = states[uuid]
      let local = locals[uuid]?.fields
      let serverFields: Fields?
      if let side = server[uuid] {
        serverFields = CalDAVPlan.normalized(fields(side, base: state?.base, local: local, names: names))
      } else if let state {
        serverFields = removed.contains(state.href) ? nil : state.base
      } else {
        serverFields = nil
      }
      if let state, local == state.base, serverFields == state.base { continue }
      if local == nil && state == nil && serverFields == nil { continue }
      if let base = state?.base, local != base, serverFields != base { bothChanged.append(uuid) }
      inputs.append(
        CalDAVPlan.Input(
          uuid: uuid, base: state?.base, local: local, localChanged: now, server: serverFields,
          serverChanged: server[uuid]?.todo.lastModified ?? now))
    }
    if !bothChanged.isEmpty {
      let changed = try store.calDAVLastChanges(uuids: bothChanged)
      for index in inputs.indices { inputs[index].localChanged = changed[inputs[index].uuid] ?? now }
    }
    uuids = []
    let decisions = inputs.sorted { $0.uuid < $1.uuid }.map(CalDAVPlan.decide)

    // 3. The pull: one journal change, with the states that need no push.
    var writes: [CalDAVLocalWrite] = []
    var settled: [CalDAVTodoState] = []
    var forget: [String] = []
    for decision in decisions {
      summary.conflicts += decision.conflicts.map {
        SyncConflictReport(
          conflict: $0, name: (decision.merged ?? locals[decision.uuid]?.fields)?[todo: .title]?.text,
          number: locals[decision.uuid]?.id)
      }
      switch decision.local {
      case .keep: break
      case .create(let fields): writes.append(.create(uuid: decision.uuid, fields))
      case .update(let fields): writes.append(.update(uuid: decision.uuid, fields))
      case .delete: writes.append(.delete(uuid: decision.uuid))
      }
      guard decision.server == .keep else { continue }
      if let merged = decision.merged {
        let href = server[decision.uuid]?.object.href ?? states[decision.uuid]?.href
        let etag = server[decision.uuid]?.object.etag ?? states[decision.uuid]?.etag
        if let href, let etag { settled.append(CalDAVTodoState(uuid: decision.uuid, href: href, etag: etag, base: merged)) }
      } else if states[decision.uuid] != nil {
        forget.append(decision.uuid)
      }
    }
    let pulled = try store.applyCalDAVPull(
      writes, states: settled, forget: forget, syncToken: changes.syncToken, joining: nil, today: today, now: now)
    reached("caldav-pulled")
    summary.pulled += pulled.created + pulled.updated
    summary.deleted += pulled.deleted
    summary.ruleConflicts += pulled.ruleConflicts
    summary.change = pulled.change
    for state in settled { states[state.uuid] = state }
    for uuid in forget { states[uuid] = nil }

    // A pulled todo the rules mended is pushed as mended.
    var pushes = decisions.filter { $0.server != .keep }
    if !pulled.ruleConflicts.isEmpty {
      let pulledUUIDs = decisions.filter { $0.local != .keep && $0.server == .keep }.map(\.uuid)
      for todo in try store.calDAVTodos(uuids: pulledUUIDs) {
        guard let decision = decisions.first(where: { $0.uuid == todo.uuid }),
          let merged = decision.merged, CalDAVPlan.normalized(todo.fields) != CalDAVPlan.normalized(merged)
        else { continue }
        pushes.append(
          CalDAVPlan.Decision(uuid: todo.uuid, local: .keep, server: .update(todo.fields), merged: todo.fields, conflicts: []))
      }
    }

    // 4. The pushes. An update needs the server's body (to keep what ootd does not know).
    let unread = pushes.filter {
      if case .update = $0.server { return server[$0.uuid] == nil } else { return false }
    }.compactMap { states[$0.uuid]?.href }
    if !unread.isEmpty {
      for object in try await collection.fetch(unread) {
        guard let uuid = uuidByHref[object.href], let side = read(object, &summary) else { continue }
        server[uuid] = side
      }
    }
    // The states are recorded a batch at a time (one transaction each): a sync stopped before a
    // batch is recorded finds those resources equal to their todos next time and only records
    // them (their UID is the todo's uuid), pushing nothing again.
    let createdAt = Dictionary(locals.values.map { ($0.uuid, $0.createdAt) }) { a, _ in a }
    var recorded: [CalDAVStateChange] = []
    for decision in pushes {
      if let change = try await push(
        decision, state: states[decision.uuid], server: server[decision.uuid],
        createdAt: createdAt[decision.uuid] ?? now, syncToken: changes.syncToken, names: names, &summary)
      {
        recorded.append(change)
      }
      reached("caldav-pushed")
      if recorded.count >= Self.recordBatch {
        try store.recordCalDAVStates(recorded)
        recorded = []
      }
    }
    try store.recordCalDAVStates(recorded)

    // The token: past this sync's own pushes when nothing else came in between.
    var token = changes.syncToken
    if summary.pushed > 0, token != nil {
      let after = try await collection.changes(since: token)
      let known = try store.calDAVStates()
      let ours = Dictionary(known.values.map { ($0.href, $0.etag) }) { a, _ in a }
      if !after.isFullListing, after.removed.isEmpty, after.changed.allSatisfy({ ours[$0.href] == $0.etag }) {
        token = after.syncToken
      }
    }
    try store.finishCalDAVSync(syncToken: token, ctag: nil, now: now)
    return summary
  }

  /// Pushes one decision, answering a 412 by fetching, merging again and retrying. Returns the
  /// todo's state to record (nil: gone from both sides), or nothing when the retries ran out.
  func push(
    _ first: CalDAVPlan.Decision, state: CalDAVTodoState?, server: ServerSide?, createdAt: Date,
    syncToken: String?, names: CalDAVCategories.Names, _ summary: inout Summary
  ) async throws -> CalDAVStateChange? {
    var decision = first
    var server = server
    for attempt in 1...Self.attempts {
      do {
        switch decision.server {
        case .keep:
          if let merged = decision.merged, let server {
            return CalDAVStateChange(
              uuid: decision.uuid,
              state: CalDAVTodoState(uuid: decision.uuid, href: server.object.href, etag: server.object.etag, base: merged))
          } else if decision.merged == nil {
            return CalDAVStateChange(uuid: decision.uuid, state: nil)
          }
          return nil
        case .create(let fields):
          let ics = mapping.render(fields, uuid: decision.uuid, createdAt: createdAt, now: now, productVersion: productVersion)
          let resource = try await collection.create(name: decision.uuid + ".ics", ics: ics)
          summary.pushed += 1
          summary.createdOnServer += 1
          return CalDAVStateChange(
            uuid: decision.uuid, state: CalDAVTodoState(uuid: decision.uuid, href: resource.href, etag: resource.etag, base: fields))
        case .update(let fields):
          guard let side = server else {
            // Gone from the server meanwhile: made again.
            decision.server = .create(fields)
            continue
          }
          let old = self.fields(side, base: state?.base, local: fields, names: names)
          let ics = try mapping.patch(side.object.ics, uuid: decision.uuid, old: old, new: fields, now: now)
          let resource = try await collection.update(href: side.object.href, ifMatch: side.object.etag, ics: ics)
          summary.pushed += 1
          summary.updatedOnServer += 1
          return CalDAVStateChange(
            uuid: decision.uuid, state: CalDAVTodoState(uuid: decision.uuid, href: resource.href, etag: resource.etag, base: fields))
        case .delete:
          let href = server?.object.href ?? state?.href
          let etag = server?.object.etag ?? state?.etag
          if let href, let etag {
            try await collection.delete(href: href, ifMatch: etag)
            summary.pushed += 1
            summary.deletedOnServer += 1
          }
          return CalDAVStateChange(uuid: decision.uuid, state: nil)
        }
      } catch let error as CalendarCollectionError where attempt < Self.attempts && Self.isStale(error) {
        // Changed (or, for a create, made; or deleted) on the server since it was read: read it,
        // merge again.
        let href: String
        switch error {
        case .preconditionFailed(let path), .notFound(let path): href = path
        default: href = ""
        }
        let target = server?.object.href ?? state?.href ?? href
        let objects = try await collection.fetch([target])
        server = objects.first.flatMap { read($0, &summary) }
        let local = try store.calDAVTodos(uuids: [decision.uuid]).first
        let input = CalDAVPlan.Input(
          uuid: decision.uuid, base: state?.base, local: local?.fields,
          localChanged: try store.calDAVLastChanges(uuids: [decision.uuid])[decision.uuid] ?? now,
          server: server.map { fields($0, base: state?.base, local: local?.fields, names: names) },
          serverChanged: server?.todo.lastModified ?? now)
        decision = CalDAVPlan.decide(input)
        summary.conflicts += decision.conflicts.map {
          SyncConflictReport(conflict: $0, name: (decision.merged ?? local?.fields)?[todo: .title]?.text, number: local?.id)
        }
        if decision.local != .keep {
          let write: CalDAVLocalWrite
          switch decision.local {
          case .create(let fields): write = .create(uuid: decision.uuid, fields)
          case .update(let fields): write = .update(uuid: decision.uuid, fields)
          default: write = .delete(uuid: decision.uuid)
          }
          // Joined to the sync's pull: one sync is one change to undo.
          let result = try store.applyCalDAVPull(
            [write], states: [], forget: [], syncToken: syncToken, joining: summary.change, today: today, now: now)
          summary.change = result.change ?? summary.change
          summary.pulled += result.created + result.updated
          summary.deleted += result.deleted
          summary.ruleConflicts += result.ruleConflicts
        }
      }
    }
    return nil
  }

  /// How many todos wait for the next sync: those of `window` (and the backlog) made or
  /// changed since the last sync, and those deleted since.
  public static func waiting(_ store: any CalDAVStore, window: DayRange) throws -> Int {
    let states = try store.calDAVStates()
    var seen = Set<String>()
    var count = 0
    for todo in try store.calDAVTodos(window: window) {
      seen.insert(todo.uuid)
      guard let state = states[todo.uuid] else { count += 1; continue }
      if CalDAVPlan.normalized(todo.fields) != CalDAVPlan.normalized(state.base) { count += 1 }
    }
    return count + states.keys.filter { !seen.contains($0) }.count
  }

  /// Whether a push failed because the server's resource is not the one read: a 412, or a 404.
  static func isStale(_ error: CalendarCollectionError) -> Bool {
    switch error {
    case .preconditionFailed, .notFound: return true
    default: return false
    }
  }

  /// A resource read as a VTODO, or nil (said in the notes) when it is not one ootd can read.
  func read(_ object: CalendarObject, _ summary: inout Summary) -> ServerSide? {
    do {
      let todo = try mapping.read(object.ics, timeZone: timeZone, today: today, now: now)
      if let repetition = todo.repetition {
        let title = todo.fields[todo: .title]?.text ?? ""
        let rule = repetition.rule.prefix(80)
        let day = todo.fields[todo: .day]?.text ?? "today"
        switch repetition.next {
        case .instance: summary.notes.append("'\(title)' repeats (\(rule)): taken as its instance of \(day)")
        case .ended: summary.notes.append("'\(title)' repeats (\(rule)) and has ended: taken as its last instance, \(day)")
        case .unsupported(let why):
          summary.notes.append("'\(title)' repeats (\(rule)) by a rule ootd cannot follow (\(why)): taken on its DTSTART, \(day)")
        }
      }
      for adjustment in todo.adjustments { summary.notes.append("\(object.href): \(adjustment)") }
      return ServerSide(object: object, todo: todo)
    } catch {
      summary.notes.append("skipped \(object.href): \(error)")
      return nil
    }
  }

  /// The server side's fields, its categories read as project, block and tags against what
  /// ootd wrote there last (the base, else the todo's) and this database's names.
  ///
  /// A VTODO completed on the phone is on the day it was completed (``TodoRules/doneWorkDay``,
  /// as an import's and a closed GitHub issue's; tryout 19 F7: a phone's tick of a backlog item
  /// was moved to today as a conflict): one without a DTSTART (the backlog) whenever it is read
  /// (the server keeps no day for it, so every read says the same), one planned for a later day
  /// only when it was not done in the reference (a completion new since ootd last wrote it, never
  /// a todo done long ago and read again: its day stays as the reference has it).
  func fields(_ side: ServerSide, base: Fields?, local: Fields?, names: CalDAVCategories.Names) -> Fields {
    let reference = base ?? local
    var fields = side.todo.fields(reference: reference, names: names)
    let planned = fields[todo: .day]?.text.flatMap { Day(iso: $0) }
    if side.todo.repetition == nil, fields[todo: .done] == .bool(true),
      planned == nil || reference?[todo: .done] != .bool(true),
      let at = fields[todo: .doneAt]?.text.flatMap({ Timestamp.date($0, .compact) }),
      let day = TodoRules.doneWorkDay(planned: planned, done: Day(at, in: timeZone), today: today)
    {
      fields[todo: .day] = .text(day.description)
    }
    return fields
  }

  /// The todo uuid of a VTODO `UID` made elsewhere: the uid itself when it is a uuid (any
  /// case), else a name-based uuid of it (the same every sync).
  static func uuid(uid: String) -> String {
    let lowered = uid.lowercased()
    return RowID.isValid(lowered) ? lowered : RowID.nameBased(uid, namespace: Array("ootd-caldav-uid".utf8))
  }
}
