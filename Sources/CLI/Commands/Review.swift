import ArgumentParser
import Core
import Foundation

extension Ootd {
  /// `ootd review`: a year of work as a page or a card to share.
  struct Review: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "review",
      abstract: "Write a year in review: a self-contained HTML page, an SVG card or a PNG.",
      discussion: """
        The page shows the achievement heatmap above the commit heatmap, how much you achieved \
        on days with commits and without, the longest and current streak of perfect days, the \
        rate per priority and per weekday, the months side by side, the top projects and \
        blocks by done todos and the busiest commit days. Its figures are those of \
        'ootd report --from D --to D --json' for the same days.

        --html writes one HTML file with everything inline (CSS and SVG; no script, no web \
        font, no request of any kind), in light and dark. --svg writes one standalone SVG card \
        that a GitHub README can show. --png renders the card with rsvg-convert (Debian: \
        apt-get install librsvg2-bin). Give any of them, together if you like.

        Private by default: only figures and project and block names, never a todo's title. \
        --titles adds the titles of up to ten done todos (high priority first); --redact \
        replaces every title, project and block name by a neutral label (Project 1, Block 1, \
        Todo 1). The same data gives the same bytes, so the files can be committed and diffed.

        The range is the current calendar year unless --year or --from/--to names one.

        Examples:
          ootd review --html review.html
          ootd review --year 2025 --svg card.svg --png card.png
          ootd review --from 2026-06-01 --to 2026-11-30 --html half.html --redact
          ootd review --svg card.svg --tz Asia/Seoul
        """)

    @Option(name: .long, help: ArgumentHelp("A calendar year, 1 January to 31 December.", valueName: "yyyy"))
    var year: Int?

    @Option(name: .long, help: ArgumentHelp("The first day (inclusive; --to defaults to today).", valueName: "date"))
    var from: String?

    @Option(
      name: .long,
      help: ArgumentHelp("The last day (inclusive; --from defaults to 1 January of its year).", valueName: "date"))
    var to: String?

    @Option(
      name: .long, help: ArgumentHelp("Write the page as one self-contained HTML file.", valueName: "file"),
      completion: .file(extensions: ["html"]))
    var html: String?

    @Option(
      name: .long, help: ArgumentHelp("Write the card as one standalone SVG image.", valueName: "file"),
      completion: .file(extensions: ["svg"]))
    var svg: String?

    @Option(
      name: .long, help: ArgumentHelp("Write the card as a PNG image (needs rsvg-convert).", valueName: "file"),
      completion: .file(extensions: ["png"]))
    var png: String?

    @Flag(name: .long, help: "Replace every title, project and block name by a neutral label.")
    var redact = false

    @Flag(name: .long, help: "Also name a few done todos by their titles.")
    var titles = false

    @Option(
      name: .long,
      help: ArgumentHelp("Count days in this time zone, an IANA name such as Asia/Seoul.", valueName: "zone"))
    var tz: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if let year, !Day.years.contains(year) {
        throw ValidationError("'\(year)' is not a year: use four digits, e.g. --year 2026")
      }
      if year != nil && (from != nil || to != nil) {
        throw ValidationError("give --year or --from/--to, not both")
      }
      if let tz, AppEnvironment.zone(named: tz) == nil {
        throw ValidationError("'\(tz)' is not a time zone: use an IANA name such as Europe/Paris")
      }
      if html == nil && svg == nil && png == nil {
        throw ValidationError("say what to write: --html FILE, --svg FILE or --png FILE")
      }
      for (flag, file) in [("--html", html), ("--svg", svg), ("--png", png)] where file?.isEmpty == true {
        throw ValidationError("\(flag) needs a file name")
      }
    }

    func run(in environment: AppEnvironment) throws {
      var environment = environment
      if let tz, let zone = AppEnvironment.zone(named: tz) { environment.timeZone = zone }
      // Said before anything is written: a missing renderer leaves no file half done.
      let renderer = try png.map { png throws(CLIError) in
        guard let found = AppEnvironment.executable("rsvg-convert", path: environment.variables["PATH"] ?? "")
        else {
          throw .cannotWrite(
            path: png, reason: "rendering a PNG needs rsvg-convert: apt-get install librsvg2-bin")
        }
        return found
      }
      let today = environment.today
      let days = try range(today: today)
      let database = try global.openDatabase(environment, readOnly: true)
      let figures = try ReportFigures.load(
        days, project: nil, today: today, timeZone: environment.timeZone, database: database)
      let done = try database.todos(matching: TodoFilter(days: .range(days), status: .done))
      let review = YearReview(
        figures: figures, doneTodos: done, zone: environment.timeZone.identifier,
        privacy: redact ? .redacted : titles ? .titles : .names)
      let page = ReviewPage()
      let what = "the review of \(days.from) → \(days.to)"
      if let html {
        try environment.writeFile(html, page.html(review))
        environment.print(TerminalText.printable("Wrote \(what) to \(html)"))
      }
      let card = svg != nil || png != nil ? page.svg(review) : ""
      if let svg {
        try environment.writeFile(svg, card)
        environment.print(TerminalText.printable("Wrote the card of \(days.from) → \(days.to) to \(svg)"))
      }
      if let png, let renderer {
        guard let image = AppEnvironment.run(renderer, ["--format", "png", "--zoom", "2"], input: Array(card.utf8))
        else { throw CLIError.cannotWrite(path: png, reason: "rsvg-convert failed to render the card") }
        try AppEnvironment.writeAtomically(png, bytes: image)
        environment.print(TerminalText.printable("Wrote the card of \(days.from) → \(days.to) to \(png)"))
      }
    }

    /// The days reviewed: `--year`, `--from`/`--to` (read as every command reads them), else
    /// the current calendar year.
    func range(today: Day) throws(CoreError) -> DayRange {
      if let year {
        return try DayRange(from: Day(year: year, month: 1, day: 1)!, to: Day(year: year, month: 12, day: 31)!)
      }
      let bounds = DayBounds(from: from, to: to)
      if bounds.isEmpty {
        return try DayRange(
          from: Day(year: today.year, month: 1, day: 1)!, to: Day(year: today.year, month: 12, day: 31)!)
      }
      let (first, last) = try bounds.days(
        today: today, missingTo: today, missingFrom: { Day(year: $0.year, month: 1, day: 1)! })
      let range = try DayRange(from: first, to: last)
      guard range.count <= ReportPeriod.maximumDays else {
        throw .invalidRangeLength(range.count, limit: ReportPeriod.maximumDays)
      }
      return range
    }
  }
}
