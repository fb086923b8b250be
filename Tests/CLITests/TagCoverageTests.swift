import Foundation
import Testing

/// Issue 22: `scripts/test --fast` skips the suites tagged `.binary`, `.postgres`, `.network` or
/// `.slow` (Tests/TestTags/Tags.swift). A suite that starts the binary, PostgreSQL or the fake
/// GitHub without its tag would slip into the fast loop and make it slow again, so it is refused
/// here, the day it is written. The check reads the sources: each top-level declaration of a
/// test file (braces counted outside strings and comments), what it reaches (the doors below,
/// and any helper type or function whose body reaches one, followed until nothing changes), and
/// the tags on its `@Suite` (or, for a suite's `extension`, on the suite's `@Suite`).
@Suite struct TagCoverageTests {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

  /// The ways into a process or server, by tag: code that matches one needs the tag.
  static let doors: [String: [String]] = [
    // BinaryTests.run / .binary; inside BinaryTests, `binary` and `Self.run`.
    "binary": [#"\bBinaryTests\.\w"#, #"\bbinary\b"#],
    "postgres": [#"\bPostgresCluster(\.shared)?\("#],
    "network": [#"\bFakeGitHub\w*\("#, #"\bCurlTransport\b"#, #"\bCalDAVServer\("#],
  ]

  struct Declaration {
    var name: String
    var isSuite: Bool
    /// The declaration's code without comments and string contents.
    var code: String
    var header: String
    var file: String
    var module: String
    var key: String { module + "." + name }
  }

  /// Code with comments removed and string literals emptied (raw and multi-line ones too).
  static func code(of text: String) -> String {
    // Unicode scalars, not Characters: a quote followed by a combining mark is one Character.
    let characters = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var index = 0
    func at(_ i: Int) -> Unicode.Scalar? { i < characters.count ? characters[i] : nil }
    while index < characters.count {
      let c = characters[index]
      if c == "/" && at(index + 1) == "/" {
        while index < characters.count && characters[index] != "\n" { index += 1 }
        continue
      }
      if c == "/" && at(index + 1) == "*" {
        index += 2
        while index < characters.count && !(characters[index] == "*" && at(index + 1) == "/") { index += 1 }
        index += 2
        continue
      }
      if c == "#" || c == "\"" {
        var hashes = 0
        var i = index
        while at(i) == "#" { hashes += 1; i += 1 }
        guard at(i) == "\"" else { out.append(c); index += 1; continue }
        // A multi-line literal's """ ends its line (#""""# is a raw string of two quotes).
        let multiLine = at(i + 1) == "\"" && at(i + 2) == "\"" && at(i + 3) == "\n"
        let quotes = multiLine ? 3 : 1
        i += quotes
        // Skip to the closing quote(s) followed by as many #, keeping newlines for line counts.
        while i < characters.count {
          if characters[i] == "\\" && hashes == 0 { i += 2; continue }
          if characters[i] == "\n" { out.append("\n") }
          if characters[i] == "\"" && (0..<quotes).allSatisfy({ at(i + $0) == "\"" })
            && (0..<hashes).allSatisfy({ at(i + quotes + $0) == "#" })
          {
            i += quotes + hashes
            break
          }
          i += 1
        }
        out.append(contentsOf: "\"\"".unicodeScalars)
        index = i
        continue
      }
      out.append(c)
      index += 1
    }
    return String(out)
  }

  /// The top-level declarations of a file: from the first line after the previous one to the
  /// brace that closes it.
  static func declarations(in text: String, file: String, module: String) throws -> [Declaration] {
    let code = Self.code(of: text)
    var found: [Declaration] = []
    var depth = 0
    var current = ""
    for c in code {
      current.append(c)
      if c == "{" { depth += 1 }
      if c == "}" {
        depth -= 1
        if depth < 0 { throw Unbalanced(file: file) }
        if depth == 0 {
          let header = String(current.prefix { $0 != "{" })
          let names = header.matches(of: /(?:struct|class|enum|actor|extension|func)\s+(\w+)/)
          if let name = names.last?.output.1 {
            found.append(Declaration(
              name: String(name), isSuite: header.contains("@Suite"), code: current, header: header, file: file,
              module: module))
          }
          current = ""
        }
      }
    }
    if depth != 0 { throw Unbalanced(file: file) }
    return found
  }

  struct Unbalanced: Error { var file: String }

  /// The suites that reach a door without the tag: "File.swift: Suite needs .tag".
  static func offences(in folder: URL) throws -> [String] {
    var all: [Declaration] = []
    let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    for case let file as URL in files where file.pathExtension == "swift" && file.lastPathComponent != "TagCoverageTests.swift" {
      all += try declarations(
        in: String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent,
        module: file.deletingLastPathComponent().lastPathComponent)
    }
    var found: [String] = []
    for (tag, initial) in doors.sorted(by: { $0.key < $1.key }) {
      // A helper that reaches a door is a door too, in its own module (folder).
      var patterns: [(module: String?, regex: Regex<AnyRegexOutput>)] = try initial.map { (nil, try Regex($0)) }
      var reaching = Set<String>()
      var changed = true
      while changed {
        changed = false
        for declaration in all where !reaching.contains(declaration.key)
          && patterns.contains(where: { ($0.module ?? declaration.module) == declaration.module && declaration.code.contains($0.regex) })
        {
          reaching.insert(declaration.key)
          changed = true
          patterns.append((declaration.module, try Regex(#"\b"# + declaration.name + #"\b"#)))
        }
      }
      let suites = Dictionary(all.filter(\.isSuite).map { ($0.key, $0) }) { first, _ in first }
      for key in reaching.sorted() {
        guard let suite = suites[key] else { continue }
        if !suite.header.contains(".tags(") || !suite.header.contains("." + tag) {
          found.append("\(suite.file): \(suite.name) needs .\(tag)")
        }
      }
    }
    return found.sorted()
  }

  @Test func everySuiteThatStartsTheBinaryPostgresOrTheFakeGitHub_isTaggedSo() throws {
    let offences = try Self.offences(in: Self.tests)
    #expect(offences.isEmpty, "add the tag to the @Suite (Tests/TestTags/Tags.swift):\n\(offences.joined(separator: "\n"))")
  }

  @Test func theCheckFindsAnUntaggedSuite() throws {
    // The check itself: a suite that starts the binary through a helper is found, a tagged one
    // and one that only mentions the binary in a comment or a string are not.
    let folder = try TemporaryFolder()
    try """
      func launch() throws { _ = try BinaryTests.run(["list"]) }
      @Suite struct Bomb { @Test func a() throws { try launch() } }
      @Suite(.tags(.binary)) struct Tagged { @Test func a() throws { try launch() } }
      // BinaryTests.run in a comment
      @Suite struct Mention { @Test func a() { _ = "BinaryTests.run {" } }
      @Suite(
        .serialized
      )
      struct Server { let s = try? PostgresCluster.shared() }
      """.write(toFile: folder.file("Bomb.swift"), atomically: true, encoding: .utf8)
    #expect(try Self.offences(in: URL(fileURLWithPath: folder.path)) == [
      "Bomb.swift: Bomb needs .binary", "Bomb.swift: Server needs .postgres",
    ])
  }
}
