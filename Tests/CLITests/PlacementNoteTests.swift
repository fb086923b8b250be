import Foundation
import Testing

@testable import CLI

/// Small honesty notes: a block added twice to a day, an archived project, Ctrl-D at a prompt.
@Suite struct PlacementNoteTests {
  @Test func aBlockAddedTwiceToADay_orMovedOntoOne_isNoted() async throws {
    let h = try Harness()
    // 'block routine' plans today's algorithm todo (#1)
    #expect(await h.run(["block", "routine", "algorithm"]).code == 0)
    let added = await h.run(["add", "--block", "algorithm"])
    #expect(added.code == 0)
    #expect(added.stderr == "ootd: note: 2026-11-22 now has 2 todos from block 'algorithm' (#1, #2); 'ootd rm 2' or 'ootd undo' takes this one back\n")
    // Another day: no note; moved onto today: noted
    let tomorrow = await h.run(["add", "--block", "algorithm", "--on", "tomorrow"])
    #expect(tomorrow.stderr == "")
    let moved = await h.run(["edit", "3", "--on", "today"])
    #expect(moved.stderr.contains("now has 3 todos from block 'algorithm' (#1, #2, #3)"))
    // A plain todo says nothing
    #expect(await h.run(["add", "plain"]).stderr == "")
  }

  @Test func addingToAnArchivedProject_isNoted() async throws {
    let h = try Harness()
    #expect(await h.run(["project", "add", "old"]).code == 0)
    #expect(await h.run(["project", "archive", "old"]).code == 0)
    let added = await h.run(["add", "x", "--project", "old"])
    #expect(added.code == 0)
    #expect(added.stderr == "ootd: note: project 'old' is archived ('ootd project unarchive old' brings it back)\n")
  }

  @Test func endOfInputAtTheRmPrompt_endsThePromptLine() async throws {
    var h = try Harness()
    #expect(await h.run(["add", "x"]).code == 0)
    h.terminal = true
    let result = await h.run(["rm", "1", "--no-color"], answers: [])
    #expect(result.code != 0)
    let prompt = try #require(result.stderr.range(of: "[y/N] "))
    #expect(result.stderr[prompt.upperBound...].hasPrefix("\n"))
  }

  @Test func aBlockTodo_takesTagsFromTheTitleWords_andKeepsTheBlocksTitle() async throws {
    let h = try Harness()
    #expect(await h.run(["add", "--block", "algorithm", "+graphs", "+BOJ"]).code == 0)
    let todo = try #require(try await h.allTodos().first)
    #expect(todo["title"] as? String == "Solve an algorithm problem")
    #expect(todo["tags"] as? [String] == ["boj", "graphs"])
    // A title of tags only, without a block, is refused: there is nothing left to do
    let refused = await h.run(["add", "+bug"])
    #expect(refused.code == 64)
    #expect(refused.stderr == "ootd: error: the title is empty: give the todo some words\n")
  }
}
