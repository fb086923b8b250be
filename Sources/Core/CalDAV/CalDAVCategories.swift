#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zone

/// How a VTODO's `CATEGORIES` say a todo's project, block and tags (issue 27). ootd writes the
/// project's name, the block's, then the tags; a phone shows them all as categories and may add,
/// remove or rename any. Read back, pure and table-tested:
///
/// - the project: the one ootd wrote last (the `reference`: the last sync's values, else the
///   todo's) while it is still a category; else the first category naming a project of this
///   database (not one the reference had as a tag); else none. A category naming no project is
///   never made a project: a phone's categories are labels, so it is a tag;
/// - the block: the same, with the task blocks;
/// - the tags: every other category that is a tag (lowercased, at most ``Caps/tagsPerTodo``). A
///   category that can be no tag (`Work Stuff`) is left on the server as it is.
public enum CalDAVCategories {
  /// The names a category may give a todo's project or block: this database's.
  public struct Names: Hashable, Sendable {
    public var projects: Set<String>
    public var blocks: Set<String>

    public init(projects: Set<String>, blocks: Set<String>) {
      self.projects = projects
      self.blocks = blocks
    }

    public static let none = Names(projects: [], blocks: [])
  }

  /// The project, block and tags (stored form) `categories` give, against `reference` (the
  /// ``CalDAVFields`` ootd last wrote, or nil for a VTODO new to it).
  public static func read(_ categories: [String], reference: Fields?, names: Names)
    -> (project: String?, block: String?, tags: String?)
  {
    var rest: [String] = []
    for category in categories.map(trimmingWhiteSpace) where !category.isEmpty && !rest.contains(category) {
      rest.append(category)
    }
    let referenceTags = Set(Tag.tags(reference?[todo: .tags]?.text))
    // Names are matched as the database matches them (case aside), and given as it spells them.
    func take(_ current: String?, _ known: Set<String>) -> String? {
      if let current, let index = rest.firstIndex(of: current) { return rest.remove(at: index) }
      let spelled = Dictionary(known.map { ($0.lowercased(), $0) }) { a, _ in a }
      guard let index = rest.firstIndex(where: { spelled[$0.lowercased()] != nil && !referenceTags.contains(Tag.parse($0) ?? "") })
      else { return nil }
      return spelled[rest.remove(at: index).lowercased()]
    }
    let project = take(reference?[todo: .project]?.text, names.projects)
    let block = take(reference?[todo: .block]?.text, names.blocks)
    let tags = Tag.normalized(rest.compactMap { try? Tag.validate($0) }).prefix(Caps.tagsPerTodo)
    return (project, block, Tag.text(Array(tags)))
  }

  /// The categories of `categories` ootd does not read (no project, block nor tag of `fields`
  /// and none it could be): kept on the server when ootd rewrites `CATEGORIES`. `fields` are the
  /// todo's before and after the change (a project ootd took away is not kept).
  public static func unread(_ categories: [String], fields: [Fields]) -> [String] {
    let names = Set(fields.flatMap { [$0[todo: .project]?.text, $0[todo: .block]?.text] }.compactMap { $0 })
    return categories.filter { !$0.isEmpty && !names.contains($0) && (try? Tag.validate($0)) == nil }
  }
}

/// A VTODO as read from a server (``CalendarObjectMapping/read(_:timeZone:today:now:)``).
public struct CalDAVServerTodo: Hashable, Sendable {
  /// Its `UID` (the todo's uuid when ootd made it).
  public var uid: String
  /// Its fields (``CalDAVFields``) but `project`, `block` and `tags`: see ``categories``.
  public var fields: Fields
  /// Its `CATEGORIES`, in order.
  public var categories: [String]
  /// `LAST-MODIFIED` (else `DTSTAMP`), when readable.
  public var lastModified: Date?
  /// Set when the VTODO repeats (`RRULE`): the rule, and where its todo goes (its day in
  /// ``fields``).
  public var repetition: Repetition?
  /// What was changed to make it fit (a title cut to the cap): one phrase each.
  public var adjustments: [String]

  public struct Repetition: Hashable, Sendable {
    /// The `RRULE` value as sent (server text: sanitise before a terminal).
    public var rule: String
    public var next: RecurrenceRule.Next

    public init(rule: String, next: RecurrenceRule.Next) {
      self.rule = rule
      self.next = next
    }
  }

  public init(
    uid: String, fields: Fields, categories: [String], lastModified: Date?, repetition: Repetition?, adjustments: [String]
  ) {
    self.uid = uid
    self.fields = fields
    self.categories = categories
    self.lastModified = lastModified
    self.repetition = repetition
    self.adjustments = adjustments
  }

  /// Its fields (``CalDAVFields``), project, block and tags read from its categories
  /// (``CalDAVCategories/read(_:reference:names:)``).
  public func fields(reference: Fields?, names: CalDAVCategories.Names) -> Fields {
    var result = fields
    let read = CalDAVCategories.read(categories, reference: reference, names: names)
    result[todo: .project] = .optional(read.project)
    result[todo: .block] = .optional(read.block)
    result[todo: .tags] = .optional(read.tags)
    return result
  }
}

/// How a CalDAV sync reads and writes a VTODO: Interchange's `VTODOMapping`, handed to the run
/// (UseCases' `CalDAVSyncRun`) by the CLI, as ``CalendarCollection`` hands it the server.
public protocol CalendarObjectMapping: Sendable {
  /// Reads the first VTODO of `ics` (a repeating one on its next instance after `today`).
  func read(_ ics: String, timeZone: any ZoneRules, today: Day, now: Date) throws -> CalDAVServerTodo
  /// A new calendar object for the todo `uuid` with `fields` (``CalDAVFields``).
  func render(_ fields: Fields, uuid: String, createdAt: Date, now: Date, productVersion: String) -> String
  /// `ics` (a server's object) with the fields that differ between `old` and `new` rewritten,
  /// every other line kept as it was.
  func patch(_ ics: String, uuid: String, old: Fields, new: Fields, now: Date) throws -> String
}
