import ArgumentParser
import Foundation
import TestTags
import Testing

@testable import CLI

/// The router's fast path must parse exactly what argument-parser's full tree parses: the same
/// command with the same values, and nothing the full parser refuses.
@Suite("Command router")
struct CommandRouterTests {
  @Test("every top-level command without subcommands is routed, under its name and aliases")
  func tableMatchesTheTree() {
    var expected: [String: String] = [:]
    for type in Ootd.configuration.subcommands where type.configuration.subcommands.isEmpty {
      let name = type.configuration.commandName ?? ""
      for key in [name] + type.configuration.aliases { expected[key] = String(describing: type) }
    }
    let routed = CommandRouter.leaves.mapValues { String(describing: $0) }
    #expect(routed == expected)
  }

  @Test("every routed subcommand of a group is that group's subcommand of that name")
  func nestedTableMatchesTheTree() throws {
    for (group, leaves) in CommandRouter.nested {
      let groupType = try #require(Ootd.configuration.subcommands.first { $0.configuration.commandName == group })
      for (name, type) in leaves {
        let inTree = try #require(groupType.configuration.subcommands.first { $0.configuration.commandName == name })
        #expect(String(describing: inTree) == String(describing: type))
      }
    }
  }

  /// Words each command may see, mixed into hundreds of command lines below.
  static let words: [[String]] = [
    [], ["x"], ["Write", "the", "README"], ["--priority", "high"], ["-p", "low"], ["--priority", "urgent"],
    ["--on", "tomorrow"], ["--on"], ["--project", "ootd"], ["--block", "algorithm"], ["--json"],
    ["12"], ["12", "13"], ["-3"], ["--all"], ["--open", "--done"], ["--from", "2026-11-01"],
    ["--yes"], ["--limit", "5"], ["--limit", "0"], ["--limit", "-1"], ["--to", "today"],
    ["--db", "/tmp/x.sqlite"], ["--no-color"], ["--bogus"], ["help"], ["--"], ["--", "-x"],
    ["--title", "t"], ["--no-project"], ["--days", "14"], ["--calendar"], ["--csv"],
  ]

  static let commandLines: [[String]] = {
    var lines: [[String]] = [[]]
    for name in CommandRouter.leaves.keys.sorted() + ["nope", "block", "project"] {
      for first in words { lines.append([name] + first) }
      for (first, second) in zip(words, words.dropFirst(5)).prefix(8) {
        lines.append([name] + first + second)
      }
    }
    for (group, leaves) in CommandRouter.nested {
      for name in leaves.keys.sorted() + ["nope"] {
        for first in words + [["--ignore-clock-skew"], ["--ignore-clock-skew", "--json"]] {
          lines.append([group, name] + first)
        }
      }
      lines.append([group])
    }
    return lines + words.map { $0 }
  }()

  @Test("the fast path agrees with parseAsRoot on every command line", .tags(.slow))
  func agreesWithTheFullParser() throws {
    #expect(Self.commandLines.count > 500)
    var routed = 0
    for line in Self.commandLines {
      let full = Result { try Ootd.parseAsRoot(line) }
      guard let fast = CommandRouter.fastParse(line) else { continue }
      routed += 1
      switch full {
      case .success(let command):
        #expect(Self.describe(fast) == Self.describe(command), "\(line)")
      case .failure(let error):
        Issue.record("fast path accepted \(line), the full parser refused: \(error)")
      }
    }
    #expect(routed > 100)
  }

  @Test("--version prints what argument-parser prints for it")
  func version() async throws {
    let harness = try Harness()
    let result = await harness.run(["--version"])
    let expected = Result { try Ootd.parseAsRoot(["--version"]) }
    guard case .failure(let error) = expected else {
      Issue.record("argument-parser did not answer --version with its version message")
      return
    }
    #expect(result.code == 0)
    #expect(result.stdout == Ootd.fullMessage(for: error) + "\n")
  }

  @Test("the environment read from environ is Foundation's")
  func environment() {
    #expect(AppEnvironment.processVariables() == ProcessInfo.processInfo.environment)
  }

  @Test("the system zone found through /etc/localtime is Foundation's zone of that name")
  func systemZone() throws {
    let zone = AppEnvironment.systemTimeZone()
    // Foundation's zone for the file /etc/localtime links to (TimeZone.current would follow
    // TZ, which the test runner may set); for a copy, the current zone, when TZ is unset.
    let expected: TimeZone
    if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
      let range = link.range(of: "zoneinfo/")
    {
      expected = try #require(TimeZone(identifier: String(link[range.upperBound...])), "\(link)")
    } else {
      try #require(
        ProcessInfo.processInfo.environment["TZ"] == nil,
        "/etc/localtime is a copy: only Foundation's current zone without TZ tells its zone")
      expected = TimeZone.current  // real zone: what systemTimeZone is compared with
    }
    // At the pinned instant and half a year on (summer and winter time, where the zone has them).
    for now in [TestClock.now, TestClock.now.addingTimeInterval(182 * 86_400)] {
      #expect(zone.secondsFromGMT(for: now) == expected.secondsFromGMT(for: now))
    }
    #expect(AppEnvironment.systemTimeZone(localtime: "/nonexistent") as? TimeZone == TimeZone.current)  // real zone: the fallback
  }

  static func describe(_ value: Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
  }
}
