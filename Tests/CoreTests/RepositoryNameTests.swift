import Core
import Testing

@Suite("RepositoryName")
struct RepositoryNameTests {
  @Test(
    "owner/name in GitHub's alphabet parses into its two parts",
    arguments: [
      ("apple/swift", "apple", "swift"),
      ("groue/GRDB.swift", "groue", "GRDB.swift"),
      ("a/b", "a", "b"),
      ("octo-cat/repo_name", "octo-cat", "repo_name"),
      ("octo/.github", "octo", ".github"),
      ("0x1/2-b", "0x1", "2-b"),
      (String(repeating: "o", count: 39) + "/x", String(repeating: "o", count: 39), "x"),
      ("o/" + String(repeating: "n", count: 100), "o", String(repeating: "n", count: 100)),
    ])
  func valid(text: String, owner: String, name: String) throws {
    let parsed = try #require(RepositoryName(text))
    #expect(parsed.owner == owner)
    #expect(parsed.name == name)
    #expect(parsed.description == text)
    #expect(RepositoryName(owner: owner, name: name) == parsed)
  }

  @Test(
    "anything else is rejected",
    arguments: [
      "", "apple", "apple/", "/swift", "/", "apple/swift/extra", "apple//swift",
      "https://github.com/apple/swift", "github.com/apple/swift", "git@github.com:apple/swift",
      "-apple/swift", "apple-/swift", "ap_ple/swift", "ap.ple/swift", "ap ple/swift",
      "apple/sw ift", " apple/swift", "apple/swift ", "apple/.", "apple/..", "äpple/swift",
      "apple/swïft", "apple/swift!", "apple/sw#ift", "애플/swift",
      String(repeating: "o", count: 40) + "/x", "o/" + String(repeating: "n", count: 101),
    ])
  func invalid(text: String) {
    #expect(RepositoryName(text) == nil)
  }

  @Test("the owner may not contain consecutive hyphens (GitHub allows single hyphens only)")
  func consecutiveHyphens() {
    #expect(RepositoryName("octo--cat/repo") == nil)
  }

  @Test("repositories sort by owner/name ignoring case")
  func ordering() throws {
    let names = try ["zeta/a", "Apple/tools", "apple/Swift", "Beta/x"].map {
      try #require(RepositoryName($0))
    }
    #expect(names.sorted().map(\.description) == ["apple/Swift", "Apple/tools", "Beta/x", "zeta/a"])
  }
}
