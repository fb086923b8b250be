import Foundation

/// How the tests start a server written in Python (the fake GitHub, the CalDAV servers): the
/// script runs under `python3` with a pipe on its standard input (it stops when the pipe
/// closes) and says it is ready by printing one line. Written once for both launchers.
public enum ScriptProcess {
  /// Runs `python3 SCRIPT ARGUMENTS…` in `process`, `input` and `output` its standard input and
  /// output (its standard error as the caller set it), and returns the first line it prints,
  /// without the newline: empty when it ended without one.
  public static func start(_ process: Process, script: URL, arguments: [String], input: Pipe, output: Pipe) throws -> Data {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path] + arguments
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      line.append(chunk)
    }
    return Data(line.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? [])
  }
}
