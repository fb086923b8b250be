import ArgumentParser
import Core

/// The day-selection options `list` and similar commands share.
struct DaySelectionOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp("One day, as --on takes it: 'ootd list tomorrow', 'ootd list mon'.", valueName: "day"),
    completion: NameCompletion.days)
  var day: String?

  @Option(
    name: .long,
    help: ArgumentHelp("One day: YYYY-MM-DD, today, tomorrow, yesterday, a weekday (mon), +3d, +1w, eow or eom; someday for the backlog.", valueName: "date"),
    completion: NameCompletion.placements)
  var on: String?

  @OptionGroup var range: DayRangeOptions

  var from: String? { range.from }
  var to: String? { range.to }

  @Flag(name: .long, help: "Every day.")
  var all = false

  func validate() throws {
    if day != nil && on != nil { throw ValidationError("give the day once: as an argument or with --on") }
    if day != nil && (from != nil || to != nil || all) {
      throw ValidationError("a day argument cannot be combined with --from, --to or --all")
    }
    if on != nil && (from != nil || to != nil || all) {
      throw ValidationError("--on cannot be combined with --from, --to or --all")
    }
    if all && (from != nil || to != nil) {
      throw ValidationError("--all cannot be combined with --from or --to")
    }
  }

  /// The days asked for; today when nothing is given.
  func days(_ environment: AppEnvironment) throws -> TodoFilter.Days {
    if all { return .all }
    if let on = on ?? day {
      // `ootd list someday`: the backlog, as `ootd backlog` lists it but in list order.
      if Placement.namesBacklog(on) { return .backlog }
      return .range(DayRange(day: try parseDay(on, environment)))
    }
    let bounds = range.bounds
    if bounds.isEmpty { return .range(DayRange(day: environment.today)) }
    return .range(try bounds.openRange(today: environment.today))
  }
}
