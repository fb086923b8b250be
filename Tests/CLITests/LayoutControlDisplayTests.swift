import Core
import Foundation
import Storage
import Testing

@testable import CLI

/// Text from outside with a bidirectional control or a line separator (a title imported or
/// synced, a note, what a user typed) is shown visibly by every human-readable view, as
/// `<U+202E>`, where it once reached the terminal raw: a right-to-left override made the title
/// read backwards and hid what followed it. JSON keeps the exact text.
@Suite struct LayoutControlDisplayTests {
  /// "pay invoice.exe now" that a terminal would show as "pay exe.eciovni now"… reordered.
  static let title = "pay \u{202E}exe.eciovni\u{202C} now\u{2028}hidden"
  static let shown = "pay <U+202E>exe.eciovni<U+202C> now<U+2028>hidden"

  static func holdsLayoutControl(_ text: String) -> Bool {
    text.unicodeScalars.contains(where: TerminalText.isLayoutControl)
  }

  @Test func listAndShow_showTheControlsVisibly_andJSONKeepsTheTitle() async throws {
    let h = try Harness()
    #expect(await h.run(["add", Self.title]).code == 0)
    let list = await h.run(["list"])
    #expect(list.code == 0, "\(list.stderr)")
    #expect(!Self.holdsLayoutControl(list.stdout), "\(list.stdout)")
    #expect(list.stdout.contains("  [ ] 1  mid   " + Self.shown + "\n"), "\(list.stdout)")
    let show = await h.run(["show", "1"])
    #expect(show.code == 0, "\(show.stderr)")
    #expect(!Self.holdsLayoutControl(show.stdout), "\(show.stdout)")
    #expect(show.stdout.hasPrefix("#1  " + Self.shown + "\n"), "\(show.stdout)")
    // JSON is the exact title (its encoder decides what to escape).
    let listed = try await h.allTodos()
    #expect(listed.first?["title"] as? String == Self.title)
    let shownJSON = try #require(
      JSONSerialization.jsonObject(with: Data(await h.run(["show", "1", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(shownJSON["title"] as? String == Self.title)
  }

  /// The other views a title, a note or typed text reaches: today's dashboard, the backlog,
  /// search (its results and its "no match" line), the journal, and an error that quotes what
  /// was typed; on a terminal too (colours, cut to the width).
  @Test func everyHumanView_showsTheControlsVisibly() async throws {
    var h = try Harness()
    #expect(await h.run(["add", Self.title]).code == 0)
    #expect(await h.run(["add", "later \u{2067}x\u{2069}", "--someday"]).code == 0)
    #expect(await h.run(["note", "1", "see \u{202E}txt.evil\nsecond\u{2029}line"]).code == 0)
    for terminal in [false, true] {
      h.terminal = terminal
      for arguments in [
        ["list"], ["today"], ["backlog"], ["show", "1"], ["search", "pay"], ["log"],
        ["search", "\u{202E}nothing"], ["list", "--all"],
      ] {
        let result = await h.run(arguments)
        #expect(result.code == 0, "\(arguments): \(result.stderr)")
        #expect(!Self.holdsLayoutControl(result.stdout + result.stderr), "\(arguments): \(result.stdout)")
        #expect(result.stdout.contains("<U+2"), "\(arguments): \(result.stdout)")
      }
    }
    h.terminal = false
    let show = await h.run(["show", "1"]).stdout
    #expect(show.contains("  see <U+202E>txt.evil\n  second<U+2029>line\n"), "\(show)")
    let failed = await h.run(["add", "x", "--project", "no\u{202E}pe"])
    #expect(failed.code == 1)
    #expect(failed.stderr.hasPrefix("ootd: error: "), "\(failed.stderr)")
    #expect(failed.stderr.contains("no<U+202E>pe") && !Self.holdsLayoutControl(failed.stderr), "\(failed.stderr)")
  }

  /// Server text (a GitHub sync error) and a stored login reach `github status` and
  /// `github login` with their controls visible.
  @Test func serverTextAndStoredNames_showTheControlsVisibly() async throws {
    let h = try Harness()
    do {
      let database = try AppDatabase.open(path: h.databasePath)
      let repository = try #require(RepositoryName("mona/app"))
      try database.gitHub.recordSyncError("gone \u{202E}dlrow\u{2029}", repository: repository, author: "mona")
      try database.settings.setGitHubSetting(.login, to: "mona\u{2066}x")
    }
    let status = await h.run(["github", "status", "--offline"])
    #expect(status.code == 0, "\(status.stderr)")
    #expect(!Self.holdsLayoutControl(status.stdout), "\(status.stdout)")
    #expect(status.stdout.contains("gone <U+202E>dlrow<U+2029>"), "\(status.stdout)")
    #expect(status.stdout.contains("mona<U+2066>x (saved)"), "\(status.stdout)")
    #expect(await h.run(["github", "login"]).stdout == "mona<U+2066>x\n")
  }

  /// A file or a pipe gets the exact bytes of an export; a terminal is shown it with the
  /// controls visible, lines kept.
  @Test func anExport_isExactInAPipe_andShownOnATerminal() async throws {
    var h = try Harness()
    #expect(await h.run(["add", "pay \u{202E}exe.eciovni\u{202C} now"]).code == 0)
    let piped = await h.run(["export", "--format", "todotxt"])
    #expect(piped.stdout.contains("pay \u{202E}exe.eciovni\u{202C} now"), "\(piped.stdout)")
    h.terminal = true
    let shown = await h.run(["export", "--format", "todotxt"])
    #expect(!Self.holdsLayoutControl(shown.stdout))
    #expect(shown.stdout.contains("pay <U+202E>exe.eciovni<U+202C> now"))
    #expect(shown.stdout.split(separator: "\n").count == piped.stdout.split(separator: "\n").count)
  }
}
