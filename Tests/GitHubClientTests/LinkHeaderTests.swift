import Foundation
import Testing

@testable import GitHubClient

@Suite("Link header parsing")
struct LinkHeaderTests {
  struct Example: Sendable, CustomTestStringConvertible {
    let name: String
    let header: String
    let next: String?
    var testDescription: String { name }
  }

  static let examples: [Example] = [
    Example(
      name: "GitHub docs sample",
      header:
        #"<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", <https://api.github.com/repositories/1300192/issues?page=4>; rel="next", <https://api.github.com/repositories/1300192/issues?page=515>; rel="last", <https://api.github.com/repositories/1300192/issues?page=1>; rel="first""#,
      next: "https://api.github.com/repositories/1300192/issues?page=4"),
    Example(
      name: "last page has no next",
      header: #"<https://h/x?page=4>; rel="prev", <https://h/x?page=1>; rel="first""#, next: nil),
    Example(
      name: "commas inside the URL",
      header:
        #"<https://h/x?a=1,2&b=owner,collaborator>; rel="next", <https://h/x?page=9>; rel="last""#,
      next: "https://h/x?a=1,2&b=owner,collaborator"),
    Example(name: "unquoted rel", header: "<https://h/n>; rel=next", next: "https://h/n"),
    Example(
      name: "rel value in another case", header: #"<https://h/n>; REL="Next""#, next: "https://h/n"),
    Example(
      name: "odd spacing", header: #"   <https://h/l> ;rel = "last"  ,<https://h/n>;rel="next"   "#,
      next: "https://h/n"),
    Example(
      name: "several rels in one entry", header: #"<https://h/n>; rel="last next""#,
      next: "https://h/n"),
    Example(
      name: "extra parameters and unknown rels",
      header:
        #"<https://developer.github.com/changes/2020-01-21/>; rel="deprecation"; type="text/html", <https://api.github.com/organizations/1/team/2>; rel="alternate""#,
      next: nil),
    Example(
      name: "quoted parameter holding ; and ,",
      header: #"<https://h/n>; title="a;b, c \"q\""; rel="next""#, next: "https://h/n"),
    Example(
      name: "garbage before a good entry", header: #"garbage, <https://h/n>; rel="next""#,
      next: "https://h/n"),
    Example(name: "unterminated URL", header: #"<https://h/n; rel="next""#, next: nil),
    Example(name: "empty header", header: "", next: nil),
    Example(
      name: "first rel parameter wins", header: #"<https://h/n>; rel="last"; rel="next""#, next: nil
    ),
    Example(
      name: "cursor-style next (legacy commits)",
      header:
        #"<https://api.github.com/repositories/3544490/commits?top=master&last_sha=ee29ded>; rel="next", <https://api.github.com/repositories/3544490/commits?sha=master>; rel="first""#,
      next: "https://api.github.com/repositories/3544490/commits?top=master&last_sha=ee29ded"),
  ]

  @Test(arguments: examples)
  func nextTarget_isFoundExactly(_ example: Example) {
    #expect(LinkHeader(example.header).target(for: "next") == example.next)
  }

  @Test func parameters_areKeptWithLowercasedNames() {
    let header = LinkHeader(
      #"<https://developer.github.com/changes/x/>; rel="deprecation"; Type="text/html""#)
    #expect(header.links.count == 1)
    #expect(header.links[0].relations == ["deprecation"])
    #expect(header.links[0].parameters == ["type": "text/html"])
  }

  @Test func severalFieldLines_areCombined() {
    let header = LinkHeader([#"<https://h/l>; rel="last""#, #"<https://h/n>; rel="next""#])
    #expect(header.next == URL(string: "https://h/n"))
    #expect(header.target(for: "last") == "https://h/l")
  }

  struct Recorded: Decodable, Sendable {
    let source: String
    let link: String
    let next: String?
  }

  /// Every real `Link` header recorded from api.github.com yields the URL the recording client
  /// actually requested next.
  @Test func recordedHeaders_yieldTheRequestThatFollowed() throws {
    let recorded = try JSONDecoder().decode(
      [Recorded].self, from: Fixture.data("recorded-link-headers.json"))
    #expect(recorded.count >= 6)
    for entry in recorded {
      #expect(LinkHeader(entry.link).target(for: "next") == entry.next, "\(entry.source)")
    }
  }
}
