import FakeGitHubSupport
import Foundation
import TestTags
import Testing

/// A sync's requests share one libcurl handle: over keep-alive HTTP and over HTTPS they reuse one
/// connection instead of a new TCP (and TLS) handshake per page. The fake server logs each
/// request's client port: one connection, one port.
@Suite("Connection reuse", .tags(.binary, .network))
struct ConnectionReuseTests {
  struct Entry: Decodable {
    let path: String
    let client_port: Int
  }

  static let token = "ghp_reuse0000000000000000000000000000"

  func sync(_ server: FakeGitHub, scheme: String, folder: TemporaryFolder, extra: [String: String] = [:])
    throws -> BinaryTests.Result
  {
    var environment = [
      "OOTD_DB": folder.file("ootd.sqlite"),
      "OOTD_GITHUB_API_URL": "\(scheme)://127.0.0.1:\(server.port)", "GITHUB_TOKEN": Self.token,
      "GH_TOKEN": "", "TZ": "UTC", "PATH": "/usr/bin:/bin",
    ]
    environment.merge(extra) { $1 }
    return try BinaryTests.run(
      ["sync", "--repo", "gr/small", "--user", "gr", "--since", "2015-01-01"], environment: environment)
  }

  @Test("a sync over keep-alive HTTP makes all its requests on one connection")
  func keepAlive() throws {
    let folder = try TemporaryFolder()
    let history = try FakeGitHub.smallHistory(lines: 450, in: folder)
    let server = try FakeGitHub([
      "--repo", "gr/small=\(history)", "--login", "gr", "--token", Self.token,
      "--link-email", "gr@pierlis.com=gr", "--keep-alive",
    ])
    let result = try sync(server, scheme: "http", folder: folder)
    #expect(result.code == 0, "\(result.stderr)")
    let log = try server.log(as: Entry.self)
    #expect(log.count >= 4, "\(log.map(\.path))")
    #expect(Set(log.map(\.client_port)).count == 1, "\(log.map(\.client_port))")
  }

  @Test("HTTPS: the CA bundle is honoured, the certificate is checked, and one TLS connection serves the sync")
  func https() throws {
    let folder = try TemporaryFolder()
    let certificate = folder.file("cert.pem")
    let key = folder.file("key.pem")
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    openssl.arguments = [
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
      "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    ]
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    try #require(openssl.terminationStatus == 0, "openssl could not make a test certificate")
    let history = try FakeGitHub.smallHistory(lines: 450, in: folder)
    let server = try FakeGitHub([
      "--repo", "gr/small=\(history)", "--login", "gr", "--token", Self.token,
      "--link-email", "gr@pierlis.com=gr", "--keep-alive", "--tls", certificate, key,
    ])
    // Without the bundle the self-signed certificate is refused: one line, exit 1.
    let refused = try sync(server, scheme: "https", folder: folder)
    #expect(refused.code == 1)
    #expect(refused.stderr.hasPrefix("ootd: error: "))
    #expect(refused.stderr.filter { $0 == "\n" }.count == 1, "\(refused.stderr)")
    #expect(try server.log(as: Entry.self).isEmpty)
    // With it, the sync works over one connection.
    let result = try sync(server, scheme: "https", folder: folder, extra: ["CURL_CA_BUNDLE": certificate])
    #expect(result.code == 0, "\(result.stderr)")
    let log = try server.log(as: Entry.self)
    #expect(log.count >= 4)
    #expect(Set(log.map(\.client_port)).count == 1, "\(log.map(\.client_port))")
  }
}
