import Core
import Testing

@testable import CLI

/// `ootd log`'s `from …`: a machine's name when its records carry one, sanitised again (it is
/// another machine's text), else its short device id, as for records of an older ootd.
@Suite struct LogFromNameTests {
  static let device = "4fc7664d-0b7e-4f4e-9a57-2d1f3c0a9b11"

  @Test("by name when known, by short device id when not, never a control character")
  func from() {
    #expect(JournalOutput.from(Self.device, name: "desktop") == "from desktop")
    #expect(JournalOutput.from(Self.device, name: nil) == "from 4fc7664d")
    #expect(JournalOutput.from(Self.device, name: "\u{1B}[2Jdesk\u{9B}top\u{202E}") == "from [2Jdesk top")
    #expect(JournalOutput.from(Self.device, name: "\u{07}") == "from 4fc7664d")
    #expect(JournalOutput.from(Self.device, name: String(repeating: "n", count: 500)) == "from " + String(repeating: "n", count: 40))
  }
}
