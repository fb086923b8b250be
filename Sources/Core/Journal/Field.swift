/// The fields of each kind of journaled row: one typed list per entity, shared by the journal
/// (which names fields in its operations), the executor (which refuses any other name, so journal
/// text never becomes SQL), the records (which read and write the columns), the sync payload
/// (which carries operations between machines) and the JSON writers (which say, field by field,
/// what reaches `--json`). Adding a column is one new case here; the compiler then points at
/// every exhaustive `switch` that must say what to do with it.
///
/// The raw value is the field's name in the journal, in sync payloads and (except `project`,
/// stored as `projectId`) the SQLite column.
public enum TodoField: String, CaseIterable, Sendable {
  case id, title, priority, day, done, doneAt, project, block, createdAt, dropped, carriedFrom
  case notes, githubUrl, githubState, doneBy, keepOpen, tags
  case annotations, attributes
}

/// The fields of a project row (see ``TodoField``).
public enum ProjectField: String, CaseIterable, Sendable {
  case id, name, summary, repository, localPath, startDay, endDay, tech, memo, archived, createdAt
}

/// The fields of a task block row (see ``TodoField``).
public enum BlockField: String, CaseIterable, Sendable {
  case name, title, priority, builtIn, routine, createdAt, doneWhen, doneWhenRepo, recurrence
}

extension Entity {
  /// The names of the fields this kind of row may carry, from its field list: a closed set.
  public var fieldNames: Set<String> {
    switch self {
    case .todo: Self.todoNames
    case .project: Self.projectNames
    case .block: Self.blockNames
    }
  }

  private static let todoNames = Set(TodoField.allCases.map(\.rawValue))
  private static let projectNames = Set(ProjectField.allCases.map(\.rawValue))
  private static let blockNames = Set(BlockField.allCases.map(\.rawValue))
}

extension Dictionary where Key == String, Value == FieldValue {
  /// A todo's fields from typed pairs: `.todo([.done: .bool(true), .doneAt: .null])`. (Pairs,
  /// not a dictionary keyed by the enum: its first use would cost a scan of the binary's
  /// conformance records for `TodoField: Hashable`.)
  public static func todo(_ pairs: KeyValuePairs<TodoField, FieldValue>) -> Fields {
    var fields = Fields(minimumCapacity: pairs.count)
    for (field, value) in pairs { fields[field.rawValue] = value }
    return fields
  }

  /// A project's fields from typed pairs (see ``todo(_:)``).
  public static func project(_ pairs: KeyValuePairs<ProjectField, FieldValue>) -> Fields {
    var fields = Fields(minimumCapacity: pairs.count)
    for (field, value) in pairs { fields[field.rawValue] = value }
    return fields
  }

  /// A block's fields from typed pairs (see ``todo(_:)``).
  public static func block(_ pairs: KeyValuePairs<BlockField, FieldValue>) -> Fields {
    var fields = Fields(minimumCapacity: pairs.count)
    for (field, value) in pairs { fields[field.rawValue] = value }
    return fields
  }

  /// A todo field's value: `fields[todo: .title]`.
  public subscript(todo field: TodoField) -> FieldValue? {
    get { self[field.rawValue] }
    set { self[field.rawValue] = newValue }
  }

  /// A project field's value.
  public subscript(project field: ProjectField) -> FieldValue? {
    get { self[field.rawValue] }
    set { self[field.rawValue] = newValue }
  }

  /// A block field's value.
  public subscript(block field: BlockField) -> FieldValue? {
    get { self[field.rawValue] }
    set { self[field.rawValue] = newValue }
  }
}
