import Core
import Foundation
import Zone

/// The JSON shapes ootd prints. Every field is always present; absent values are `null`.
/// Field names are a contract with scripts: add fields, never rename them.
enum JSONOutput {
  /// Encodes `value` as pretty-printed JSON with a trailing newline.
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return escapingControls(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  /// `json` with DEL and the C1 controls (U+007F…U+009F, which `JSONEncoder` leaves raw and
  /// terminals obey: U+009B starts an escape sequence) written as `\u009b` escapes. They can
  /// only occur inside strings, so the document means the same.
  static func escapingControls(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
    var result = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      guard (0x7F...0x9F).contains(scalar.value) else {
        result.append(scalar)
        continue
      }
      result.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
    }
    return String(result)
  }

  /// A todo: `{"id","uuid","title","priority","done","date","project","block","overdue","doneOn",
  /// "dropped","carriedFrom","notes","github","doneBy"}` (`carriedFrom`: the days it was carried
  /// away from, oldest first; `notes`: free text an import kept, or null; `github`:
  /// `{"url","state"}` of the linked issue, or null; `doneBy`: `manual`, `commits` or `github`
  /// when done and known, else null).
  struct TodoJSON: Encodable {
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

    enum CodingKeys: String, CodingKey {
      case id, uuid, title, priority, done, date, project, block, overdue, doneOn
      case dropped, carriedFrom
      case notes, tags
      case github, doneBy
    }

    /// `{"url","state"}`.
    struct GitHubLinkJSON: Encodable {
      let url: String
      let state: String
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(todo.id, forKey: .id)
      try c.encode(todo.uuid, forKey: .uuid)
      try c.encode(todo.title, forKey: .title)
      try c.encode(todo.priority.rawValue, forKey: .priority)
      try c.encode(todo.isDone, forKey: .done)
      try c.encode(todo.day.description, forKey: .date)
      try c.encode(todo.project, forKey: .project)
      try c.encode(todo.block, forKey: .block)
      try c.encode(todo.isOverdue(today: today), forKey: .overdue)
      try c.encode(todo.doneAt.map { Day($0, in: timeZone).description }, forKey: .doneOn)
      try c.encode(todo.isDropped, forKey: .dropped)
      try c.encode(todo.carriedFrom.map(\.description), forKey: .carriedFrom)
      try c.encode(todo.notes, forKey: .notes)
      try c.encode(todo.tags, forKey: .tags)
      try c.encode(todo.github.map { GitHubLinkJSON(url: $0.url, state: $0.state) }, forKey: .github)
      try c.encode(todo.doneBy?.rawValue, forKey: .doneBy)
    }
  }

  /// A task block: `{"name","uuid","title","priority","builtIn","routine","doneWhen","recurrence"}`
  /// (`doneWhen`: `{"rule": "commits", "repo": "OWNER/NAME" or null}`, or null; `recurrence` is
  /// the routine's days (`daily`, `mon,wed,fri`, `every 2d from 2026-11-23`), null when the block
  /// is not in the routine).
  struct BlockJSON: Encodable {
    let block: TaskBlock

    enum CodingKeys: String, CodingKey {
      case name, uuid, title, priority, builtIn, routine, doneWhen, recurrence
    }

    /// `{"rule","repo"}`.
    struct DoneRuleJSON: Encodable {
      let rule: String
      let repo: String?

      func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(repo, forKey: .repo)
      }

      enum CodingKeys: String, CodingKey { case rule, repo }
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(block.name, forKey: .name)
      try c.encode(block.uuid, forKey: .uuid)
      try c.encode(block.title, forKey: .title)
      try c.encode(block.priority.rawValue, forKey: .priority)
      try c.encode(block.isBuiltIn, forKey: .builtIn)
      try c.encode(block.isRoutine, forKey: .routine)
      try c.encode(
        block.doneWhen.map { DoneRuleJSON(rule: DoneRule.commits, repo: $0.repository?.description) },
        forKey: .doneWhen)
      try c.encode(block.isRoutine ? block.recurrence.text : nil, forKey: .recurrence)
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
  struct ReportJSON: Encodable {
    let report: AchievementReport
    let project: String?
    /// The GitHub commits of the same days; nil (null in JSON) until commits are synced.
    var commits: CommitCalendar? = nil
    /// When commits were last synced.
    var lastSync: Date? = nil

    enum CodingKeys: String, CodingKey {
      case from, to, days, total, done, rate, currentStreak, longestStreak
      case project, activeDays, perfectDays, priorities, weekdays, bestWeekday, worstWeekday
      case commits, lastSync, bestWeekdays, worstWeekdays, commitRelation
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(report.range.from.description, forKey: .from)
      try c.encode(report.range.to.description, forKey: .to)
      try c.encode(
        report.days.map {
          DayJSON(date: $0.day, tally: $0.tally, commits: commits?.syncedCount(on: $0.day))
        }, forKey: .days)
      try c.encode(report.total.total, forKey: .total)
      try c.encode(report.total.done, forKey: .done)
      try c.encode(report.total.rate, forKey: .rate)
      try c.encode(report.streaks.current, forKey: .currentStreak)
      try c.encode(report.streaks.longest, forKey: .longestStreak)
      try c.encode(project, forKey: .project)
      try c.encode(report.activeDays, forKey: .activeDays)
      try c.encode(report.perfectDays, forKey: .perfectDays)
      var priorities: [String: TallyJSON] = [:]
      for entry in report.priorities { priorities[entry.priority.rawValue] = TallyJSON(tally: entry.tally) }
      try c.encode(priorities, forKey: .priorities)
      try c.encode(report.weekdays.map(WeekdayJSON.init), forKey: .weekdays)
      try c.encode(report.bestWeekday?.shortName, forKey: .bestWeekday)
      try c.encode(report.worstWeekday?.shortName, forKey: .worstWeekday)
      try c.encode(commits?.total, forKey: .commits)
      try c.encode(lastSync.map { Timestamp.string($0, .iso8601) }, forKey: .lastSync)
      try c.encode(weekdayNames(report.bestWeekdays), forKey: .bestWeekdays)
      try c.encode(weekdayNames(report.worstWeekdays), forKey: .worstWeekdays)
      try c.encode(relation.map(RelationJSON.init), forKey: .commitRelation)
    }

    /// How achievement relates to commits over the range; nil until commits are synced.
    var relation: CommitAchievementRelation? {
      commits.map { CommitAchievementRelation(report, commits: $0) }
    }

    /// `["Tue","Thu"]`, or nil for no weekday.
    func weekdayNames(_ days: [Weekday]) -> [String]? {
      days.isEmpty ? nil : days.map(\.shortName)
    }

    /// Writes the report as ``encode(to:)`` does, keys in the order `.sortedKeys` gives (the
    /// tests compare both): a year of days without building the document through JSONEncoder.
    func write(to writer: inout JSONStreamWriter) {
      // A tally's members, in the sorted order every object that carries them keeps.
      func tallyMembers(_ tally: Tally) {
        writer.key("done")
        writer.integer(tally.done)
        writer.key("rate")
        writer.double(tally.rate)
        writer.key("total")
        writer.integer(tally.total)
      }
      func tally(_ tally: Tally) {
        writer.beginObject()
        tallyMembers(tally)
        writer.endObject()
      }
      writer.beginObject()
      writer.key("activeDays")
      writer.integer(report.activeDays)
      func names(_ days: [Weekday]) {
        guard let names = weekdayNames(days) else { return writer.null() }
        writer.beginArray()
        for name in names { writer.string(name) }
        writer.endArray()
      }
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
      writer.beginObject()
      // Keyed by name, so sorted by name as JSONEncoder sorts a dictionary (a priority listed
      // twice keeps its last tally, as the dictionary does).
      var priorities: [String: Tally] = [:]
      for entry in report.priorities { priorities[entry.priority.rawValue] = entry.tally }
      for (name, value) in priorities.sorted(by: { $0.key < $1.key }) {
        writer.key(named: name)
        tally(value)
      }
      writer.endObject()
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

  /// One day of a report: `{"date","total","done","rate","commits","carried"}` (`commits` null
  /// until GitHub commits are synced; `carried`: todos moved away after the day began, counted
  /// in `total`).
  struct DayJSON: Encodable {
    let date: Day
    let tally: Tally
    var commits: Int? = nil

    enum CodingKeys: String, CodingKey { case date, total, done, rate, commits, carried }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(date.description, forKey: .date)
      try c.encode(tally.total, forKey: .total)
      try c.encode(tally.done, forKey: .done)
      try c.encode(tally.rate, forKey: .rate)
      try c.encode(commits, forKey: .commits)
      try c.encode(tally.carried, forKey: .carried)
    }
  }

  /// One side of a report's `commitRelation`: `{"days","total","done","rate"}`.
  struct RelationSideJSON: Encodable {
    let tally: Tally
    let days: Int

    enum CodingKeys: String, CodingKey { case days, total, done, rate }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(days, forKey: .days)
      try c.encode(tally.total, forKey: .total)
      try c.encode(tally.done, forKey: .done)
      try c.encode(tally.rate, forKey: .rate)
    }
  }

  /// A report's `commitRelation`: `{"withCommits": {...}, "withoutCommits": {...}}`.
  struct RelationJSON: Encodable {
    let withCommits: RelationSideJSON
    let withoutCommits: RelationSideJSON

    init(_ relation: CommitAchievementRelation) {
      withCommits = RelationSideJSON(tally: relation.withCommits, days: relation.daysWithCommits)
      withoutCommits = RelationSideJSON(tally: relation.withoutCommits, days: relation.daysWithoutCommits)
    }
  }

  /// `{"total","done","rate"}`.
  struct TallyJSON: Encodable {
    let tally: Tally

    enum CodingKeys: String, CodingKey { case total, done, rate }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(tally.total, forKey: .total)
      try c.encode(tally.done, forKey: .done)
      try c.encode(tally.rate, forKey: .rate)
    }
  }

  /// `{"weekday","total","done","rate","activeDays"}`.
  struct WeekdayJSON: Encodable {
    let entry: WeekdayTally

    enum CodingKeys: String, CodingKey { case weekday, total, done, rate, activeDays }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(entry.weekday.shortName, forKey: .weekday)
      try c.encode(entry.tally.total, forKey: .total)
      try c.encode(entry.tally.done, forKey: .done)
      try c.encode(entry.tally.rate, forKey: .rate)
      try c.encode(entry.activeDays, forKey: .activeDays)
    }
  }
}
