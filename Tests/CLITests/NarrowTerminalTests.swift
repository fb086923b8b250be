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
      // Below 36 columns a day heading is wider than the terminal; todo lines still fit.
      for line in result.stdout.split(separator: "\n") where width >= 36 || line.contains("[ ]") {
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
