import ArgumentParser
import Core

/// The fields `project add` and `project edit` share.
struct ProjectFieldOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("Its GitHub repository ('' clears it in edit).", valueName: "owner/name"))
  var repo: String?

  @Option(name: .long, help: "A sentence about it.")
  var desc: String?

  @Option(name: .long, help: ArgumentHelp("Where it lives on disk.", valueName: "path"), completion: .directory)
  var path: String?

  @Option(name: .long, help: ArgumentHelp("When work started.", valueName: "date"))
  var start: String?

  @Option(name: .long, help: ArgumentHelp("When work ended.", valueName: "date"))
  var end: String?

  @Option(name: .long, help: ArgumentHelp("Technologies, comma-separated.", valueName: "a,b"))
  var tech: String?

  @Option(name: .long, help: "Free-form notes.")
  var memo: String?

  /// Applies the given fields to `project`; an empty string clears a field.
  func apply(to project: inout Project, _ environment: AppEnvironment) throws(CoreError) {
    func text(_ value: String?) -> String?? {
      guard let value else { return nil }
      let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
      return .some(trimmed.isEmpty ? nil : trimmed)
    }
    func day(_ value: String?) throws(CoreError) -> Day?? {
      guard let value else { return nil }
      if value.isEmpty { return .some(nil) }
      return .some(try parseDay(value, environment) as Day)
    }
    if let repo = text(repo) {
      if let repo {
        guard let name = RepositoryName(repo) else { throw .invalidRepository(repo) }
        project.repository = name
      } else {
        project.repository = nil
      }
    }
    if let desc = text(desc) { project.summary = desc }
    // Stored absolute, so that `sync --local` finds the clone from any folder.
    if let path = text(path) { project.localPath = path.map(environment.absolutePath) }
    if let start = try day(start) { project.start = start }
    if let end = try day(end) { project.end = end }
    if let tech { project.tech = Project.normalizedTech([tech]) }
    if let memo = text(memo) { project.memo = memo }
    try project.validateDates()
  }

  var isEmpty: Bool {
    repo == nil && desc == nil && path == nil && start == nil && end == nil && tech == nil
      && memo == nil
  }
}
