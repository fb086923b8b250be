import Core
import Foundation
import Testing

/// A repeating VTODO made on a phone comes in as its next instance (issue 27): RFC 5545's
/// `RRULE` followed, as a table. Every expected day was checked against python-dateutil's
/// `rrule` (the reference implementation most CalDAV tools use), today being 2026-11-22 (a Sunday).
@Suite struct RecurrenceRuleTests {
  static let today = Day(iso: "2026-11-22")!

  static func day(_ text: String) -> Day { Day(iso: text)! }

  @Test(arguments: [
    ("FREQ=DAILY", "2026-11-01", RecurrenceRule.Next.instance(day("2026-11-22"))),
    ("FREQ=DAILY;INTERVAL=3", "2026-11-01", .instance(day("2026-11-22"))),
    ("FREQ=DAILY;INTERVAL=5", "2026-11-01", .instance(day("2026-11-26"))),
    ("freq=daily;interval=2", "2026-11-01", .instance(day("2026-11-23"))),
    ("FREQ=DAILY;BYDAY=MO,WE,FR", "2026-11-02", .instance(day("2026-11-23"))),
    ("FREQ=DAILY", "2026-12-01", .instance(day("2026-12-01"))),
    ("FREQ=WEEKLY", "2026-11-02", .instance(day("2026-11-23"))),
    ("FREQ=WEEKLY;BYDAY=TU,TH", "2026-11-03", .instance(day("2026-11-24"))),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", "2026-11-02", .instance(day("2026-11-30"))),
    ("FREQ=WEEKLY;WKST=SU;INTERVAL=2;BYDAY=SU,SA", "2026-11-01", .instance(day("2026-11-29"))),
    // The 31st: only the months that have one.
    ("FREQ=MONTHLY", "2026-01-31", .instance(day("2026-12-31"))),
    ("FREQ=MONTHLY;BYMONTHDAY=15", "2026-01-15", .instance(day("2026-12-15"))),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "2026-01-31", .instance(day("2026-11-30"))),
    ("FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-10-01", .instance(day("2026-12-01"))),
    ("FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-2", "2026-01-30", .instance(day("2026-11-29"))),
    ("FREQ=MONTHLY;BYDAY=2MO", "2026-01-12", .instance(day("2026-12-14"))),
    ("FREQ=MONTHLY;BYDAY=-1FR", "2026-01-30", .instance(day("2026-11-27"))),
    ("FREQ=MONTHLY;BYDAY=MO", "2026-10-05", .instance(day("2026-11-23"))),
    // 29 February: only leap years.
    ("FREQ=YEARLY", "2020-02-29", .instance(day("2028-02-29"))),
    ("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "2020-03-29", .instance(day("2027-03-28"))),
    // COUNT and UNTIL end the series: its last instance.
    ("FREQ=DAILY;COUNT=3", "2026-11-01", .ended(day("2026-11-03"))),
    ("FREQ=MONTHLY;BYDAY=1MO;COUNT=12", "2026-01-05", .instance(day("2026-12-07"))),
    ("FREQ=MONTHLY;BYDAY=1MO;COUNT=11", "2026-01-05", .ended(day("2026-11-02"))),
    ("FREQ=WEEKLY;UNTIL=20261115T000000Z", "2026-10-01", .ended(day("2026-11-12"))),
    ("FREQ=DAILY;UNTIL=20261101", "2026-11-05", .ended(day("2026-11-05"))),
    // A rule naming no day that exists ends on its start.
    ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "2020-02-01", .ended(day("2020-02-01"))),
    // Rules ootd does not follow: said, and the todo stays on its start.
    ("FREQ=HOURLY", "2026-11-01", .unsupported("FREQ=HOURLY is not followed")),
    ("FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR", "2026-11-01", .unsupported("BYSETPOS is not followed")),
    ("FREQ=WEEKLY;BYDAY=2MO", "2026-11-01", .unsupported("a BYDAY ordinal in a WEEKLY rule")),
    ("FREQ=YEARLY;BYDAY=20MO", "2026-11-01", .unsupported("BYDAY=20MO")),
    ("FREQ=DAILY;COUNT=2;UNTIL=20261201", "2026-11-01", .unsupported("both COUNT and UNTIL")),
    ("INTERVAL=2", "2026-11-01", .unsupported("no FREQ")),
    ("FREQ=DAILY;INTERVAL=0", "2026-11-01", .unsupported("INTERVAL=0")),
  ] as [(String, String, RecurrenceRule.Next)])
  func next(rule: String, start: String, expected: RecurrenceRule.Next) {
    #expect(RecurrenceRule.next(rule, start: Self.day(start), today: Self.today) == expected)
  }

  /// A daily rule from long ago is followed without walking every day (no COUNT to count).
  @Test func farPastStart() {
    #expect(RecurrenceRule.next("FREQ=DAILY;INTERVAL=7", start: Self.day("1900-01-01"), today: Self.today) == .instance(Self.day("2026-11-23")))
  }
}

/// How CATEGORIES say a todo's project, block and tags (issue 27), as a table.
@Suite struct CalDAVCategoriesTests {
  static let names = CalDAVCategories.Names(projects: ["ootd", "Home Stuff", "work"], blocks: ["blog", "algorithm"])

  static func reference(project: String?, block: String?, tags: String?) -> Fields {
    ["project": .optional(project), "block": .optional(block), "tags": .optional(tags)]
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let categories: [String]
    let reference: Fields?
    let project: String?
    let block: String?
    let tags: String?
    var testDescription: String { name }
  }

  static let written = reference(project: "ootd", block: "blog", tags: "bug")

  static let rows: [Row] = [
    Row(name: "as ootd wrote them", categories: ["ootd", "blog", "bug"], reference: written, project: "ootd", block: "blog", tags: "bug"),
    Row(name: "a tag added", categories: ["ootd", "blog", "bug", "Errand"], reference: written, project: "ootd", block: "blog", tags: "bug errand"),
    Row(name: "the project removed", categories: ["blog", "bug"], reference: written, project: nil, block: "blog", tags: "bug"),
    Row(name: "the block removed", categories: ["ootd", "bug"], reference: written, project: "ootd", block: nil, tags: "bug"),
    Row(name: "the project renamed to another project", categories: ["work", "blog", "bug"], reference: written, project: "work", block: "blog", tags: "bug"),
    Row(name: "the project renamed to no project: a tag", categories: ["office", "blog", "bug"], reference: written, project: nil, block: "blog", tags: "bug office"),
    Row(name: "a project named in another case", categories: ["WORK"], reference: nil, project: "work", block: nil, tags: nil),
    Row(name: "a project that can be no tag", categories: ["Home Stuff", "x"], reference: nil, project: "Home Stuff", block: nil, tags: "x"),
    Row(name: "a second project is a tag", categories: ["ootd", "work"], reference: written, project: "ootd", block: nil, tags: "work"),
    Row(name: "a tag that is a block's name stays a tag", categories: ["ootd", "algorithm"], reference: reference(project: "ootd", block: nil, tags: "algorithm"), project: "ootd", block: nil, tags: "algorithm"),
    Row(name: "a block's name added is the block", categories: ["ootd", "algorithm"], reference: reference(project: "ootd", block: nil, tags: nil), project: "ootd", block: "algorithm", tags: nil),
    Row(name: "new on the phone", categories: ["blog", "Work Stuff", "errand", "errand"], reference: nil, project: nil, block: "blog", tags: "errand"),
    Row(name: "none", categories: [], reference: written, project: nil, block: nil, tags: nil),
  ]

  @Test(arguments: rows)
  func read(row: Row) {
    let read = CalDAVCategories.read(row.categories, reference: row.reference, names: Self.names)
    #expect(read.project == row.project)
    #expect(read.block == row.block)
    #expect(read.tags == row.tags)
  }

  @Test func unreadCategoriesStayOnTheServer() {
    let old = Self.reference(project: "Home Stuff", block: nil, tags: "x")
    let new = Self.reference(project: nil, block: nil, tags: "x")
    #expect(CalDAVCategories.unread(["Home Stuff", "x", "Work Stuff", "+y", ""], fields: [old, new]) == ["Work Stuff"])
  }
}
