import Core

// The one reading of a day argument (`--on`, `--to`, `--from`, `--since`, `--start`, `--end`):
// `today`, `tomorrow`, `yesterday`, `YYYY-MM-DD`, a weekday (`mon`), `+3d`, `+1w`, `eow` or
// `eom`, against today (see `DayExpression`).

/// Parses a day argument against the user's today.
func parseDay(_ text: String, _ environment: AppEnvironment) throws(CoreError) -> Day {
  try DayExpression.parse(text, today: environment.today)
}

/// Parses an optional day argument against the user's today; nil when it was not given.
func parseDay(_ text: String?, _ environment: AppEnvironment) throws(CoreError) -> Day? {
  try parseDay(text, today: environment.today)
}

/// Parses an optional day argument against `today` (a command may read days in another zone);
/// nil when it was not given.
func parseDay(_ text: String?, today: Day) throws(CoreError) -> Day? {
  guard let text else { return nil }
  return try DayExpression.parse(text, today: today)
}

extension Placement {
  /// Reads `--on` (a day, or `someday`) beside `--someday`: nil when neither was given. Both
  /// at once is a usage error unless `--on` says `someday` too.
  static func parse(on text: String?, someday: Bool, _ environment: AppEnvironment) throws -> Placement? {
    let named = try text.map { text throws -> Placement in
      namesBacklog(text) ? .backlog : .day(try parseDay(text, environment))
    }
    if someday {
      if let named, named != .backlog {
        throw CLIError.invalidValue("--someday puts the todo in the backlog: give it without --on, or --on a day without --someday")
      }
      return .backlog
    }
    return named
  }
}
