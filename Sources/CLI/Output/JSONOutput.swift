import Core
import Foundation

/// The JSON shapes ootd prints. Every field is always present; absent values are `null`.
/// Field names are a contract with scripts: add fields, never rename them.
enum JSONOutput {
  /// Encodes `value` as pretty-printed JSON with a trailing newline.
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// A todo: `{"id","title","priority","done","date","project","block","overdue","doneOn"}`.
  struct TodoJSON: Encodable {
    let todo: Todo
    let today: Day
    let timeZone: TimeZone

    enum CodingKeys: String, CodingKey {
      case id, title, priority, done, date, project, block, overdue, doneOn
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(todo.id, forKey: .id)
      try c.encode(todo.title, forKey: .title)
      try c.encode(todo.priority.rawValue, forKey: .priority)
      try c.encode(todo.isDone, forKey: .done)
      try c.encode(todo.day.description, forKey: .date)
      try c.encode(todo.project, forKey: .project)
      try c.encode(todo.block, forKey: .block)
      try c.encode(todo.isOverdue(today: today), forKey: .overdue)
      try c.encode(todo.doneAt.map { Day($0, in: timeZone).description }, forKey: .doneOn)
    }
  }

  /// A task block: `{"name","title","priority","builtIn","routine"}`.
  struct BlockJSON: Encodable {
    let block: TaskBlock

    enum CodingKeys: String, CodingKey { case name, title, priority, builtIn, routine }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(block.name, forKey: .name)
      try c.encode(block.title, forKey: .title)
      try c.encode(block.priority.rawValue, forKey: .priority)
      try c.encode(block.isBuiltIn, forKey: .builtIn)
      try c.encode(block.isRoutine, forKey: .routine)
    }
  }

  /// A project with its progress: `{"name","description","repo","path","start","end","tech",
  /// "memo","archived","total","done","rate","lastActivity"}`, plus `todos` in `project show`.
  struct ProjectJSON: Encodable {
    let progress: ProjectProgress
    var todos: [TodoJSON]? = nil

    enum CodingKeys: String, CodingKey {
      case name, description, repo, path, start, end, tech, memo, archived, total, done, rate
      case lastActivity, todos
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      let project = progress.project
      try c.encode(project.name, forKey: .name)
      try c.encode(project.summary, forKey: .description)
      try c.encode(project.repository?.description, forKey: .repo)
      try c.encode(project.localPath, forKey: .path)
      try c.encode(project.start?.description, forKey: .start)
      try c.encode(project.end?.description, forKey: .end)
      try c.encode(project.tech, forKey: .tech)
      try c.encode(project.memo, forKey: .memo)
      try c.encode(project.isArchived, forKey: .archived)
      try c.encode(progress.total, forKey: .total)
      try c.encode(progress.done, forKey: .done)
      try c.encode(progress.rate, forKey: .rate)
      try c.encode(progress.lastActivity?.description, forKey: .lastActivity)
      if let todos { try c.encode(todos, forKey: .todos) }
    }
  }
}
