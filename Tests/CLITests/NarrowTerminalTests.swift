import Core
import Foundation
import Testing

@testable import CLI

/// At 40 columns (and narrower) nothing wraps mid-line: todo lines cut the title, then their
/// `@project #block +tag date` part; headings wrap between their parts, never mid-word.
@Suite struct NarrowTerminalTests {
  func narrow(_ width: Int) async throws -> Harness {
    var h = try Harness()
    h.terminal = true
    h.variables["COLUMNS"] = String(width)
    #expect(await h.run(["project", "add", "ootd-tracker"]).code == 0)
    #expect(await h.run(["add", "Solve BOJ 1753 with Dijkstra and a binary heap", "--project", "ootd-tracker", "--block", "algorithm", "--tag", "graphs", "--on", "2026-11-20"]).code == 0)
    #expect(await h.run(["add", "짧은 할 일 +한국어", "--project", "ootd-tracker"]).code == 0)
    #expect(await h.run(["add", "x"]).code == 0)
    return h
  }

  @Test(arguments: [40, 32, 24, 80])
  func todoLines_neverWrap(width: Int) async throws {
    let h = try await narrow(width)
    // (`show` prints the title and history untruncated, by design.)
    for command in [["list", "--all"], [], ["list"], ["edit", "1", "--priority", "low"]] {
      let result = await h.run(command + ["--no-color"])
      #expect(result.code == 0)
      // Every line fits: todo lines and day headings alike.
      for line in result.stdout.split(separator: "\n") {
        #expect(DisplayWidth.of(String(line)) <= width, "\(command) at \(width): '\(line)'")
      }
    }
    // At 80 columns the whole line shows, the tags included
    if width == 80 {
      let all = await h.run(["list", "--all", "--no-color"]).stdout
      // (the title gives way first)
      #expect(all.contains("Solve BOJ 1753 with…  @ootd-tracker #algorithm +graphs 2026-11-20"), "\(all)")
      #expect(all.contains("짧은 할 일  @ootd-tracker +한국어"))
    }
    if width == 40 {
      let all = await h.run(["list", "--all", "--no-color"]).stdout
      // The title keeps at least 16 columns; the rest shrinks with an ellipsis
      #expect(all.contains("Solve BOJ 1753 …  @ootd-…"), "\(all)")
    }
  }

  /// A day heading wider than the terminal goes on between its parts, indented, never
  /// mid-phrase: at 24 columns `Sat 2026-11-21 · yesterday  1/2 done  50%` is three lines.
  @Test func dayHeadings_wrapBetweenTheirParts() async throws {
    var h = try Harness()
    h.terminal = true
    for day in ["2026-11-21", "2026-11-21", "2026-11-22"] {
      #expect(await h.run(["add", "x", "--on", day]).code == 0)
    }
    #expect(await h.run(["done", "1"]).code == 0)
    let expected: [Int: [String]] = [
      24: ["Sat 2026-11-21", "  yesterday", "  1/2 done  50%"],
      28: ["Sat 2026-11-21 · yesterday", "  1/2 done  50%"],
      41: ["Sat 2026-11-21 · yesterday  1/2 done  50%"],
    ]
    for (width, heading) in expected {
      h.variables["COLUMNS"] = String(width)
      let list = await h.run(["list", "--from", "yesterday", "--to", "today", "--no-color"])
      let lines = list.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(Array(lines.prefix(heading.count)) == heading, "at \(width): \(lines)")
      // Today's heading on the dashboard, too.
      let dashboard = await h.run(["--no-color"]).stdout.split(separator: "\n").map(String.init)
      #expect(dashboard.allSatisfy { DisplayWidth.of($0) <= width }, "at \(width): \(dashboard)")
      #expect(dashboard.first?.hasPrefix("Sun 2026-11-22") == true)
    }
  }

  /// `report` at 40 columns: day rows with a note (`✓`, `today`) give the note room from their
  /// bar, and a long summary value goes on under itself.
  @Test func reportTable_fitsFortyColumns() async throws {
    let h = try await narrow(40)
    #expect(await h.run(["add", "y", "--on", "2026-11-19", "--done"]).code == 0)
    let lines = await h.run(["report", "--no-color"]).stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasSuffix("100%  ✓") }, "\(lines)")
    #expect(lines.contains { $0.hasSuffix("today") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("  Streak    ") }, "\(lines)")
    for line in lines { #expect(DisplayWidth.of(line) <= 40, "'\(line)'") }
  }

  /// Below the width of `2026-10-26 → 2026-11-22 (28 days)` the range goes on between words.
  @Test(arguments: [32, 24])
  func reportHeadings_narrowerThanTheRange_wrapBetweenWords(width: Int) async throws {
    let h = try await narrow(width)
    for command in [["report", "--calendar"], ["report"]] {
      let lines = await h.run(command + ["--no-color"]).stdout
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let heading = Array(lines.prefix { !$0.isEmpty })
      #expect(heading.allSatisfy { DisplayWidth.of($0) <= width }, "\(command): \(heading)")
      #expect(heading.contains { $0.hasPrefix("2026-") && $0.hasSuffix("2026-11-22") }, "\(heading)")
      #expect(heading.contains { $0.hasPrefix("(") && $0.hasSuffix("days)") }, "\(heading)")
    }
  }

  @Test(arguments: [40, 36])
  func reportHeadings_wrapBetweenParts(width: Int) async throws {
    let h = try await narrow(width)
    for command in [["report", "--calendar"], ["report"], ["report", "--calendar", "--project", "ootd-tracker"]] {
      let lines = await h.run(command + ["--no-color"]).stdout
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let heading = lines.prefix { !$0.isEmpty }
      #expect(heading.first == "Achievement", "\(command): \(heading)")
      #expect(heading.allSatisfy { DisplayWidth.of($0) <= width }, "\(command): \(heading)")
      // Every part is whole on its line
      #expect(heading.contains { $0.hasPrefix("2026-") && $0.contains("days)") }, "\(heading)")
    }
  }
}
