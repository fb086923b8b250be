import Foundation
import ScriptSupport

/// Runs `fake_github.py` (beside this file) on 127.0.0.1 for one test. The server stops when its
/// standard input closes: when ``stop()`` runs or this value goes away.
public final class FakeGitHubProcess {
  /// The server's port on 127.0.0.1.
  public let port: Int
  /// Where the server logs each request, one JSON object a line.
  public let logURL: URL

  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()

  /// The `Tests` folder of the package.
  public static let testsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
  /// The server script.
  public static let script = testsFolder.appendingPathComponent("FakeGitHub/fake_github.py")
  /// The real 11,308-commit history of groue/GRDB.swift the server can replay.
  public static let grdbHistory = testsFolder.appendingPathComponent(
    "GitHubClientTests/Fixtures/grdb.tsv")

  /// Starts the server with `arguments` (see fake_github.py's --help) and waits for its port.
  public init(_ arguments: [String]) throws {
    logURL = FileManager.default.temporaryDirectory
      .appendingPathComponent("ootd-fake-github-\(UUID().uuidString).log")
    let line = try ScriptProcess.start(
      process, script: Self.script, arguments: ["--log", logURL.path] + arguments, input: input, output: output)
    guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)) else {
      process.terminate()
      throw ServerDidNotStart()
    }
    self.port = port
  }

  deinit { stop() }

  /// The server did not print its port.
  public struct ServerDidNotStart: Error {}

  /// Stops the server and removes its log.
  public func stop() {
    if process.isRunning {
      try? input.fileHandleForWriting.close()
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: logURL)
  }

  /// `http://127.0.0.1:PORT`.
  public var apiURL: String { "http://127.0.0.1:\(port)" }

  /// The requests received so far, in order, decoded as `Entry`.
  public func log<Entry: Decodable>(as entry: Entry.Type) throws -> [Entry] {
    guard let text = try? String(contentsOf: logURL, encoding: .utf8) else { return [] }
    return try text.split(separator: "\n").map {
      try JSONDecoder().decode(Entry.self, from: Data($0.utf8))
    }
  }
}
