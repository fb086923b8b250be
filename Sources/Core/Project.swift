/// An entry in the user's project archive.
public struct Project: Hashable, Sendable {
  /// The unique short name (`ootd project show ootd`).
  public var name: String
  /// A sentence about it.
  public var summary: String?
  /// Its GitHub repository.
  public var repository: RepositoryName?
  /// Where it lives on disk.
  public var localPath: String?
  /// When work started.
  public var start: Day?
  /// When work ended.
  public var end: Day?
  /// Technologies used, in the user's order, without duplicates.
  public var tech: [String]
  /// Free-form notes.
  public var memo: String?
  /// Whether it is archived (hidden from `project list` by default).
  public var isArchived: Bool
  /// Its stable identity (a lowercase uuid; empty until stored).
  public var uuid: String = ""

  /// Creates a project, validating the name and the date order.
  public init(
    name: String, summary: String? = nil, repository: RepositoryName? = nil,
    localPath: String? = nil, start: Day? = nil, end: Day? = nil, tech: [String] = [],
    memo: String? = nil, isArchived: Bool = false
  ) throws(CoreError) {
    self.name = try Name.validate(name, kind: "project")
    self.summary = summary
    self.repository = repository
    self.localPath = localPath
    self.start = start
    self.end = end
    self.tech = Project.normalizedTech(tech)
    self.memo = memo
    self.isArchived = isArchived
    try validateDates()
  }

  /// Throws when `end` is before `start`.
  public func validateDates() throws(CoreError) {
    if let start, let end, end < start { throw .projectEndsBeforeStart(start: start, end: end) }
  }

  /// Splits `a, b,,c` into trimmed, non-empty, de-duplicated tags, keeping the first spelling.
  public static func normalizedTech(_ tags: [String]) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for tag in tags.flatMap({ $0.split(separator: ",") }) {
      let trimmed = tag.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted { result.append(trimmed) }
    }
    return result
  }
}

/// A project together with how far its todos have come.
public struct ProjectProgress: Hashable, Sendable {
  /// The project.
  public var project: Project
  /// How many todos link to it.
  public var total: Int
  /// How many of those are done.
  public var done: Int
  /// The latest day on which a todo of this project was done, if any.
  public var lastActivity: Day?

  /// Creates a progress value.
  public init(project: Project, total: Int, done: Int, lastActivity: Day?) {
    self.project = project
    self.total = total
    self.done = done
    self.lastActivity = lastActivity
  }

  /// done / total, or nil when there are no todos.
  public var rate: Double? { total == 0 ? nil : Double(done) / Double(total) }
}

extension Project {
  /// Where this project's commits are filed in the cache: its GitHub repository, else
  /// `local/NAME` (Storage's key for a local clone of a project without a GitHub repository).
  public var commitRepository: RepositoryName? {
    if let repository { return repository }
    guard localPath != nil else { return nil }
    return RepositoryName(owner: "local", name: name)
  }
}
