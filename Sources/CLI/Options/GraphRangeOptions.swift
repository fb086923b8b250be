import ArgumentParser
import Core

/// The range options of `ootd graph`: a year up to `--to` unless `--from` or `--weeks` says.
struct GraphRangeOptions: ParsableArguments {
  @Option(
    name: .long, help: ArgumentHelp("First day (default: a year before --to).", valueName: "date")
  )
  var from: String?

  @Option(name: .long, help: ArgumentHelp("Last day (default: today).", valueName: "date"))
  var to: String?

  @Option(name: .long, help: ArgumentHelp("The last N weeks instead of a year.", valueName: "n"))
  var weeks: Int?

  func validate() throws {
    if let weeks, weeks < 1 || weeks > 520 {
      throw ValidationError("--weeks must be between 1 and 520")
    }
    if weeks != nil && from != nil { throw ValidationError("give --from or --weeks, not both") }
  }

  /// The days asked for, read against `today` (in the graph's display zone); at most
  /// ``ReportPeriod/maximumDays``.
  func range(today: Day) throws(CoreError) -> DayRange {
    let (first, last) = try DayBounds(from: from, to: to).days(
      today: today, missingTo: today,
      missingFrom: { last in weeks.map { last.adding(days: -(7 * $0) + 1) } ?? last.adding(days: -364) })
    return try ReportPeriod.between(first, last).range(today: today)
  }
}
