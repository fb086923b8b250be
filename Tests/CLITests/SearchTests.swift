import Foundation
import Testing

/// `ootd search` and `list --grep`, and argument mistakes said in ootd's words.
/// Today is Sunday 2026-11-22 in Seoul.
@Suite struct SearchTests {
  static func ids(_ text: String) throws -> [Int] {
    let items = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    return items.compactMap { $0["id"] as? Int }
  }

  static func seeded() async throws -> Harness {
    let h = try Harness()
    await h.run(["project", "add", "ootd"])
    await h.run(["add", "Enable WAL mode", "--on", "2026-11-20", "--project", "ootd"])  // 1
    await h.run(["add", "알고리즘 공부", "--priority", "high"])  // 2
    await h.run(["add", "ship 🚀 release", "--on", "2026-11-25", "--priority", "low"])  // 3
    await h.run(["add", "read about wal checkpoints", "--priority", "low", "--done"])  // 4
    await h.run(["add", "100% coverage", "--on", "2026-11-21"])  // 5
    return h
  }

  @Test func search_matchesEveryDay_ignoringCase_inAnyScript() async throws {
    let h = try await Self.seeded()
    let cases: [([String], [Int])] = [
      (["WAL"], [1, 4]), (["wal", "--open"], [1]), (["wal", "--done"], [4]),
      (["wal", "--project", "ootd"], [1]), (["wal", "--priority", "low"], [4]),
      (["알고"], [2]), (["🚀"], [3]), (["%"], [5]), (["_"], []),
      (["wal", "--from", "2026-11-21"], [4]), (["e", "--to", "2026-11-21"], [1, 5]),
      (["nothing here"], []),
    ]
    for (arguments, expected) in cases {
      let result = await h.run(["search"] + arguments + ["--json"])
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      #expect(try Self.ids(result.stdout) == expected, "\(arguments)")
    }
  }

  /// Case taken out as a user of each script expects (TodoFilter.caseless): sharp s, final
  /// sigma, Turkish dotted I, in titles (`search`) and tags (`list --tag`).
  @Test func searchAndTags_takeCaseOutInEveryScript() async throws {
    let h = try Harness()
    await h.run(["add", "Straße fegen +Straße"])  // 1
    await h.run(["add", "ΣΊΣΥΦΟΣ lesen +ΣΟΦΟΣ"])  // 2
    await h.run(["add", "İstanbul trip +İzmir"])  // 3
    await h.run(["add", "plain +web"])  // 4
    let searches: [(String, [Int])] = [
      ("STRASSE", [1]), ("straße", [1]), ("σίσυφος", [2]), ("ΣΊΣΥΦΟΣ", [2]), ("istanbul", [3]), ("ISTANBUL", [3]), ("WEB", []),
    ]
    for (text, expected) in searches {
      let result = await h.run(["search", text, "--json"])
      #expect(try Self.ids(result.stdout) == expected, "search \(text): \(result.stderr)")
    }
    let tags: [(String, [Int])] = [
      ("strasse", [1]), ("STRASSE", [1]), ("σοφος", [2]), ("ΣΟΦΟΣ", [2]), ("izmir", [3]), ("İZMIR", [3]), ("Web", [4]), ("we", []),
    ]
    for (tag, expected) in tags {
      let result = await h.run(["list", "--all", "--tag", tag, "--json"])
      #expect(try Self.ids(result.stdout) == expected, "--tag \(tag): \(result.stderr)")
    }
  }

  @Test func searchJSON_isListJSON_sameShapeAndOrder() async throws {
    let h = try await Self.seeded()
    let searched = await h.run(["search", "a", "--json"]).stdout
    let listed = await h.run(["list", "--all", "--grep", "a", "--json"]).stdout
    #expect(searched == listed)
    let empty = await h.run(["search", "", "--json"])
    #expect(empty.code == 64)
    #expect(empty.stderr == "ootd: error: give a text to search for\n")
  }

  @Test func listGrep_saysNothingMatchesTheFilter() async throws {
    let h = try await Self.seeded()
    let result = await h.run(["list", "--grep", "zzz"])
    #expect(result.code == 0)
    #expect(result.stdout.contains("No todos match the filter."))
    #expect(!result.stdout.contains("Nothing planned"))
    let filtered = await h.run(["list", "--priority", "mid"])
    #expect(filtered.stdout.contains("No todos match the filter."))
    let text = await h.run(["search", "wal"])
    #expect(text.stdout.contains("Enable WAL mode"))
    #expect(text.stdout.contains("read about wal checkpoints"))
    #expect(await h.run(["search", "zzz"]).stdout.contains("No todos match 'zzz'."))
  }

  @Test func unknownCommand_namesIt_andSuggestsTheNearest() async throws {
    let h = try Harness()
    let cases: [([String], String)] = [
      (["delete", "5"], "ootd: error: unknown command 'delete'; did you mean 'rm'?\n"),
      (["serach", "WAL"], "ootd: error: unknown command 'serach'; did you mean 'search'?\n"),
      (["version"], "ootd: error: unknown command 'version'; did you mean '--version'?\n"),
      (["--db", h.databasePath, "lsit"], "ootd: error: unknown command 'lsit'; did you mean 'list'?\n"),
      (["zzzz"], "ootd: error: unknown command 'zzzz': see 'ootd --help'\n"),
      // A help topic that names no command (argument-parser printed the root's help, exit 0).
      (["help", "bogus"], "ootd: error: unknown command 'bogus': see 'ootd --help'\n"),
      (["help", "block", "rotine"], "ootd: error: unknown command 'block rotine'; did you mean 'block routine'?\n"),
      // One level down, in a group of commands, with or without global options around it
      // (argument-parser blamed the global option: "unknown option '--db'").
      (["import", "bogus", "x", "--db", h.databasePath],
        "ootd: error: unknown command 'import bogus': see 'ootd import --help'\n"),
      (["--db", h.databasePath, "block", "rotine", "algorithm"],
        "ootd: error: unknown command 'block rotine'; did you mean 'block routine'?\n"),
      (["--no-color", "import", "todotx", "x.txt"],
        "ootd: error: unknown command 'import todotx'; did you mean 'import todotxt'?\n"),
      (["add", "x", "--priority", "urgent"], "ootd: error: invalid priority 'urgent': use high, mid or low\n"),
      (["report", "--days", "-1"], "ootd: error: --days needs a value ('-1' reads as an option; a negative number is not accepted)\n"),
      // A day before today written as an offset: how to write it so it reaches the date parser.
      (["add", "x", "--on", "-2d"], "ootd: error: --on needs a value ('-2d' reads as an option; write --on=-2d)\n"),
      (["list", "--from", "-1w"], "ootd: error: --from needs a value ('-1w' reads as an option; write --from=-1w)\n"),
      (["list", "-2d"], "ootd: error: '-2d' reads as an option: put '--' before it ('-- -2d') or give a date\n"),
      // A negative id (argument-parser: "missing expected argument '<id>'").
      (["show", "-1"], "ootd: error: invalid todo id '-1': ids are whole numbers from 1 (or a uuid prefix)\n"),
      (["done", "-3"], "ootd: error: invalid todo id '-3': ids are whole numbers from 1 (or a uuid prefix)\n"),
    ]
    for (arguments, expected) in cases {
      let result = await h.run(arguments)
      #expect(result.code == 64, "\(arguments)")
      #expect(result.stderr == expected, "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: h.databasePath))
    // And the ways those messages name do work.
    let help = await h.run(["help", "block", "routine"])
    #expect(help.code == 0 && help.stdout.contains("USAGE: ootd block routine"), "\(help.stderr)")
    #expect(await h.run(["add", "x", "--on=-2d"]).stdout.hasPrefix("Added #1 for 2026-11-20"))
    #expect(await h.run(["list", "--", "-2d"]).stdout.contains("Fri 2026-11-20"))
    #expect(await h.run(["list", "--from=-1w", "--to", "today"]).stdout.contains("Fri 2026-11-20"))
  }
}
