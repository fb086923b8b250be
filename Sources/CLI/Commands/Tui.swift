import ArgumentParser
import Core
import Foundation
import Storage
import TUI

extension Ootd {
  /// `ootd tui`: the day full screen (the TUI module); this file hands it the CLI's parts.
  struct Tui: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "tui",
      abstract: "Plan and review the day full screen (? there shows every key).",
      discussion: """
        Opens today: its todos as 'ootd list' shows them, the day's figures and streak, the \
        overdue todos and the backlog count. j/k move, space or x ticks, a adds (the add \
        syntax), e edits the title, 1/2/3 set the priority, >/< move to the next/previous \
        day, d drops, D deletes, c carries the overdue todos, n edits the notes, b adds from \
        a task block, v marks (actions apply to every marked todo as one change), / filters, \
        h/l change day, T goes back to today, g goes to a date, Tab shows the week, the calendar and the \
        projects, u/U undo \
        and redo, q quits. Every change is the change the CLI command makes: 'ootd log' shows \
        it, 'ootd undo' takes it back. Keys can be changed in $XDG_CONFIG_HOME/ootd/tui.toml \
        (else ~/.config/ootd/tui.toml; see docs/decisions/tui-keys.md).

        Examples:
          ootd tui
          NO_COLOR=1 ootd tui
        """)

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      guard environment.stdinIsTerminal, environment.stdoutIsTerminal else {
        throw CLIError.invalidValue(
          "ootd tui needs a terminal: standard input and output must both be one ('ootd' and 'ootd list' print the day)")
      }
      if environment.variables["TERM"] == "dumb" {
        throw CLIError.invalidValue(
          "ootd tui cannot run with TERM=dumb: a dumb terminal cannot move the cursor ('ootd' and 'ootd list' print the day)")
      }
      let keys = try Self.keyMap(environment)
      let database = try global.openDatabase(environment)
      _ = try? database.planDueRoutine(on: environment.today, now: environment.now)
      let session = try Session(
        database: database, today: environment.today, host: Self.host(environment), reducer: Reducer(keys: keys))
      let rows = ListRows(style: environment.style(noColor: global.noColor))
      guard Terminal.enter() else { throw CLIError.invalidValue("ootd tui cannot set the terminal to raw mode") }
      App.run(session, renderer: Renderer(rows: rows, keys: keys))
    }

    /// The key file, `$XDG_CONFIG_HOME/ootd/tui.toml` (else `~/.config/ootd/tui.toml`): the
    /// standard keys when there is none; a file that does not read stops here, with its line.
    static func keyMap(_ environment: AppEnvironment) throws -> KeyMap {
      let folder =
        environment.variables["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        ?? environment.variables["HOME"].map { $0 + "/.config" }
      guard let folder else { return .standard }
      let path = folder + "/ootd/tui.toml"
      guard FileManager.default.fileExists(atPath: path) else { return .standard }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError.cannotRead(path: path, reason: "it cannot be read")
      }
      do {
        return try KeyFile.read(String(decoding: data, as: UTF8.self))
      } catch {
        throw CLIError.invalidValue("\(path) \(error.description)")
      }
    }

    /// What the session takes from the CLI: its clock, the add parser, the journal's command
    /// lines and its messages.
    static func host(_ environment: AppEnvironment) -> SessionHost {
      // Pinned at start (OOTD_NOW in debug builds), running from there.
      let start = environment.now
      let started = environment.clock()
      return SessionHost(
        now: { start.addingTimeInterval(environment.clock().timeIntervalSince(started)) },
        timeZone: environment.timeZone,
        addDraft: { line, day, database in
          let words = try Self.words(line)
          let add = try Ootd.Add.parse(words)
          var checked = environment
          checked.now = start.addingTimeInterval(environment.clock().timeIntervalSince(started))
          let draft = try add.draft(on: day, checked) { database }
          return (draft.todo, add.done, CommandText.from(["add"] + words))
        },
        commandLine: CommandText.from,
        message: { error in
          let text: String
          switch error {
          case is CoreError, is CLIError, is StorageError: text = String(describing: error)
          default: text = Ootd.Add.message(for: error)
          }
          return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        },
        commits: { range, database in
          try DashboardFacts.commitCalendar(range, database: database, timeZone: environment.timeZone)
        })
    }

    /// `line` split into words as a shell would: spaces separate, quotes ('…', "…") and a
    /// backslash keep them in a word.
    static func words(_ line: String) throws -> [String] {
      var words: [String] = []
      var word = ""
      var inWord = false
      var quote: Character? = nil
      var escaped = false
      for character in line {
        if escaped {
          word.append(character)
          escaped = false
        } else if let open = quote {
          if character == open { quote = nil } else { word.append(character) }
        } else if character == "\\" {
          escaped = true
          inWord = true
        } else if character == "'" || character == "\"" {
          quote = character
          inWord = true
        } else if character == " " || character == "\t" {
          if inWord { words.append(word) }
          word = ""
          inWord = false
        } else {
          word.append(character)
          inWord = true
        }
      }
      if quote != nil { throw CLIError.invalidValue("a quote is not closed") }
      // A backslash at the end escapes nothing: it is kept (it was dropped, and the journal
      // recorded an empty word: `add Title ''`).
      if escaped { word.append("\\") }
      if inWord { words.append(word) }
      return words
    }
  }
}

/// The rows and headings of `ootd list` (``TodoRenderer``), for the TUI.
struct ListRows: RowStyle {
  let style: Style

  var colored: Bool { style.colored }

  func line(_ todo: Todo, idWidth: Int, width: Int, carriedAway: Bool, today: Day) -> String {
    TodoRenderer(style: style, today: today, width: width).line(todo, idWidth: idWidth, carriedAway: carriedAway)
  }

  func heading(_ day: Day, figures: Tally, width: Int, today: Day) -> String {
    TodoRenderer(style: style, today: today).dayHeading(day, done: figures.done, total: figures.total)
      .joined(separator: " ")
  }

  func heatCell(_ level: Int?) -> String {
    guard let level else { return style.dim(TerminalHeatmap.missingGlyph) }
    return TerminalHeatmap(style: style, width: 0).cell(level)
  }

  func heatLegend(title: String, commitMaximum: Int?, width: Int) -> [String] {
    let labels = commitMaximum.map { HeatmapData.commitLegend(maximum: $0) } ?? AchievementLevel.allCases.map(\.label)
    return TerminalHeatmap(style: style, width: width).legend(labels, title: title)
  }
}
