import HTTP
import Core
import Foundation
import TestTags
import Testing

@testable import GitHubClient

/// A token (or any header value) must never add header lines of its own to a request.
@Suite("Header injection", .tags(.network))
struct HeaderInjectionTests {
  static let injected = "ghp_A\r\nX-Injected: yes"

  @Test(arguments: [
    injected, "ghp_A\nX-Injected: yes", "ghp_A\rB", "ghp_A\u{0}B", "ghp_A\u{1F}B", "ghp_A\u{7F}B",
    "ghp_A B", "ghp_A\tB", "ghp_A\u{85}B", "ghp_Aé",
  ])
  func configuration_rejectsATokenThatIsNotOneVisibleASCIIWord(_ token: String) {
    #expect(!GitHubConfiguration.isUsableToken(token))
    #expect(throws: GitHubError.invalidToken) {
      _ = try GitHubConfiguration(baseURL: GitHubConfiguration.gitHubDotCom, token: token, version: "1")
    }
    #expect(!GitHubError.invalidToken.description.contains("ghp_A"))
  }

  @Test func configuration_keepsARealTokenAndTrimsItsEnds() throws {
    let token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    #expect(GitHubConfiguration.isUsableToken(token))
    let configuration = try GitHubConfiguration(token: " \(token)\r\n", version: "1")
    #expect(configuration.token == token)
  }

  @Test func liveTransport_refusesAHeaderValueWithALineBreak_andSendsNothing() async throws {
    let server = try FakeGitHubServer(["--login", "mona"])
    defer { server.stop() }
    var headers = HTTPHeaders()
    headers.add(name: "Authorization", value: "Bearer \(Self.injected)")
    let request = HTTPRequest(url: URL(string: server.apiURL + "/user")!, headers: headers)
    await #expect {
      _ = try await CurlTransport(connectTimeout: 5, totalTimeout: 30).send(request)
    } throws: { error in
      guard case HTTPTransportError.unsupported(let reason) = error else { return false }
      return reason.contains("Authorization") && !reason.contains("ghp_A")
    }
    // A clean request still goes through, and no request ever carried an X-Injected header.
    let clean = HTTPRequest(url: URL(string: server.apiURL + "/rate_limit")!)
    #expect(try await CurlTransport(connectTimeout: 5, totalTimeout: 30).send(clean).status == 200)
    let log = try server.log()
    #expect(log.map(\.path) == ["/rate_limit"])
    #expect(log.allSatisfy { !$0.header_names.contains { $0.lowercased() == "x-injected" } })
  }
}
