import Foundation
import TestTags
import Testing

/// Text from outside never drives the terminal on standard output either.
@Suite(.tags(.binary)) struct TerminalSafetyTests {
  @Test func projectList_showsControlsInTheTechColumnAsSymbols() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("ootd.sqlite")
    let added = try BinaryTests.run(["project", "add", "tool", "--tech", "swift,\u{1B}]0;PWN\u{07}", "--db", db])
    #expect(added.code == 0, "\(added.stderr)")
    let listed = try BinaryTests.run(["project", "list", "--db", db])
    #expect(listed.code == 0, "\(listed.stderr)")
    #expect(!listed.stdout.contains("\u{1B}]"), "\(listed.stdout)")
    #expect(listed.stdout.contains("␛]0;PWN␇"))
  }

  @Test func projectShowJSON_escapesC1Controls() throws {
    let folder = try TemporaryFolder()
    let db = folder.file("ootd.sqlite")
    #expect(try BinaryTests.run(["project", "add", "tool", "--db", db]).code == 0)
    let added = try BinaryTests.run(["add", "a\u{9B}31mred", "--project", "tool", "--db", db])
    #expect(added.code == 0, "\(added.stderr)")
    let shown = try BinaryTests.run(["project", "show", "tool", "--json", "--db", db])
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(!shown.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
    #expect(shown.stdout.contains(#""a\u009b31mred""#), "\(shown.stdout)")
    #expect(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) is [String: Any])
  }

  @Test func blockAdd_confirmationShowsControlsAsSymbols() throws {
    let folder = try TemporaryFolder()
    let result = try BinaryTests.run(["block", "add", "deep", "Deep \u{1B}[2J work", "--db", folder.file("ootd.sqlite")])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout == "Added block deep: Deep ␛[2J work (mid)\n")
  }
}
