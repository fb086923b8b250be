import ArgumentParser

/// `--from` and `--to`, declared once for the commands that take an open-ended range of days
/// (`list`, through ``DaySelectionOptions``, and `search`); ``DayBounds`` reads them.
struct DayRangeOptions: ParsableArguments {
  @Option(
    name: .long, help: ArgumentHelp("The first day of a range (inclusive).", valueName: "date"),
    completion: NameCompletion.days)
  var from: String?

  @Option(
    name: .long, help: ArgumentHelp("The last day of a range (inclusive).", valueName: "date"),
    completion: NameCompletion.days)
  var to: String?

  /// The two ends as written.
  var bounds: DayBounds { DayBounds(from: from, to: to) }
}
