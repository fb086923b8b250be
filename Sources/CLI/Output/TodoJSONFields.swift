import Core

extension JSONOutput.TodoJSON {
  /// Where each stored field of a todo (``TodoField``, the one field list) appears in a todo's
  /// JSON, or nil when `--json` does not show it. Exhaustive: a new field does not compile until
  /// it says whether and under which key the contract shows it (and `TodoJSONFieldsTests` then
  /// checks the writer prints exactly these keys).
  static func key(for field: TodoField) -> String? {
    switch field {
    case .id: "id"
    case .title: "title"
    case .priority: "priority"
    case .day: "date"
    case .done: "done"
    case .doneAt: "doneOn"  // as the day of the user's zone
    case .project: "project"  // by name
    case .block: "block"
    case .createdAt: nil
    case .dropped: "dropped"
    case .carriedFrom: "carriedFrom"
    case .notes: "notes"
    case .githubUrl: "github"  // github.url
    case .githubState: "github"  // github.state
    case .doneBy: "doneBy"
    case .keepOpen: nil
    case .tags: "tags"
    case .annotations: "annotations"  // [{"entry","text"}]
    case .attributes: "attributes"  // {"key": "value"}
    }
  }

  /// The keys a todo's JSON has beyond its stored fields: the row's identity, and what is
  /// computed from the day (`overdue`).
  static let derivedKeys: Set<String> = ["uuid", "overdue"]
}
