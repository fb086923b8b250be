import Core
import Foundation
import Zone

/// The JSON shapes ootd prints. Every field is always present; absent values are `null`.
/// Field names are a contract with scripts: add fields, never rename them. Each shape is written
/// by one piece of code, its `write(to:)` (``JSONShape``), member by member with keys sorted (the
/// writer checks the order in debug builds); golden files in `Tests/CLITests/Golden/json/` hold
/// the bytes.
enum JSONOutput {
  /// `shape` as one document with a trailing newline, as it is printed.
  static func text(_ shape: some JSONShape) -> String {
    var text = ""
    var writer = JSONStreamWriter(output: { text += $0 })
    shape.write(to: &writer)
    writer.finish()
    return text
  }

  /// Prints `shape` as one document and a newline, to standard output.
  static func print(_ shape: some JSONShape, _ environment: AppEnvironment) {
    var writer = JSONStreamWriter(environment)
    shape.write(to: &writer)
    writer.finish()
  }

  /// A todo: `{"id","uuid","title","priority","done","date","project","block","overdue","doneOn",
  /// "dropped","carriedFrom","notes","tags","annotations","attributes","github","doneBy"}`
  /// (`carriedFrom`: the days it was carried away from, oldest first; `notes`: free text, or
  /// null; `annotations`: `[{"entry","text"}]`, Taskwarrior's dated remarks, `entry` in ISO 8601
  /// UTC; `attributes`: `{"key": "value"}`, what another tracker held that no field does; `github`:
  /// `{"url","state"}` of the linked issue, or null; `doneBy`: `manual`, `commits` or `github`
  /// when done and known, else null).
  struct TodoJSON: JSONShape {
    let todo: Todo
    let today: Day
    let timeZone: any ZoneRules

    /// `todo` as the user sees it: overdue against their today, times in their zone.
    init(_ todo: Todo, _ environment: AppEnvironment) {
      self.init(todo: todo, today: environment.today, timeZone: environment.timeZone)
    }

    init(todo: Todo, today: Day, timeZone: any ZoneRules) {
      self.todo = todo
      self.today = today
      self.timeZone = timeZone
    }

    func write(to writer: inout JSONStreamWriter) {
      write(to: &writer, history: nil)
    }

    /// Writes the todo; with `history` (`show --json`), its journal entries as `history`.
    func write(to writer: inout JSONStreamWriter, history: [JournalEntry]?) {
      Self.write(todo, today: today, timeZone: timeZone, to: &writer, history: history)
    }

    /// Writes `todo` as ``write(to:history:)`` does, without a ``TodoJSON`` holding a copy of
    /// it: what a listing of a million todos calls.
    static func write(
      _ todo: Todo, today: Day, timeZone: any ZoneRules, to writer: inout JSONStreamWriter,
      history: [JournalEntry]? = nil
    ) {
      writer.beginObject()
      writer.key("annotations")
      writer.beginArray()
      for annotation in todo.annotations {
        writer.beginObject()
        writer.key("entry")
        writer.string(Timestamp.string(annotation.entry, .iso8601))
        writer.key("text")
        writer.string(annotation.text)
        writer.endObject()
      }
      writer.endArray()
      writer.key("attributes")
      writer.beginObject()
      // Sorted as every key is (case-insensitively; no two keys differ only in case).
      for key in todo.attributes.keys.sorted(by: { $0.lowercased() < $1.lowercased() }) {
        writer.key(named: key)
        writer.string(todo.attributes[key])
      }
      writer.endObject()
      writer.key("block")
      writer.string(todo.block)
      writer.key("carriedFrom")
      writer.beginArray()
      for day in todo.carriedFrom { writer.string(day.description) }
      writer.endArray()
      writer.key("date")
      writer.string(todo.day?.description)
      writer.key("done")
      writer.bool(todo.isDone)
      writer.key("doneBy")
      writer.string(todo.doneBy?.rawValue)
      writer.key("doneOn")
      writer.string(todo.doneAt.map { Day($0, in: timeZone).description })
      writer.key("dropped")
      writer.bool(todo.isDropped)
      writer.key("github")
      if let github = todo.github {
        writer.beginObject()
        writer.key("state")
        writer.string(github.state)
        writer.key("url")
        writer.string(github.url)
        writer.endObject()
      } else {
        writer.null()
      }
      if let history {
        writer.key("history")
        writer.array(history.map(JournalOutput.EntryJSON.init))
      }
      writer.key("id")
      writer.integer(todo.id)
      writer.key("notes")
      writer.string(todo.notes)
      writer.key("overdue")
      writer.bool(todo.isOverdue(today: today))
      writer.key("priority")
      writer.string(todo.priority.rawValue)
      writer.key("project")
      writer.string(todo.project)
      writer.key("tags")
      writer.beginArray()
      for tag in todo.tags { writer.string(tag) }
      writer.endArray()
      writer.key("title")
      writer.string(todo.title)
      writer.key("uuid")
      writer.string(todo.uuid)
      writer.endObject()
    }
  }

  /// A task block: `{"name","uuid","title","priority","builtIn","routine","doneWhen","recurrence"}`
  /// (`doneWhen`: `{"rule": "commits", "repo": "OWNER/NAME" or null}`, or null; `recurrence` is
  /// the routine's days (`daily`, `mon,wed,fri`, `every 2d from 2026-11-23`), null when the block
  /// is not in the routine).
  struct BlockJSON: JSONShape {
    let block: TaskBlock

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("builtIn")
      writer.bool(block.isBuiltIn)
      writer.key("doneWhen")
      if let rule = block.doneWhen {
        writer.beginObject()
        writer.key("repo")
        writer.string(rule.repository?.description)
        writer.key("rule")
        writer.string(DoneRule.commits)
        writer.endObject()
      } else {
        writer.null()
      }
      writer.key("name")
      writer.string(block.name)
      writer.key("priority")
      writer.string(block.priority.rawValue)
      writer.key("recurrence")
      writer.string(block.isRoutine ? block.recurrence.text : nil)
      writer.key("routine")
      writer.bool(block.isRoutine)
      writer.key("title")
      writer.string(block.title)
      writer.key("uuid")
      writer.string(block.uuid)
      writer.endObject()
    }
  }

  /// A project with its progress: `{"name","uuid","description","repo","path","start","end","tech",
  /// "memo","archived","total","done","rate","lastActivity"}`, plus `commits` and `todos` in
  /// `project show`. Written by one writer for every command that prints a project (`project
  /// add/edit/list/show --json`), keys sorted as `JSONOutput.encode` sorts them, so `project show`
  /// can stream its todos (any number of them in constant memory) in the same document shape.
  struct ProjectJSON {
    let progress: ProjectProgress

    /// Writes the project as one JSON object.
    func write(to writer: inout JSONStreamWriter) {
      writeHead(to: &writer, showsCommits: false, commits: nil)
      writeTail(to: &writer)
    }

    /// Writes the project as `project show` does: with its repository's `commits` (null without
    /// a repository or before it was synced) and `todos`, an array that `todos` writes.
    func write(
      to writer: inout JSONStreamWriter, commits: ProjectCommits?,
      todos: (inout JSONStreamWriter) throws -> Void
    ) rethrows {
      writeHead(to: &writer, showsCommits: true, commits: commits)
      writer.key("todos")
      try todos(&writer)
      writeTail(to: &writer)
    }

    /// The members before `todos`; `commits` when `showsCommits`.
    private func writeHead(
      to writer: inout JSONStreamWriter, showsCommits: Bool, commits: ProjectCommits?
    ) {
      let project = progress.project
      writer.beginObject()
      writer.key("archived")
      writer.bool(project.isArchived)
      if showsCommits {
        writer.key("commits")
        if let commits, commits.isSynced {
          commits.write(to: &writer)
        } else {
          writer.null()
        }
      }
      writer.key("description")
      writer.string(project.summary)
      writer.key("done")
      writer.integer(progress.done)
      writer.key("end")
      writer.string(project.end?.description)
      writer.key("lastActivity")
      writer.string(progress.lastActivity?.description)
      writer.key("memo")
      writer.string(project.memo)
      writer.key("name")
      writer.string(project.name)
      writer.key("path")
      writer.string(project.localPath)
      writer.key("rate")
      writer.double(progress.rate)
      writer.key("repo")
      writer.string(project.repository?.description)
      writer.key("start")
      writer.string(project.start?.description)
      writer.key("tech")
      writer.beginArray()
      for tech in project.tech { writer.string(tech) }
      writer.endArray()
    }

    /// The members after `todos`, and the end of the object.
    private func writeTail(to writer: inout JSONStreamWriter) {
      writer.key("total")
      writer.integer(progress.total)
      writer.key("uuid")
      writer.string(progress.project.uuid)
      writer.endObject()
    }

    /// Prints `project add/edit --json`: the one project.
    static func print(_ progress: ProjectProgress, _ environment: AppEnvironment) {
      var writer = JSONStreamWriter(environment)
      ProjectJSON(progress: progress).write(to: &writer)
      writer.finish()
    }
  }

  /// An achievement report. The contract scripts rely on:
  /// `{"from","to","days":[{"date","total","done","rate"}],"total","done","rate",
  /// "currentStreak","longestStreak"}` with every day of the range in `days` and `rate` null
  /// when nothing was planned. Extra fields: `project`, `activeDays`, `perfectDays`,
  /// `priorities` (`{"high": {"total","done","rate"}, "mid", "low"}`), `weekdays`
  /// (`[{"weekday","total","done","rate","activeDays"}]`, Monday first), `bestWeekday`,
  /// `worstWeekday`, `bestWeekdays`/`worstWeekdays` (every weekday sharing that rate: two or
  /// more is a tie; null without a best), `commitRelation` (null until commits are synced:
  /// `{"withCommits": {"days","total","done","rate"}, "withoutCommits": {...}}`, the text's
  /// "days with commits: 84% achieved; days without: 52%" over synced days with todos).
  struct ReportJSON: JSONShape {
    let report: AchievementReport
    let project: String?
    /// The GitHub commits of the same days; nil (null in JSON) until commits are synced.
    var commits: CommitCalendar? = nil
    /// When commits were last synced.
    var lastSync: Date? = nil

    /// How achievement relates to commits over the range; nil until commits are synced.
    var relation: CommitAchievementRelation? {
      commits.map { CommitAchievementRelation(report, commits: $0) }
    }

    /// `["Tue","Thu"]`, or nil for no weekday.
    func weekdayNames(_ days: [Weekday]) -> [String]? {
      days.isEmpty ? nil : days.map(\.shortName)
    }

    /// Writes the report a value at a time: a year of days without building the document.
    func write(to writer: inout JSONStreamWriter) {
      func tallyMembers(_ tally: Tally) { writer.tallyMembers(tally) }
      writer.beginObject()
      writer.key("activeDays")
      writer.integer(report.activeDays)
      func names(_ days: [Weekday]) { writer.strings(weekdayNames(days)) }
      func side(_ tally: Tally, days: Int) {
        writer.beginObject()
        writer.key("days")
        writer.integer(days)
        tallyMembers(tally)
        writer.endObject()
      }
      writer.key("bestWeekday")
      writer.string(report.bestWeekday?.shortName)
      writer.key("bestWeekdays")
      names(report.bestWeekdays)
      writer.key("commitRelation")
      if let relation {
        writer.beginObject()
        writer.key("withCommits")
        side(relation.withCommits, days: relation.daysWithCommits)
        writer.key("withoutCommits")
        side(relation.withoutCommits, days: relation.daysWithoutCommits)
        writer.endObject()
      } else {
        writer.null()
      }
      writer.key("commits")
      writer.integer(commits?.total)
      writer.key("currentStreak")
      writer.integer(report.streaks.current)
      writer.key("days")
      writer.beginArray()
      for day in report.days {
        writer.beginObject()
        writer.key("carried")
        writer.integer(day.tally.carried)
        writer.key("commits")
        writer.integer(commits?.syncedCount(on: day.day))
        writer.key("date")
        writer.string(day.day.description)
        tallyMembers(day.tally)
        writer.endObject()
      }
      writer.endArray()
      writer.key("done")
      writer.integer(report.total.done)
      writer.key("from")
      writer.string(report.range.from.description)
      writer.key("lastSync")
      writer.string(lastSync.map { Timestamp.string($0, .iso8601) })
      writer.key("longestStreak")
      writer.integer(report.streaks.longest)
      writer.key("perfectDays")
      writer.integer(report.perfectDays)
      writer.key("priorities")
      // Keyed by name, so sorted by name as JSONEncoder sorts a dictionary (a priority listed
      // twice keeps its last tally, as the dictionary does).
      var priorities: [String: Tally] = [:]
      for entry in report.priorities { priorities[entry.priority.rawValue] = entry.tally }
      writer.object(priorities) { writer, value in
        writer.beginObject()
        writer.tallyMembers(value)
        writer.endObject()
      }
      writer.key("project")
      writer.string(project)
      writer.key("rate")
      writer.double(report.total.rate)
      writer.key("to")
      writer.string(report.range.to.description)
      writer.key("total")
      writer.integer(report.total.total)
      writer.key("weekdays")
      writer.beginArray()
      for entry in report.weekdays {
        writer.beginObject()
        writer.key("activeDays")
        writer.integer(entry.activeDays)
        tallyMembers(entry.tally)
        writer.key("weekday")
        writer.string(entry.weekday.shortName)
        writer.endObject()
      }
      writer.endArray()
      writer.key("worstWeekday")
      writer.string(report.worstWeekday?.shortName)
      writer.key("worstWeekdays")
      names(report.worstWeekdays)
      writer.endObject()
    }
  }
}

extension JSONStreamWriter {
  /// A tally's members (`done`, `rate`, `total`), in the sorted order every object that carries
  /// them keeps.
  mutating func tallyMembers(_ tally: Tally) {
    key("done")
    integer(tally.done)
    key("rate")
    double(tally.rate)
    key("total")
    integer(tally.total)
  }
}
