import Foundation
import Testing

@testable import GitHubClient

@Suite("Configuration")
struct ConfigurationTests {
  enum Verdict: Sendable, Equatable { case accepted, insecure, invalid }

  @Test(arguments: [
    ("https://api.github.com", Verdict.accepted),
    ("https://api.github.com/", .accepted),
    ("https://ghe.example.com/api/v3", .accepted),
    ("https://api.tenant.ghe.com", .accepted),
    ("http://127.0.0.1:8080", .accepted),
    ("http://127.1.2.3", .accepted),
    ("http://localhost:3000/api/v3", .accepted),
    ("http://[::1]:9000", .accepted),
    ("http://api.github.com", .insecure),
    ("http://10.0.0.1:8080", .insecure),
    ("http://127.0.0.1.evil.example", .insecure),
    ("http://128.0.0.1", .insecure),
    ("http://localhost.evil.example", .insecure),
    ("ftp://example.com", .invalid),
    ("https://user:hunter2@example.com", .invalid),
    ("https://example.com?x=1", .invalid),
    ("/relative/path", .invalid),
  ])
  func baseURL_acceptsHttpsAndLoopbackHttpOnly(_ text: String, _ verdict: Verdict) {
    let result: Verdict
    do {
      _ = try GitHubConfiguration(baseURL: URL(string: text)!, version: "1")
      result = .accepted
    } catch GitHubError.insecureBaseURL {
      result = .insecure
    } catch GitHubError.invalidBaseURL(let detail) {
      #expect(!detail.contains("hunter2"))
      result = .invalid
    } catch {
      result = .invalid
    }
    #expect(result == verdict)
  }

  @Test func defaults_matchTheIssue() throws {
    let configuration = try GitHubConfiguration(token: "  ", version: "0.4.0")
    #expect(configuration.baseURL.absoluteString == "https://api.github.com")
    #expect(configuration.token == nil)
    #expect(configuration.userAgent == "ootd/0.4.0")
    #expect(configuration.rateLimitWaitBound == 900)
    #expect(configuration.maxAttempts == 3)
    #expect(configuration.maxPages == 1000)
    #expect(configuration.apiVersion == "2022-11-28")
  }

  @Test func trailingSlash_isDropped_soPathsJoinCleanly() throws {
    let configuration = try GitHubConfiguration(
      baseURL: URL(string: "https://ghe.example.com/api/v3/")!, version: "1")
    #expect(configuration.baseURL.absoluteString == "https://ghe.example.com/api/v3")
  }
}
