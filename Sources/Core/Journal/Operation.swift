/// The kinds of rows the change journal records. GitHub data and settings are never journaled.
public enum Entity: String, Sendable, CaseIterable, Hashable {
  case todo, project, block

  /// The field that names a row of this kind for people: a todo's title, else the name.
  public var nameField: String { self == .todo ? "title" : "name" }
}

/// One field's value as the journal stores it: SQLite's integer, text or null.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
  case null
  case integer(Int64)
  case text(String)

  /// A Bool as 0 or 1, as SQLite stores it.
  public static func bool(_ value: Bool) -> FieldValue { .integer(value ? 1 : 0) }

  /// Text, or null for nil.
  public static func optional(_ text: String?) -> FieldValue { text.map(FieldValue.text) ?? .null }

  /// The text, if this is text.
  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  /// The integer, if this is one.
  public var integer: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  public var description: String {
    switch self {
    case .null: return "null"
    case .integer(let value): return String(value)
    case .text(let text): return "'\(text)'"
    }
  }
}

/// A row's fields by name, as one operation creates or deletes them.
public typealias Fields = [String: FieldValue]

/// One row-level change: enough to apply it, to invert it, and (later) to replay it on another
/// machine. Rows are named by their stable uuid, never by a local id.
public struct JournalOperation: Hashable, Sendable {
  /// What happens to the row.
  public enum Action: Hashable, Sendable {
    /// The row comes into being with these fields.
    case create(Fields)
    /// One field goes from `old` to `new`.
    case update(field: String, old: FieldValue, new: FieldValue)
    /// The row, which had these fields, goes away.
    case delete(Fields)
  }

  /// The kind of row.
  public var entity: Entity
  /// The row's uuid.
  public var row: String
  /// What happens to it.
  public var action: Action

  /// Creates an operation.
  public init(_ entity: Entity, row: String, _ action: Action) {
    self.entity = entity
    self.row = row
    self.action = action
  }

  /// The operation that takes this one back: a creation becomes a deletion of the same fields,
  /// a deletion a creation, an update the update the other way.
  public var inverse: JournalOperation {
    switch action {
    case .create(let fields): return JournalOperation(entity, row: row, .delete(fields))
    case .delete(let fields): return JournalOperation(entity, row: row, .create(fields))
    case .update(let field, let old, let new):
      return JournalOperation(entity, row: row, .update(field: field, old: new, new: old))
    }
  }

  /// The operations that take `operations` back, in the order to apply them (last first).
  public static func inverse(of operations: [JournalOperation]) -> [JournalOperation] {
    operations.reversed().map(\.inverse)
  }

  /// Why this operation cannot be applied to a row whose fields are now `current` (nil: no such
  /// row), or nil when it can: a creation needs the row absent, an update needs the field to
  /// hold `old`, a deletion needs the row present with the fields it records.
  ///
  /// This is how undo notices that a row was changed since by a change that is not undone (which
  /// happens only once another machine's changes arrive): it then leaves what another device
  /// changed as it is (``LeftRow``), and refuses for anything else instead of guessing.
  public func conflict(current: Fields?) -> OperationConflict? {
    switch action {
    case .create:
      return current == nil ? nil : .rowExists
    case .update(let field, let old, _):
      guard let current else { return .rowMissing }
      let value = current[field] ?? .null
      return value == old ? nil : .fieldChanged(field: field, expected: old, found: value)
    case .delete(let fields):
      guard let current else { return .rowMissing }
      // A todo's number may have changed since: a sync renumbers a todo whose number another
      // machine gave to another todo (it is still the same row).
      for (field, value) in fields.sorted(by: { $0.key < $1.key })
      where field != TodoField.id.rawValue && current[field] ?? .null != value {
        return .fieldChanged(field: field, expected: value, found: current[field] ?? .null)
      }
      return nil
    }
  }

  /// The field that names the row (title or name) as this operation knows it, if it does.
  public var knownName: String? {
    switch action {
    case .create(let fields), .delete(let fields): return fields[entity.nameField]?.text
    case .update(let field, _, let new): return field == entity.nameField ? new.text : nil
    }
  }
}

/// Why an operation does not fit the row as it is now.
public enum OperationConflict: Hashable, Sendable {
  /// The row exists already.
  case rowExists
  /// The row is gone.
  case rowMissing
  /// A field holds another value than the operation expects.
  case fieldChanged(field: String, expected: FieldValue, found: FieldValue)
}
