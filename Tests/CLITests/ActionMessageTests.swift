import Foundation
import Testing

/// Action messages say what really happened. Today is Sunday 2026-11-22 in Seoul.
@Suite struct ActionMessageTests {
  @Test func add_namesTheTodoByNumber() async throws {
    let h = try Harness()
    let added = await h.run(["add", "x"])
    #expect(added.stdout.hasPrefix("Added #1 for 2026-11-22 (today)\n"))
  }

  @Test func doneAndUndone_tellChangedFromAlreadySo() async throws {
    let h = try Harness()
    await h.run(["add", "a"])
    await h.run(["add", "b"])
    #expect(await h.run(["done", "1"]).stdout.hasPrefix("Done 1 todo:\n"))
    let again = await h.run(["done", "1", "2"])
    #expect(again.code == 0)
    #expect(again.stdout.hasPrefix("Done 1 todo:\n"))
    #expect(again.stdout.contains("Kept 1 todo (already done):\n"))
    let open = await h.run(["undone", "1", "2"])
    #expect(open.stdout.hasPrefix("Reopened 2 todos:\n"))
    let twice = await h.run(["undone", "2"])
    #expect(twice.stdout.hasPrefix("Kept 1 todo (already open):\n"))
    #expect(!twice.stdout.contains("Reopened"))
  }

  @Test func unarchiveTwice_saysAlreadyUnarchived() async throws {
    let h = try Harness()
    await h.run(["project", "add", "ootd"])
    await h.run(["project", "archive", "ootd"])
    #expect(await h.run(["project", "unarchive", "ootd"]).stdout == "Unarchived project ootd\n")
    let again = await h.run(["project", "unarchive", "ootd"])
    #expect(again.code == 0)
    #expect(again.stdout == "Project ootd is already unarchived\n")
  }

  @Test func blockRestore_bringsBackABuiltInBlock_only() async throws {
    let h = try Harness()
    #expect(await h.run(["block", "rm", "algorithm"]).code == 0)
    let restored = await h.run(["block", "restore", "algorithm"])
    #expect(restored.code == 0, "\(restored.stderr)")
    #expect(restored.stdout == "Restored block algorithm: Solve an algorithm problem (high)\n")
    let again = await h.run(["block", "restore", "algorithm"])
    #expect(again.code != 0)
    #expect(again.stderr == "ootd: error: a block named 'algorithm' already exists\n")
    let mine = await h.run(["block", "restore", "leetcode"])
    #expect(mine.code == 64)
    #expect(mine.stderr.hasPrefix("ootd: error: 'leetcode' is not a built-in block: they are algorithm, "))
  }

  @Test func planOfATodoAlreadyOnTheDay_saysSo_andJSONKeepsItsShape() async throws {
    let h = try Harness()
    await h.run(["add", "a"])
    await h.run(["add", "b", "--on", "tomorrow"])
    let again = await h.run(["plan", "1"])
    #expect(again.code == 0)
    #expect(again.stdout.hasPrefix("Kept 1 todo (already on 2026-11-22):\n"))
    #expect(!again.stdout.contains("Planned"))
    let both = await h.run(["plan", "1", "2"])
    #expect(both.stdout.hasPrefix("Planned 1 todo for 2026-11-22:\n"))
    #expect(both.stdout.contains("Kept 1 todo (already on 2026-11-22):\n"))
    // --json stays one array of the todos named, as they now are
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(await h.run(["plan", "1", "--json"]).stdout.utf8)) as? [[String: Any]])
    #expect(json.map { $0["id"] as? Int } == [1])
    #expect(json.first?["date"] as? String == "2026-11-22")
  }

  @Test func blockAddWithAnEmptyTitle_namesTheBlock() async throws {
    let h = try Harness()
    let refused = await h.run(["block", "add", "leetcode", " "])
    #expect(refused.code == 64)
    #expect(refused.stderr == "ootd: error: the title is empty: give the block some words\n")
  }

  @Test func emptyDayHints_nameOnlyBlocksThatExist() async throws {
    let h = try Harness()
    #expect(await h.run(["--no-color"]).stdout.contains("ootd add --block algorithm, or ootd plan"))
    await h.run(["block", "rm", "algorithm"])
    let dashboard = await h.run(["--no-color"]).stdout
    #expect(!dashboard.contains("algorithm"))
    #expect(dashboard.contains("Try: ootd add \"...\" --priority high, ootd add --block blog, or ootd plan"))
    #expect(await h.run(["list", "--all"]).stdout == "No todos yet. Try: ootd add \"...\" or ootd add --block blog\n")
    for name in ["blog", "commit", "study", "review", "docs", "refactor", "english"] {
      #expect(await h.run(["block", "rm", name]).code == 0)
    }
    #expect(await h.run(["--no-color"]).stdout.contains("Try: ootd add \"...\" --priority high or ootd plan"))
    #expect(await h.run(["list"]).stdout.hasPrefix("Nothing planned for today. Try: ootd add \"...\"\n"))
  }
}
