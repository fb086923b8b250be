/// A value with the stamp of the change that set it.
public struct Stamped<Value: Hashable & Sendable>: Hashable, Sendable {
  public var value: Value
  public var stamp: Stamp

  public init(_ value: Value, _ stamp: Stamp) {
    self.value = value
    self.stamp = stamp
  }
}

/// One change as it travels between machines: a row created with all its fields, one field
/// set, or the row deleted, with the stamp it was made at. A todo's number (`id`) travels, so
/// that it is the same on every machine (``SyncMerge/isLocal(_:_:)``); a project's local id does
/// not.
public struct SyncOperation: Hashable, Sendable {
  /// What happens to the row.
  public enum Kind: Hashable, Sendable {
    case create(Fields)
    case update(field: String, value: FieldValue)
    case delete
  }

  public var entity: Entity
  public var row: String
  public var kind: Kind {
    didSet {
      fieldsText = nil
      ordered = nil
    }
  }
  public var stamp: Stamp
  /// A creation's fields as the text ``JSONText/object(_:)`` writes for them, when that text
  /// is at hand: the payload's own, kept by ``SyncPayload/decode(_:device:)`` when it is
  /// exactly that text (which its reading decides), so that the creation's journal row takes it
  /// rather than writing it again (issue 24). Not part of the operation's value (equal
  /// operations may differ in it); a new `kind` drops it.
  public var fieldsText: String?
  /// A creation's fields in increasing order of their names, when the payload carried them so
  /// (as ootd writes them): ``SyncPayload/decode(_:device:)`` reads them in that order, and the
  /// operations of one payload with the same names share one array of them, so that what is
  /// decided once for a set of names (which fields a row may carry, the insert that writes them)
  /// is not decided again for each row, nor each value looked up by name (issue 24). Not part
  /// of the operation's value; a new `kind` drops it.
  public var ordered: OrderedFields?
  /// An update's value before it, where the merge needs it (``SyncMerge/carriesOld(_:_:)``: a
  /// todo's tags, so that tags added and removed on two machines merge tag by tag, issue 24
  /// §3); nil otherwise, and in records of an ootd before it (which merge as one value).
  public var old: FieldValue?

  public init(_ entity: Entity, row: String, _ kind: Kind, stamp: Stamp, old: FieldValue? = nil) {
    self.entity = entity
    self.row = row
    self.kind = kind
    self.stamp = stamp
    self.old = old
  }

  public static func == (lhs: SyncOperation, rhs: SyncOperation) -> Bool {
    lhs.entity == rhs.entity && lhs.row == rhs.row && lhs.kind == rhs.kind && lhs.stamp == rhs.stamp
      && lhs.old == rhs.old
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(entity)
    hasher.combine(row)
    hasher.combine(kind)
    hasher.combine(stamp)
    hasher.combine(old)
  }

  /// The traveling form of a journal operation made at `stamp` (old values stay home, but for
  /// the fields that merge by what changed: ``SyncMerge/carriesOld(_:_:)``).
  public init(_ operation: JournalOperation, stamp: Stamp) {
    let kind: Kind
    var old: FieldValue?
    switch operation.action {
    case .create(let fields): kind = .create(fields.filter { !SyncMerge.isLocal(operation.entity, $0.key) })
    case .update(let field, let before, let new):
      kind = .update(field: field, value: new)
      if SyncMerge.carriesOld(operation.entity, field) { old = before }
    case .delete: kind = .delete
    }
    self.init(operation.entity, row: operation.row, kind, stamp: stamp, old: old)
  }
}

/// A creation's fields as two arrays: the names in increasing order (``Swift/String``'s), each
/// once, and their values in the same order (``SyncOperation/ordered``).
public struct OrderedFields: Sendable {
  public var names: [String]
  public var values: [FieldValue]

  public init(names: [String], values: [FieldValue]) {
    self.names = names
    self.values = values
  }
}

/// What a machine knows of one row for merging: whether it exists (a last-writer-wins register
/// set by creations and deletions: a deletion is a tombstone) and each field's value with the
/// stamp that set it. A deleted row keeps the fields edited after its creation, so that a later
/// creation (an undo of the deletion) merges with them exactly as everywhere else.
///
/// A todo's tags are one field, whose value is what the row shows, and a mark for each tag an
/// update carrying its old value added or took away (``tags``): whether it was added, and the
/// stamp of that change, so that tags merge tag by tag (``SyncMerge/mergeTags(old:new:stamp:into:isPending:)``).
public struct SyncRow: Hashable, Sendable {
  public var existence: Stamped<Bool>?
  public var fields: [String: Stamped<FieldValue>]
  /// A todo's tags by the last change that added (true) or took away (false) each one; a tag
  /// no such change touched is as the row's creation made it.
  public var tags: [String: Stamped<Bool>]

  public init(
    existence: Stamped<Bool>? = nil, fields: [String: Stamped<FieldValue>] = [:], tags: [String: Stamped<Bool>] = [:]
  ) {
    self.existence = existence
    self.fields = fields
    self.tags = tags
  }

  /// Whether the row is shown: created, and not deleted since.
  public var isAlive: Bool { existence?.value == true }

  /// The fields' values, when alive.
  public var visibleFields: Fields? {
    guard isAlive else { return nil }
    return fields.mapValues(\.value)
  }
}

/// A conflict the merge resolved, to tell the user.
public struct SyncConflict: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    /// The same field was changed on two machines: the later change won.
    case sameField = "same-field"
    /// A row deleted on one machine was edited on another: it stays deleted.
    case editOfDeleted = "edit-of-deleted"
    /// A project or block came from another machine under a name another row has here: it
    /// was not created here.
    case nameTaken = "name-taken"
    /// A tag was added to a todo on one machine and taken away on another: the later change
    /// won. `field` is `tags`; `kept` is the tag when it stays (else null), `lost` the other.
    case tag
  }

  /// Why the winner won, in truth (issue 24): a conflict line never says "the later" of a
  /// change that won by a clock running ahead or by the device-id tiebreak.
  public enum Rule: String, Hashable, Sendable {
    /// The winning change was made later (by the hybrid clock, within a minute of the server's).
    case later
    /// Its clock was more than a minute ahead of the server's: it counts as the later by its clock.
    case clockAhead = "clock-ahead"
    /// Both changes carry the same clock: the device ids broke the tie.
    case tie
  }

  public var kind: Kind
  public var entity: Entity
  public var row: String
  /// The field, for same-field conflicts.
  public var field: String?
  /// The value that won (same-field conflicts).
  public var kept: FieldValue?
  /// The value that lost.
  public var lost: FieldValue?
  /// The stamps of the winning and losing changes.
  public var winner: Stamp
  public var loser: Stamp

  public init(
    kind: Kind, entity: Entity, row: String, field: String? = nil, kept: FieldValue? = nil,
    lost: FieldValue? = nil, winner: Stamp, loser: Stamp
  ) {
    self.kind = kind
    self.entity = entity
    self.row = row
    self.field = field
    self.kept = kept
    self.lost = lost
    self.winner = winner
    self.loser = loser
  }
}

/// What merging one operation does to the row as this machine shows it.
public enum SyncEffect: Hashable, Sendable {
  /// Nothing visible changes.
  case none
  /// The row appears with these fields.
  case create(Fields)
  /// These fields change (name, old value, new value), sorted by name.
  case update([Change])
  /// The row disappears.
  case delete

  public struct Change: Hashable, Sendable {
    public var field: String
    public var old: FieldValue
    public var new: FieldValue
    public init(field: String, old: FieldValue, new: FieldValue) {
      self.field = field
      self.old = old
      self.new = new
    }
  }
}

/// The merge rule of syncing, as a pure function: per-field last writer wins, ordered by
/// ``Stamp`` (hybrid clock, then device id), a todo's tags per tag (``mergeTags(old:new:stamp:into:isPending:)``); a row's existence is a register of its own set by
/// creations and deletions, so an edit never brings a deleted row back, while a later creation
/// (an undo of the deletion) does. Merging is commutative, associative and idempotent: any
/// order of the same operations gives the same rows.
public enum SyncMerge {
  /// Whether a field stays on its machine: a project's local id. A todo's number travels like
  /// any field, so that a todo has the same number on every machine; when two todos claim one
  /// number, the pull renumbers one of them (``SyncRenumbering``), and the merge reports no
  /// conflict for it (numbers are given by machines, not typed by the user).
  public static func isLocal(_ entity: Entity, _ field: String) -> Bool {
    field == "id" && entity != .todo
  }

  /// The stamp a creation at `stamp` gives its field `field` of value `value`: `stamp`, but
  /// for a todo's number given before the first sync of the machine that made it (`firstSync`:
  /// a first sync's creation, of a row made before it), ``Stamp/number(_:)`` (issue 24): a todo
  /// numbered on two machines before they synced (the same `task export` imported on each)
  /// keeps the smaller of its numbers on every machine, whichever machine synced first, and a
  /// number two todos then claim goes to the smaller uuid (``SyncRenumbering``). Any change
  /// made since, a renumbering or a creation (an undone `rm`), carries its own stamp and wins
  /// over such a number.
  public static func creationStamp(
    _ entity: Entity, _ field: String, _ value: FieldValue, _ stamp: Stamp, firstSync: Bool
  ) -> Stamp {
    guard firstSync, entity == .todo, field == TodoField.id.rawValue, let number = value.integer else { return stamp }
    return .number(number)
  }

  /// The result of ``merge(_:into:isPending:firstSync:)``.
  public struct Outcome: Hashable, Sendable {
    public var row: SyncRow
    public var effect: SyncEffect
    public var conflicts: [SyncConflict]
  }

  /// The fields a row never seen here (a first pull's thousands) gets from its creation
  /// `operation`, each stamped as the creation, as is its existence: every field that travels
  /// (``merge(_:into:isPending:firstSync:)`` of the creation into no row, which is what its general case
  /// gives, without inserting the fields one by one into a new dictionary and copying them out
  /// again). Nil when `operation` is no creation.
  public static func created(_ operation: SyncOperation) -> Fields? {
    guard case .create(let fields) = operation.kind else { return nil }
    return fields.keys.contains { isLocal(operation.entity, $0) }
      ? fields.filter { !isLocal(operation.entity, $0.key) } : fields
  }

  /// Merges `operation` into `row` (nil: the row was never seen). `isPending` tells whether a
  /// stamp is of a local change not yet pushed: no other machine can have seen it, so a
  /// remote change that meets it is a conflict, whichever wins. A conflict is reported only
  /// there (issue 24): a remote change meeting a change already on the server was made on a
  /// machine that pulled that change before pushing its own, and reported it then.
  ///
  /// `firstSync`: `operation` is a first sync's creation of a row made before that sync (its
  /// todo's number is ranked by ``creationStamp(_:_:_:_:firstSync:)``).
  public static func merge(
    _ operation: SyncOperation, into row: SyncRow?, isPending: (Stamp) -> Bool = { _ in false },
    firstSync: Bool = false
  ) -> Outcome {
    let stamp = operation.stamp
    // A row never seen (a first pull's thousands), but for a first sync's creation (whose todo
    // number ranks as ``creationStamp(_:_:_:_:firstSync:)`` says): ``created(_:)``.
    if row == nil, !firstSync, let kept = created(operation) {
      return Outcome(
        row: SyncRow(existence: Stamped(true, stamp), fields: kept.mapValues { Stamped($0, stamp) }),
        effect: .create(kept), conflicts: [])
    }
    var state = row ?? SyncRow()
    let before = state
    var conflicts: [SyncConflict] = []
    switch operation.kind {
    case .create(let fields):
      if state.existence.map({ stamp > $0.stamp }) ?? true { state.existence = Stamped(true, stamp) }
      for (field, value) in fields where !isLocal(operation.entity, field) {
        let given = creationStamp(operation.entity, field, value, stamp, firstSync: firstSync)
        let current = state.fields[field]
        if let current, current.stamp >= given { continue }
        let merged = carriesOld(operation.entity, field) ? tags(value, since: given, state.tags) : value
        // A creation of a row alive here (a machine's first sync pushing the same todos, made
        // from one file) that overrides an edit of this machine's not pushed yet: said, as an
        // update's would be (a number is the pull's to settle, not a conflict).
        if let current, field != "id", current.value != merged, current.stamp.device != stamp.device,
          isPending(current.stamp)
        {
          conflicts.append(
            SyncConflict(
              kind: .sameField, entity: operation.entity, row: operation.row, field: field,
              kept: merged, lost: current.value, winner: given, loser: current.stamp))
        }
        state.fields[field] = Stamped(merged, given)
      }
    case .update(let field, let value):
      guard !isLocal(operation.entity, field) else { break }
      let current = state.fields[field]
      // Tags that say what they changed merge tag by tag; a value without its old one (an older
      // ootd's record) is one value, as any field, the tags changed later kept.
      let isTags = carriesOld(operation.entity, field)
      let tagsOld = isTags ? operation.old : nil
      // The latest change of the field here (of tags, also of a tag).
      let latest = isTags ? ([current?.stamp] + state.tags.values.map(\.stamp)).compactMap { $0 }.max() : current?.stamp
      var deletedHere = false
      if field == "id" {
        // A number: the later one is the row's; a clash is the pull's to resolve, not a conflict.
      } else if let existence = state.existence, !existence.value, isPending(existence.stamp) {
        // Reported where the deletion is not pushed yet: a machine that pushed this edit after
        // the deletion reached the server pulled the deletion first, and reported it there.
        deletedHere = true
        conflicts.append(
          SyncConflict(
            kind: .editOfDeleted, entity: operation.entity, row: operation.row, field: field,
            kept: nil, lost: value, winner: existence.stamp, loser: stamp))
      } else if tagsOld == nil, let current, let latest, latest.device != stamp.device, current.value != value,
        isPending(latest)
      {
        // Reported once, on the machine whose sync resolves it: the one with its edit not yet
        // pushed. Records arrive in the server's order and a sync pulls before it pushes, so a
        // machine that pushed this edit had pulled every change this one already pushed or
        // pulled, and reported the conflict itself.
        if stamp < latest {
          conflicts.append(
            SyncConflict(
              kind: .sameField, entity: operation.entity, row: operation.row, field: field,
              kept: current.value, lost: value, winner: latest, loser: stamp))
        } else {
          conflicts.append(
            SyncConflict(
              kind: .sameField, entity: operation.entity, row: operation.row, field: field,
              kept: isTags ? tags(value, since: stamp, state.tags) : value, lost: current.value, winner: stamp,
              loser: latest))
        }
      }
      if let tagsOld {
        let found = mergeTags(old: tagsOld, new: value, stamp: stamp, into: &state, isPending: isPending)
        if !deletedHere {
          conflicts += found.map {
            SyncConflict(
              kind: .tag, entity: operation.entity, row: operation.row, field: field,
              kept: $0.kept ? .text($0.tag) : .null, lost: $0.kept ? .null : .text($0.tag),
              winner: $0.winner, loser: $0.loser)
          }
        }
      } else if current.map({ stamp > $0.stamp }) ?? true {
        state.fields[field] = Stamped(isTags ? tags(value, since: stamp, state.tags) : value, stamp)
      }
    case .delete:
      // (A deletion older than the row's creation here deletes nothing, and says nothing.)
      if state.isAlive, state.existence.map({ stamp > $0.stamp }) ?? true {
        // Edits the deleting machine cannot have seen: this machine's, not pushed yet (one it
        // pushed or pulled before, the deleting machine pulled before pushing: it reported it).
        // (A tag added or taken away is an edit too: its mark, not the tags field, is stamped.)
        let unseen = (state.fields.values.map(\.stamp) + state.tags.values.map(\.stamp))
          .filter { $0.device != stamp.device && isPending($0) }
          .max()
        if let unseen {
          conflicts.append(
            SyncConflict(
              kind: .editOfDeleted, entity: operation.entity, row: operation.row,
              winner: stamp, loser: unseen))
        }
      }
      if state.existence.map({ stamp > $0.stamp }) ?? true { state.existence = Stamped(false, stamp) }
    }
    return Outcome(row: state, effect: effect(from: before, to: state), conflicts: conflicts)
  }

  /// Whether an update of `field` travels with the value it replaced: a todo's tags, which
  /// merge tag by tag (``mergeTags(old:new:stamp:into:isPending:)``).
  public static func carriesOld(_ entity: Entity, _ field: String) -> Bool {
    entity == .todo && field == TodoField.tags.rawValue
  }

  /// A tag two machines changed in opposite ways (added on one, taken away on the other):
  /// whether it stays (`kept`), and the stamps of the winning and losing changes.
  public struct TagConflict: Hashable, Sendable {
    public var tag: String
    public var kept: Bool
    public var winner: Stamp
    public var loser: Stamp
  }

  /// Merges a tags update made at `stamp` from `old` to `new` into `row` (issue 24 §3): tags
  /// are a set, and what the update added and took away is applied to the tags the row has,
  /// each tag on its own, so that tags added or taken away on two machines all count: the
  /// result is the tags both sides last agreed on, plus what either added, less what either
  /// took away. A tag this update changes that was changed here since (its mark in
  /// ``SyncRow/tags``, else the value the tags field was set to as a whole, by the row's
  /// creation) keeps the later of the two changes; when they differ (added on one machine,
  /// taken away on the other) and the change here is not pushed yet, that is a conflict,
  /// returned for the line that tells it (reported once, on the machine whose sync resolves
  /// it, as ``merge(_:into:isPending:firstSync:)`` reports any). Each tag is a
  /// last-writer-wins register: any order of the same changes gives the same tags. The
  /// field's stamp stays the whole value's (``Stamp/seed`` when there is none yet), which a
  /// creation then sets with the tags changed after it (``tags(_:since:_:)``). The tags keep
  /// their stored form (``Tag/text(_:)``).
  public static func mergeTags(
    old: FieldValue, new: FieldValue, stamp: Stamp, into row: inout SyncRow, isPending: (Stamp) -> Bool
  ) -> [TagConflict] {
    let field = TodoField.tags.rawValue
    let (before, after) = (Set(Tag.tags(old.text)), Set(Tag.tags(new.text)))
    let current = row.fields[field]
    var tags = Set(Tag.tags(current?.value.text))
    var conflicts: [TagConflict] = []
    let changes = after.subtracting(before).map { ($0, true) } + before.subtracting(after).map { ($0, false) }
    for (tag, added) in changes.sorted(by: { $0.0 < $1.0 }) {
      let mark = row.tags[tag]
      // The last change of the tag here: its mark, or the whole value when that is later.
      let since = [mark?.stamp, current?.stamp].compactMap { $0 }.max()
      if let mark, mark.stamp == since, mark.value != added, mark.stamp.device != stamp.device,
        isPending(mark.stamp)
      {
        let kept = stamp > mark.stamp ? added : mark.value
        conflicts.append(
          TagConflict(
            tag: tag, kept: kept, winner: max(stamp, mark.stamp), loser: min(stamp, mark.stamp)))
      }
      guard since.map({ stamp > $0 }) ?? true else { continue }
      row.tags[tag] = Stamped(added, stamp)
      if added { tags.insert(tag) } else { tags.remove(tag) }
    }
    row.fields[field] = Stamped(.optional(Tag.text(Array(tags))), current?.stamp ?? .seed)
    return conflicts
  }

  /// The tags a todo holds once a change of its tags from `before` to `after` is taken back
  /// (an undo, or a redo taking back the undo) over the tags it has `now`: the tags the change
  /// added are taken away and the ones it took away given back, each on its own as
  /// ``mergeTags(old:new:stamp:into:isPending:)`` merges a change, and every other tag is left
  /// as it is now (another machine's, added or taken away since). Sorted, without repeats
  /// (``Tag/normalized(_:)``).
  public static func rebaseTags(
    now: some Sequence<String>, before: some Sequence<String>, after: some Sequence<String>
  ) -> [String] {
    let (before, after) = (Set(before), Set(after))
    return Tag.normalized(Set(now).subtracting(after.subtracting(before)).union(before.subtracting(after)))
  }

  /// The tags `value` set as a whole at `stamp` (a creation, an older ootd's update), with
  /// the tags changed since on their own (`marks` later than `stamp`) as those changes left
  /// them: so that a whole value and the changes of single tags give the same tags in any
  /// order.
  static func tags(_ value: FieldValue, since stamp: Stamp, _ marks: [String: Stamped<Bool>]) -> FieldValue {
    let later = marks.filter { $0.value.stamp > stamp }
    guard !later.isEmpty else { return value }
    var tags = Set(Tag.tags(value.text))
    for (tag, mark) in later {
      if mark.value { tags.insert(tag) } else { tags.remove(tag) }
    }
    return .optional(Tag.text(Array(tags)))
  }

  /// What changes in the visible row between two states.
  static func effect(from before: SyncRow, to after: SyncRow) -> SyncEffect {
    switch (before.isAlive, after.isAlive) {
    case (false, false): return .none
    case (false, true): return .create(after.fields.mapValues(\.value))
    case (true, false): return .delete
    case (true, true):
      let changes = after.fields.keys.sorted().compactMap { field -> SyncEffect.Change? in
        let old = before.fields[field]?.value ?? .null
        let new = after.fields[field]!.value
        return old == new ? nil : SyncEffect.Change(field: field, old: old, new: new)
      }
      return changes.isEmpty ? .none : .update(changes)
    }
  }
}
