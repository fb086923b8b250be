import ArgumentParser
import TestTags
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
    ["abcd"], ["ABCD", "12"], ["12ab"], ["abc"], ["4fc7664d-e2"], ["4fc7664d-"], ["deadbeef", "cafe"], ["--long"],
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

  /// `list` and `ls` over the same words and those only `list` takes.
  static let listCommandLines: [[String]] = {
    let listWords = words + [
      ["--all"], ["--open"], ["--open", "--done"], ["--from", "2026-01-01"], ["--to", "today"],
      ["--from", "2026-13-01"], ["--grep", "boj"], ["--grep"], ["tomorrow"], ["mon"], ["+3d"],
      ["2026-11-22"], ["--all", "--on", "today"], ["--from", "mon", "--to", "eow"], ["-p", "high", "--open"],
      ["--tag", "bug"], ["--tag", "+bad"], ["--tag"],
    ]
    var lines: [[String]] = []
    for name in ["list", "ls"] {
      for first in listWords {
        lines.append([name] + first)
        for second in listWords where second.count <= 2 { lines.append([name] + first + second) }
      }
    }
    return lines
  }()

  /// `report`, `search`, `show` and `log` (issue 25: off the hot path they paid ~13 M
  /// instructions in argument-parser) over the shared words and their own.
  static let readCommandLines: [[String]] = {
    let readWords = words + [
      ["--week"], ["--month"], ["--year"], ["--days", "90"], ["--days", "0"], ["--days", "x"], ["--days", "+7"],
      ["--year", "--week"], ["--from", "2026-01-01"], ["--to", "today"], ["--from", "mon", "--to", "eow"],
      ["--calendar"], ["--csv"], ["--csv", "--json"], ["--calendar", "--json"], ["--svg", "a.svg"], ["--svg", ""],
      ["--svg", "-"], ["--svg", "a.svg", "--calendar"], ["--open"], ["--open", "--done"], ["--tag", "bug"],
      ["-p", "high", "--open"], ["--limit", "5"], ["--limit", "0"], ["--limit", "-1"], ["--limit", "x"],
      ["--limit"], ["boj"], [""], ["7"], ["7", "8"],
    ]
    var lines: [[String]] = []
    for name in ["report", "search", "show", "log", "history"] {
      for first in readWords {
        lines.append([name] + first)
        for second in readWords where second.count <= 2 { lines.append([name] + first + second) }
      }
    }
    return lines
  }()

  /// The commands off the hot path that issue 25 gave tables too (`plan`, `carry`, `graph`,
  /// `export`, `import …`, `block …`, `project …`), over the shared words and their own.
  static let offPathCommandLines: [[String]] = {
    let offWords = words + [
      ["--to", "fri"], ["--on", "mon"], ["--weeks", "4"], ["--weeks", "0"], ["--weeks", "x"], ["--weeks", "4", "--from", "mon"],
      ["--user", "octo"], ["--repo", "apple/swift"], ["--repo", "nope"], ["--tz", "Asia/Seoul"], ["--tz", "Nowhere/Zone"],
      ["--csv"], ["--csv", "--json"], ["--include-forks"], ["--svg", "g.svg"], ["--svg", "-"], ["--svg", "-", "--csv"],
      ["--format", "json"], ["--format", "ical"], ["--format", "taskwarrior"], ["--format", "xml"], ["--format"],
      ["--output", "out.txt"], ["--dry-run"], ["-"], ["tasks.json"], ["a", "b"], ["algo", "Solve one"],
      ["--routine"], ["-p", "high", "--routine"], ["--done-when", "commits"], ["--done-when", "none"],
      ["--done-when", "bogus"], ["--done-when", "none", "--repo", "a/b"], ["--every", "2d"], ["--off"],
      ["--off", "--on", "mon"], ["--archived"], ["--all"], ["--archived", "--all"], ["--rename", "new"],
      ["--desc", "A thing"], ["--tech", "swift,sqlite"], ["--start", "2026-01-01"], ["--memo", ""], ["--path", "/tmp"],
      ["-y"], ["--yes"], ["-y", "--yes"],
    ]
    let names: [[String]] = [
      ["plan"], ["carry"], ["graph"], ["export"], ["import", "taskwarrior"], ["import", "todotxt"], ["import"],
      ["import", "csv"], ["block"], ["block", "list"], ["block", "ls"], ["block", "add"], ["block", "edit"],
      ["block", "routine"], ["block", "rm"], ["block", "remove"], ["block", "restore"], ["block", "bogus"],
      ["project"], ["projects"], ["project", "list"], ["project", "ls"], ["project", "add"], ["project", "show"],
      ["project", "edit"], ["project", "archive"], ["project", "unarchive"], ["project", "rm"],
      ["project", "remove"], ["project", "bogus"],
    ]
    // Each word alone, and after each of a few that most lines carry (argument-parser's parse of
    // an accepted line costs tens of milliseconds in a debug build: thousands, not 300,000).
    let seconds: [[String]] = [[], ["x"], ["--json"], ["-"]]
    var lines: [[String]] = []
    for name in names {
      for first in offWords {
        for second in seconds { lines.append(name + first + second) }
      }
    }
    return lines
  }()

  @Test("plan, carry, graph, export, import, block and project: the hot path agrees with argument-parser", .tags(.slow))
  func offPathCommandsAgree() throws {
    var accepted: [String: Int] = [:]
    for line in Self.offPathCommandLines {
      guard let hot = HotPath.parse(line) else { continue }
      let name = line.prefix(2).joined(separator: " ")
      accepted[name, default: 0] += 1
      switch Result(catching: { try Ootd.parseAsRoot(line) }) {
      case .success(let command):
        #expect(CommandRouterTests.describe(hot) == CommandRouterTests.describe(command), "\(line)")
      case .failure(let error):
        Issue.record("hot path accepted \(line), argument-parser refused: \(error)")
      }
    }
    // Each command's plain shapes are taken, not only refused.
    for name in ["plan", "carry", "graph", "export", "import taskwarrior", "import todotxt", "block add",
                 "block edit", "block routine", "block rm", "block restore", "block list", "project add",
                 "project show", "project edit", "project archive", "project rm", "project list"]
    {
      let taken = accepted.filter { $0.key == name || $0.key.hasPrefix(name + " ") }.values.reduce(0, +)
      // More than one line each (`block edit` needs a name and `--done-when`: only a word pair
      // followed by a name gives both).
      #expect(taken > 1, "\(name)")
    }
    #expect(HotPath.parse(["graph", "--weeks", "4", "--json"]) is Ootd.Graph)
    #expect(HotPath.parse(["export", "--format", "json"]) is Ootd.Export)
    #expect(HotPath.parse(["import", "taskwarrior", "-"]) is Ootd.Import.TaskwarriorImport)
    #expect(HotPath.parse(["block"]) is Ootd.Block.ListBlocks)
    #expect(HotPath.parse(["projects", "--all"]) is Ootd.ListProjects)
    #expect(HotPath.parse(["project", "rm", "x", "-y"]) is Ootd.RemoveProject)
    // What argument-parser refuses or answers itself, the hot path leaves to it.
    for refused in [["export"], ["export", "--format", "xml"], ["import"], ["import", "csv"], ["block", "bogus"],
                    ["block", "add", "x"], ["block", "edit", "x"], ["graph", "--weeks", "0"], ["project", "show"],
                    ["project", "--help"], ["block", "add", "--help"], ["plan", "x!"], ["project", "rm", "x", "-y", "--yes"]] {
      #expect(HotPath.parse(refused) == nil, "\(refused)")
    }
  }

  @Test("the hot path agrees with argument-parser on every command line it accepts", .tags(.slow))
  func agrees() throws {
    #expect(Self.commandLines.count > 1_000)
    #expect(Self.listCommandLines.count > 1_000)
    var accepted = 0
    for line in Self.commandLines + Self.listCommandLines {
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
    // The list branch takes its plain shapes too, not only the others.
    #expect(Self.listCommandLines.filter { HotPath.parse($0) != nil }.count > 300)
    #expect(HotPath.parse(["list", "tomorrow", "--project", "ootd", "-p", "high", "--open", "--json"]) is Ootd.List)
  }

  @Test("report, search, show and log: the hot path agrees with argument-parser", .tags(.slow))
  func readCommandsAgree() throws {
    var accepted: [String: Int] = [:]
    for line in Self.readCommandLines {
      guard let hot = HotPath.parse(line) else { continue }
      accepted[line[0], default: 0] += 1
      switch Result(catching: { try Ootd.parseAsRoot(line) }) {
      case .success(let command):
        #expect(CommandRouterTests.describe(hot) == CommandRouterTests.describe(command), "\(line)")
      case .failure(let error):
        Issue.record("hot path accepted \(line), argument-parser refused: \(error)")
      }
    }
    // Each command's plain shapes are taken, not only refused.
    for name in ["report", "search", "show", "log", "history"] { #expect(accepted[name, default: 0] > 20, "\(name)") }
    #expect(HotPath.parse(["report", "--year", "--json"]) is Ootd.Report)
    #expect(HotPath.parse(["search", "boj", "--open", "--from", "mon"]) is Ootd.Search)
    #expect(HotPath.parse(["show", "12", "--json"]) is Ootd.Show)
    #expect(HotPath.parse(["history", "--limit", "5"]) is Ootd.Log)
    // What argument-parser refuses, the hot path leaves to it (its message).
    for refused in [["report", "--days", "x"], ["report", "--year", "--week"], ["search"], ["search", ""],
                    ["show"], ["show", "x!"], ["log", "--limit", "0"], ["report", "--csv", "--json"]] {
      #expect(HotPath.parse(refused) == nil, "\(refused)")
    }
  }
}
