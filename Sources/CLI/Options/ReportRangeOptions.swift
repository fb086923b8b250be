import ArgumentParser
import Core

/// The range options of `ootd report`.
struct ReportRangeOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The first day (inclusive; --to defaults to today).", valueName: "date"))
  var from: String?

  @Option(name: .long, help: ArgumentHelp("The last day (inclusive; --from defaults to 27 days earlier).", valueName: "date"))
  var to: String?

  @Flag(name: .long, help: "The last 7 days, ending today.")
  var week = false

  @Flag(name: .long, help: "The last 30 days, ending today.")
  var month = false

  @Flag(name: .long, help: "The last 365 days, ending today.")
  var year = false

  @Option(name: .long, help: ArgumentHelp("The last N days, ending today.", valueName: "n"))
  var days: Int?

  func validate() throws {
    let chosen = [from != nil || to != nil, week, month, year, days != nil].filter { $0 }.count
    if chosen > 1 {
      throw ValidationError("choose one range: --from/--to, --week, --month, --year or --days")
    }
  }

  /// The period asked for; `fallback` when none is given.
  func period(_ environment: AppEnvironment, fallback: ReportPeriod) throws(CoreError) -> ReportPeriod {
    if week { return .week }
    if month { return .month }
    if year { return .year }
    if let days { return .days(days) }
    let bounds = DayBounds(from: from, to: to)
    if bounds.isEmpty { return fallback }
    let (first, last) = try bounds.days(
      today: environment.today, missingTo: environment.today,
      missingFrom: { $0.adding(days: -27) })
    return .between(first, last)
  }
}
