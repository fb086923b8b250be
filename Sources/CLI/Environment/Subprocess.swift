import Foundation

/// Running another program (`gh`, `git`) and reading its output.
extension AppEnvironment {
  /// Runs `gh auth token --hostname HOST` when `gh` is on `path`; its output, or nil.
  static func ghToken(host: String, path: String) -> String? {
    guard let output = run("gh", ["auth", "token", "--hostname", host], path: path) else {
      return nil
    }
    let token = output.trimmingCharacters(in: .whitespacesAndNewlines)
    return token.isEmpty ? nil : token
  }

  /// Runs `program` (looked up on `path`) with `arguments` and this process's variables plus
  /// `environment`; its standard output when it exits with 0, else nil. Standard input and error
  /// are closed.
  static func run(
    _ program: String, _ arguments: [String], path: String, environment: [String: String] = [:]
  ) -> String? {
    let candidates = path.split(separator: ":").map { String($0) + "/" + program }
    guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = AppEnvironment.processVariables().merging(environment) { $1 }
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

extension AppEnvironment {
  /// The first executable file named `program` in the folders of `path` (`PATH`'s form), or nil.
  static func executable(_ program: String, path: String) -> String? {
    path.split(separator: ":").map { String($0) + "/" + program }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs `executable` with `arguments`, `input` on its standard input (written on another
  /// thread, so a program that answers before reading everything cannot deadlock it); its
  /// standard output as bytes when it exits with 0, else nil. Standard error is discarded.
  static func run(_ executable: String, _ arguments: [String], input: [UInt8]) -> [UInt8]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = standardInput
    do { try process.run() } catch { return nil }
    let writer = standardInput.fileHandleForWriting
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      try? writer.write(contentsOf: input)
      try? writer.close()
      done.signal()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    done.wait()
    guard process.terminationStatus == 0 else { return nil }
    return [UInt8](data)
  }
}
