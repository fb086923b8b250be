import ArgumentParser
import Foundation
import Testing

@testable import CLI

/// The hot path's tables against the one declaration: each command's arguments as argument-parser
/// itself describes them (`ootd COMMAND --experimental-dump-help`, its JSON tool description).
/// An option, flag or positional added to a hot command without its table fails here; without
/// this check the hot path would build the command without setting it, and reading the unset
/// property wrapper traps.
@Suite("Hot path tables match argument-parser's declarations")
struct HotPathDeclarationTests {
  /// One argument of argument-parser's tool description (the fields this check reads).
  struct Argument: Decodable {
    struct Name: Decodable {
      let kind: String
      let name: String
    }
    let kind: String
    let names: [Name]?
    let isRepeating: Bool

    /// Every spelling as typed: `-p`, `--priority`.
    var spellings: [String] {
      (names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name }
    }
  }

  struct Description: Decodable {
    struct Command: Decodable {
      let commandName: String
      let arguments: [Argument]?
    }
    let command: Command
  }

  /// argument-parser's description of the command `name`.
  static func declaration(_ name: String) throws -> Description.Command {
    do {
      // A nested command's name is its path: `block add`.
      _ = try Ootd.parseAsRoot(name.split(separator: " ").map(String.init) + ["--experimental-dump-help"])
    } catch {
      let json = Ootd.fullMessage(for: error)
      return try JSONDecoder().decode(Description.self, from: Data(json.utf8)).command
    }
    throw CLIError.invalidValue("--experimental-dump-help printed nothing for \(name)")
  }

  /// Where `table` and `declared` disagree, one line each; empty when they agree.
  static func mismatches(_ table: HotPath.Table, _ declared: Description.Command) -> [String] {
    var found: [String] = []
    var seen: Set<String> = []
    var positionals: [Argument] = []
    for argument in declared.arguments ?? [] {
      let spellings = argument.spellings
      seen.formUnion(spellings)
      if argument.kind == "positional" {
        positionals.append(argument)
      } else if spellings.contains(where: table.leftToArgumentParser.contains) {
        // Left to argument-parser whole: every spelling, and nothing the hot path takes.
        if !spellings.allSatisfy(table.leftToArgumentParser.contains)
          || spellings.contains(where: { table.options[$0] != nil || table.flags.contains($0) })
        {
          found.append("\(spellings) is only partly left to argument-parser")
        }
      } else if argument.kind == "option", let long = spellings.last(where: { $0.hasPrefix("--") }) {
        for spelling in spellings where table.options[spelling] != long {
          found.append("option \(spelling) is not in the table as \(long)")
        }
        if table.repeatable.contains(long) != argument.isRepeating {
          found.append("option \(long) repeats: \(argument.isRepeating), in the table: \(!argument.isRepeating)")
        }
      } else if argument.kind == "flag" {
        for spelling in spellings where !table.flags.contains(spelling) {
          found.append("flag \(spelling) is not in the table")
        }
      } else {
        found.append("argument \(spellings) of kind \(argument.kind)")
      }
    }
    let known = Set(table.options.keys).union(table.flags).union(table.leftToArgumentParser)
    for extra in known.subtracting(seen).sorted() { found.append("\(extra) is in the table, not declared") }
    if !table.repeatable.isSubset(of: Set(table.options.values)) { found.append("a repeatable option is not an option") }
    let declaredPositionals: HotPath.Table.Positionals? =
      switch positionals.count {
      case 0: HotPath.Table.Positionals.none
      case 1: positionals[0].isRepeating ? .many : .one
      case 2 where !positionals.contains(where: \.isRepeating): .two
      default: nil
      }
    if declaredPositionals != table.positionals {
      found.append("positionals: declared \(positionals.count) (repeating: \(positionals.map(\.isRepeating))), in the table \(table.positionals)")
    }
    return found
  }

  @Test(
    "every hot command's table names exactly the arguments the command declares",
    arguments: HotPath.tableNames)
  func tableMatchesDeclaration(name: String) throws {
    let table = try #require(HotPath.table(name))
    let declared = try Self.declaration(name)
    #expect(declared.commandName == (name == "ls" ? "list" : String(name.split(separator: " ").last ?? "")))
    #expect(Self.mismatches(table, declared) == [], "\(name)")
  }

  @Test("the check sees an option, a flag or a positional a table lacks")
  func checkSeesDrift() throws {
    let add = HotPath.addTable
    let declared = try Self.declaration("add")
    // `add` as if `--note` had been declared and the table not told.
    let withoutNote = HotPath.Table(
      options: add.options.filter { $0.key != "--note" }, repeatable: add.repeatable,
      flags: add.flags, positionals: add.positionals, leftToArgumentParser: add.leftToArgumentParser)
    #expect(Self.mismatches(withoutNote, declared) == ["option --note is not in the table as --note"])
    // A table that does not know `--tag` repeats, nor `--done`, nor the title.
    let journal = try #require(HotPath.table("undo"))
    let wrong = Self.mismatches(journal, declared)
    #expect(wrong.contains("flag --done is not in the table"))
    #expect(wrong.contains("option -p is not in the table as --priority"))
    #expect(wrong.contains { $0.hasPrefix("positionals: declared 1") })
    // `done`'s `--close-on-github` is declared, and left to argument-parser by its table only.
    #expect(Self.mismatches(try #require(HotPath.table("undone")), try Self.declaration("done"))
      == ["flag --close-on-github is not in the table"])
  }

  @Test("the hot path parses no command it has no table for")
  func noUntabledCommand() {
    for name in CommandRouter.leaves.keys where HotPath.table(name) == nil {
      #expect(HotPath.parse([name]) == nil, "\(name)")
    }
  }
}
