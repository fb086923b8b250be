import ArgumentParser
import Core
import Storage

/// The todo ids `done`, `undone`, `drop` and `rm` take by position, declared once: at least one,
/// all or nothing. Each is a number or a uuid prefix (``TodoReference``).
struct TodoIDsArgument: ParsableArguments {
  @Argument(help: TodoIDs.help("The ids of the todos (see 'ootd list')."), transform: TodoIDs.parse)
  var ids: [TodoReference]

  func validate() throws { try TodoIDs.requireSome(ids) }

  /// The numbers of the todos named, in `database`.
  func resolved(in database: AppDatabase) throws -> [Int64] { try TodoIDs.resolve(ids, in: database) }
}

/// The rules every command that takes todo ids by position shares (`edit` reads its ids as text
/// first, so it checks them itself): at least one id, each a number or a uuid prefix, with the
/// same messages everywhere, resolved in one place.
enum TodoIDs {
  static func requireSome<ID>(_ ids: [ID]) throws {
    if ids.isEmpty { throw ValidationError("give at least one todo id") }
  }

  /// An id argument's help: `what`, and that a uuid prefix is taken too.
  static func help(_ what: String) -> ArgumentHelp {
    ArgumentHelp(
      "\(what) A unique prefix of a todo's uuid (4+ hex digits, one a-f at least) works too; digits only are always an id.",
      valueName: "id")
  }

  /// One id argument, for argument-parser (its message: `invalid <id> 'x': use the number …`).
  @Sendable static func parse(_ text: String) throws -> TodoReference {
    guard let reference = TodoReference(text) else { throw ValidationError(TodoReference.expected) }
    return reference
  }

  /// The numbers of the todos `references` name: a number as it is (checked where it is used,
  /// as before), a uuid prefix looked up. A prefix no todo has fails as an unknown id does
  /// (exit 1); one several todos have exits 64 naming a few of them.
  static func resolve(_ references: [TodoReference], in database: AppDatabase) throws -> [Int64] {
    try references.map { reference in
      switch reference {
      case .id(let id):
        return id
      case .uuidPrefix(let prefix):
        let ids = try database.todoIDs(matchingUUIDPrefix: prefix)
        guard let id = ids.first else { throw StorageError.todoUUIDPrefixNotFound(prefix) }
        guard ids.count == 1 else {
          let shown = try database.todos(ids: Array(ids.prefix(3))).sorted { $0.id < $1.id }
          let names = shown.map { "#\($0.id) '\(TerminalText.printable($0.title))'" }
            + Array(repeating: "", count: ids.count - shown.count)
          throw CLIError.invalidValue(
            "uuid prefix '\(prefix)' is ambiguous: \(ids.count) todos have it, \(ShortList.text(names, limit: 3)); give more digits")
        }
        return id
      }
    }
  }
}
