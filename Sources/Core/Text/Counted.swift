/// How many of something, in English: the one pluralisation rule for every message and view.
///
///     counted(1, "todo")                              // "1 todo"
///     counted(3, "todo")                              // "3 todos"
///     counted(2, "repository", "repositories")        // "2 repositories"
///     counted(12345, "commit", digits: group)         // "12,345 commits" (the CLI's grouping)
///     noun(2, "change")                               // "changes"
public func counted(
  _ count: Int, _ singular: String, _ plural: String? = nil,
  digits: (Int) -> String = { String($0) }
) -> String {
  "\(digits(count)) \(noun(count, singular, plural))"
}

/// The noun alone for `count`: `singular` for exactly one, else `plural` (default: `singular`
/// + "s").
public func noun(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  count == 1 ? singular : plural ?? singular + "s"
}
