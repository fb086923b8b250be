import Core
import Foundation
import Testing

@Suite("Issue todo rules")
struct GitHubIssueRuleTests {
  static let seoul = TimeZone(identifier: "Asia/Seoul")!

  @Test(arguments: [
    (["priority: high"], Priority.high), (["Priority: High"], .high), (["priority/high"], .high),
    (["P0"], .high), (["p1"], .high), (["critical"], .high), (["bug", "urgent"], .high),
    (["P3"], .low), (["low"], .low), (["priority:low"], .low), (["priority-low"], .low),
    (["P2"], .mid), (["bug"], .mid), ([], .mid), (["low", "P1"], .high),
  ])
  func builtInLabelRules(labels: [String], expected: Priority) {
    #expect(LabelPriorityRules().priority(labels: labels) == expected)
  }

  @Test func customRulesWinOverBuiltIns_anyCase() {
    let rules = LabelPriorityRules(custom: ["Needs Love": .high, "p1": .low])
    #expect(rules.priority(labels: ["needs love"]) == .high)
    #expect(rules.priority(labels: ["P1"]) == .low)
    #expect(rules.priority(labels: ["P0"]) == .high)
  }

  @Test(arguments: [
    ("needs love=high", "needs love", Priority.high), ("a=b=low", "a=b", .low), (" bug = mid", "bug", .mid),
  ])
  func parsesLabelPriority(text: String, label: String, priority: Priority) {
    let parsed = LabelPriorityRules.parse(text)
    #expect(parsed?.label == label)
    #expect(parsed?.priority == priority)
  }

  @Test(arguments: ["bug", "=high", "bug=urgent", ""])
  func refusesBadLabelPriority(text: String) {
    #expect(LabelPriorityRules.parse(text) == nil)
  }

  @Test(arguments: [
    ("https://github.com/gr/app/issues/12", "gr/app#12"),
    ("https://github.com/gr/app/pull/7", "gr/app#7"),
    ("https://ghe.example.com/org/x.y/issues/1", "org/x.y#1"),
    ("http://127.0.0.1:4000/gr/app/issues/3?x=1", "gr/app#3"),
  ])
  func readsIssueURLs(url: String, expected: String) {
    #expect(IssueReference(url: url)?.description == expected)
  }

  @Test(arguments: ["https://github.com/gr/app", "https://github.com/gr/app/commit/12", "https://github.com/gr/app/issues/x"])
  func refusesOtherURLs(url: String) {
    #expect(IssueReference(url: url) == nil)
  }

  @Test func titleDayAndUUID() {
    let today = Day(iso: "2026-11-23")!
    var issue = GitHubIssue(
      url: "https://github.com/gr/app/issues/12", repository: RepositoryName("gr/app")!, number: 12,
      title: "Fix\nthe crash")
    #expect(IssueTodoRule.title(issue) == "gr/app#12 Fix the crash")
    #expect(IssueTodoRule.day(issue, today: today, timeZone: Self.seoul) == nil, "no milestone: the backlog")
    // Due 2026-12-01 08:00 UTC is 17:00 in Seoul, the same day; 2026-11-30T20:00Z is Dec 1 there.
    issue.milestoneDueOn = Timestamp.date("2026-11-30T20:00:00Z", .iso8601)
    #expect(IssueTodoRule.day(issue, today: today, timeZone: Self.seoul)?.description == "2026-12-01")
    issue.milestoneDueOn = Timestamp.date("2026-01-01T00:00:00Z", .iso8601)
    #expect(IssueTodoRule.day(issue, today: today, timeZone: Self.seoul) == today, "a past due day plans for today")
    let uuid = IssueTodoRule.uuid(url: issue.url)
    #expect(RowID.isValid(uuid))
    #expect(Array(uuid)[14] == "5")
    #expect(uuid == IssueTodoRule.uuid(url: issue.url))
    #expect(uuid != IssueTodoRule.uuid(url: "https://github.com/gr/app/issues/13"))
  }

  @Test func v5OfAKnownURL() {
    // Python: uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/gr/app/issues/12")
    #expect(IssueTodoRule.uuid(url: "https://github.com/gr/app/issues/12") == Self.pythonUUID)
  }

  static let pythonUUID = "8f5ba32a-0700-52b4-836d-892fd8899b5c"
}
