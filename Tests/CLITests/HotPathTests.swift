import ArgumentParser
import Testing

@testable import CLI

/// The hot path is a second parser for a few commands: it must agree with argument-parser on
/// every command line it accepts (same command, same values), and accept nothing argument-parser
/// refuses.
@Suite("Hot path parser")
struct HotPathTests {
  static let words: [[String]] = [
    [], ["x"], ["Solve", "BOJ", "1753"], ["최단경로 🧭"], ["--priority", "high"], ["-p", "low"],
    ["--priority", "HIGH"], ["-p", "m"], ["--priority", "urgent"], ["--priority"], ["--on", "tomorrow"],
    ["--on", "+3d"], ["--on"], ["--project", "ootd"], ["--block", "algorithm"], ["-b", "blog"],
    ["--done"], ["--json"], ["--json", "--json"], ["12"], ["12", "13"], ["0"], ["+5"], ["-3"],
    ["99999999999999999999"], ["1", "x"], ["--db", "/tmp/x.sqlite"], ["--db"], ["--no-color"],
    ["--bogus"], ["--priority=high"], ["--"], ["--", "-x"], ["help"], ["-h"], ["--version"],
    ["--on", "-1d"], ["x", "--json", "y"], ["--project", "ootd", "--project", "other"], ["-pj"],
    ["+bug"], ["Fix", "+bug", "+Web"], ["C++", "+3d"], ["--tag", "x"], ["--tag", "x", "--tag", "y"],
    ["--tag", "bad tag"], ["--tag"], ["--note", "Safari only"], ["--note", ""], ["--note"], ["--untag", "x"],
  ]

  static let commandLines: [[String]] = {
    var lines: [[String]] = []
    for name in ["add", "done", "undone", "undo", "redo", "today"] {
      for first in words {
        lines.append([name] + first)
        for second in words where second.count <= 2 { lines.append([name] + first + second) }
      }
    }
    return lines + words
  }()

  @Test("the hot path agrees with argument-parser on every command line it accepts")
  func agrees() throws {
    #expect(Self.commandLines.count > 1_000)
    var accepted = 0
    for line in Self.commandLines {
      guard let hot = HotPath.parse(line) else { continue }
      accepted += 1
      switch Result(catching: { try Ootd.parseAsRoot(line) }) {
      case .success(let command):
        #expect(CommandRouterTests.describe(hot) == CommandRouterTests.describe(command), "\(line)")
      case .failure(let error):
        Issue.record("hot path accepted \(line), argument-parser refused: \(error)")
      }
    }
    #expect(accepted > 300)
  }
}
