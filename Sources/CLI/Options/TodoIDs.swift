import ArgumentParser

/// The todo ids `done`, `undone`, `drop` and `rm` take by position, declared once: at least one,
/// all or nothing.
struct TodoIDsArgument: ParsableArguments {
  @Argument(help: ArgumentHelp("The ids of the todos (see 'ootd list').", valueName: "id"))
  var ids: [Int64]

  func validate() throws { try TodoIDs.requireSome(ids) }
}

/// The rule every command that takes todo ids by position shares (`edit` reads its ids as text
/// first, so it checks them itself): at least one id, with the same message everywhere.
enum TodoIDs {
  static func requireSome<ID>(_ ids: [ID]) throws {
    if ids.isEmpty { throw ValidationError("give at least one todo id") }
  }
}
