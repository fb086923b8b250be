import ArgumentParser

/// The rule every command that takes todo ids by position shares (`done`, `undone`, `edit`,
/// `rm`, `drop`): at least one id. Written once, so that the message is the same everywhere.
enum TodoIDs {
  static func requireSome<ID>(_ ids: [ID]) throws {
    if ids.isEmpty { throw ValidationError("give at least one todo id") }
  }
}
