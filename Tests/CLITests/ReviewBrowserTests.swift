import Foundation
import TestTags
import Testing

@testable import CLI

/// The review page in a real browser (issue 28): headless Chromium (Debian's `chromium`, which
/// scripts/bootstrap installs) loads the HTML file, dumps its DOM and takes a screenshot; the
/// figures in the DOM are those of `report --json`, and the screenshot is a real picture. The
/// card goes through `rsvg-convert` and an XML parser (Python's xml.etree).
///
/// The tools ``ReviewBrowserTests`` runs.
enum ReviewTools {
  /// Whether they are all on PATH.
  static var installed: Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return ["chromium", "rsvg-convert", "python3"].allSatisfy { AppEnvironment.executable($0, path: path) != nil }
  }
}

/// Tagged .slow as well: Chromium starts in about 2 s, so CI runs it in its first pass only.
/// Skipped where Chromium or rsvg-convert is missing, except under `CI=true`, where it fails.
@Suite(
  .tags(.binary, .slow),
  .enabled(
    if: ReviewTools.installed || ProcessInfo.processInfo.environment["CI"] == "true",
    "chromium or rsvg-convert is not installed (scripts/bootstrap installs them)"))
struct ReviewBrowserTests {
  /// The result of a tool the test runs.
  struct Ran {
    let code: Int32
    let stdout: Data
    let stderr: String
  }

  /// Runs `program` (found on PATH) with `arguments`. A tool that never returns is killed after
  /// `hangGuard` seconds so the suite goes on (its exit by a signal fails the test); no
  /// assertion depends on time.
  static func run(_ program: String, _ arguments: [String], hangGuard: TimeInterval = 180) throws -> Ran {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let executable = try #require(
      AppEnvironment.executable(program, path: path),
      "\(program) is not installed: scripts/bootstrap installs it (chromium librsvg2-bin)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let (out, err) = (Pipe(), Pipe())
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    DispatchQueue.global().asyncAfter(deadline: .now() + hangGuard) { [process] in
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    // Standard error is read on its own thread: a chatty Chromium must not block on it.
    let errors = Captured()
    let reading = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      errors.stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      reading.signal()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    reading.wait()
    return Ran(code: process.terminationStatus, stdout: stdout, stderr: errors.stderr)
  }

  /// Chromium, headless, with its profile in `folder` and nothing to reach outside.
  static func chromium(_ folder: TemporaryFolder, _ arguments: [String]) throws -> Ran {
    try run(
      "chromium",
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
        "--user-data-dir=" + folder.file("chromium-profile"), "--hide-scrollbars",
      ] + arguments)
  }

  /// A PNG's width and height (its IHDR chunk), after checking its signature.
  static func pngSize(_ data: Data) throws -> (width: Int, height: Int) {
    let bytes = [UInt8](data)
    try #require(bytes.count > 24)
    #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
    func integer(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (integer(16), integer(20))
  }

  /// Python decodes the PNG's image data (every IDAT chunk inflated, one filter byte and the
  /// pixels per row) and prints how many distinct byte values it holds: a blank picture has
  /// a handful, a drawn page hundreds.
  static func decodedByteValues(_ path: String) throws -> Int {
    let script = """
      import struct, sys, zlib
      data = open(sys.argv[1], 'rb').read()
      pos, idat, width, height, depth, kind = 8, b'', 0, 0, 0, 0
      while pos < len(data):
          length, name = struct.unpack('>I4s', data[pos:pos + 8])
          body = data[pos + 8:pos + 8 + length]
          if name == b'IHDR':
              width, height, depth, kind = struct.unpack('>IIBB', body[:10])
          elif name == b'IDAT':
              idat += body
          pos += 12 + length
      raw = zlib.decompress(idat)
      channels = {0: 1, 2: 3, 4: 2, 6: 4}[kind]
      assert depth == 8 and len(raw) == height * (1 + width * channels), (len(raw), width, height)
      print(len(set(raw)))
      """
    let ran = try run("python3", ["-c", script, path])
    #expect(ran.code == 0, "\(ran.stderr)")
    return Int(String(decoding: ran.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  @Test func chromium_showsTheReportsFigures_andDrawsAPage() throws {
    let (folder, db) = try ReviewBinaryTests.filled()
    let range = ["--from", "2026-11-01", "--to", "2026-11-30"]
    let (html, svg, png) = (folder.file("review.html"), folder.file("card.svg"), folder.file("card.png"))
    let wrote = try BinaryTests.run(["review", "--html", html, "--svg", svg, "--png", png, "--db", db] + range)
    #expect(wrote.code == 0, "\(wrote.stderr)")
    let report = try ReviewBinaryTests.report(db, range)

    // The DOM Chromium built from the file: the document's title and language, both heatmaps'
    // cells, and each figure as `report --json` states it.
    let dumped = try Self.chromium(folder, ["--dump-dom", URL(fileURLWithPath: html).absoluteString])
    #expect(dumped.code == 0, "\(dumped.stderr)")
    let dom = String(decoding: dumped.stdout, as: UTF8.self)
    #expect(dom.contains("<html lang=\"en\">"))
    #expect(dom.contains("<title>2026-11-01 → 2026-11-30 in review · ootd</title>"))
    #expect(!dom.contains("<script"))
    #expect(dom.components(separatedBy: "data-date=\"2026-11-").count - 1 == 30)
    for key in ["total", "done", "longestStreak", "currentStreak"] {
      let value = try #require(report[key] as? Int)
      #expect(dom.contains("data-figure=\"\(key)\">\(value)<"), "\(key) \(value)")
    }
    let rate = try #require(report["rate"] as? Double)
    #expect(dom.contains("data-figure=\"rate\">\(Int((rate * 100).rounded()))%<"))

    // The screenshot: a PNG of the window's size that decodes to a drawn page.
    let shot = folder.file("shot.png")
    let taken = try Self.chromium(
      folder, ["--window-size=1000,1800", "--screenshot=" + shot, URL(fileURLWithPath: html).absoluteString])
    #expect(taken.code == 0, "\(taken.stderr)")
    let picture = try Data(contentsOf: URL(fileURLWithPath: shot))
    let size = try Self.pngSize(picture)
    #expect(size.width == 1000 && size.height == 1800)
    #expect(picture.count > 40_000, "\(picture.count) bytes")
    #expect(try Self.decodedByteValues(shot) > 64)

    // The card: rsvg-convert renders it (and `review --png` did the same), Python's XML parser
    // reads it, with the SVG namespace, a title and a description.
    let rendered = folder.file("rendered.png")
    let converted = try Self.run("rsvg-convert", ["--format", "png", "--output", rendered, svg])
    #expect(converted.code == 0, "\(converted.stderr)")
    #expect(try Self.pngSize(try Data(contentsOf: URL(fileURLWithPath: rendered))).width > 500)
    let card = try Self.pngSize(try Data(contentsOf: URL(fileURLWithPath: png)))
    #expect(card.width > 1000)
    #expect(try Self.decodedByteValues(png) > 64)
    let parsed = try Self.run(
      "python3",
      [
        "-c",
        """
        import sys, xml.etree.ElementTree as ET
        root = ET.parse(sys.argv[1]).getroot()
        ns = '{http://www.w3.org/2000/svg}'
        assert root.tag == ns + 'svg', root.tag
        print(root.find(ns + 'title').text)
        print(len(root.find(ns + 'desc').text) > 0)
        print(len([r for r in root.iter(ns + 'rect') if r.get('data-date')]))
        """,
        svg,
      ])
    #expect(parsed.code == 0, "\(parsed.stderr)")
    #expect(
      String(decoding: parsed.stdout, as: UTF8.self) == "2026-11-01 → 2026-11-30 in review · ootd\nTrue\n30\n")
  }
}
