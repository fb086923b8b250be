import Testing

@testable import Remote

/// The array literal a push sends its columns in (``RemoteServer/arrayLiteral(_:)``).
@Suite("Push: array literals")
struct ArrayLiteralTests {
  @Test("quotes and backslashes escaped byte by byte, everything else as it is")
  func escaping() {
    #expect(RemoteServer.arrayLiteral([]) == "{}")
    #expect(RemoteServer.arrayLiteral(["", "a"]) == #"{"","a"}"#)
    #expect(RemoteServer.arrayLiteral([#"b "c""#, #"\"#, #"x\"y"#]) == #"{"b \"c\"","\\","x\\\"y"}"#)
    // A quote followed by a combining mark is one Character but still a quote byte: escaped.
    #expect(RemoteServer.arrayLiteral(["\"\u{301}é🧹"]) == "{\"\\\"\u{301}é🧹\"}")
  }
}
