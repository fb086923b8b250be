import Testing
import TUI

@Suite struct KeyDecoderTests {
  @Test(arguments: [
    ([UInt8]("jk".utf8), [Key.character("j"), .character("k")]),
    ([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x43, 0x1B, 0x5B, 0x44], [.up, .down, .right, .left]),
    ([0x1B, 0x5B, 0x5A, 0x09], [.backTab, .tab]),
    ([0x1B], [.escape]),
    ([0x03, 0x12, 0x1A, 0x0D, 0x7F], [.control("c"), .control("r"), .control("z"), .enter, .backspace]),
    ([UInt8]("한 😀".utf8), [.character("한"), .character(" "), .character("😀")]),
    ([0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x78], [.character("x")]),  // F5 ignored whole
    // A paste is text, not keys (a pasted "Dy" must not delete).
    ([UInt8]("j\u{1B}[200~Buy milk\nDy\u{1B}[201~k".utf8), [.character("j"), .paste("Buy milk\nDy"), .character("k")]),
  ])
  func decodes(_ bytes: [UInt8], _ keys: [Key]) {
    #expect(KeyDecoder().keys(bytes) == keys)
  }

  /// What a read cut short is kept for the next: a UTF-8 character, an escape sequence, a
  /// paste (a terminal may split one write into two reads).
  @Test(arguments: [
    ([UInt8]("jk".utf8), 0), ([0x1B], 0), ([0x6A, 0xED, 0x95], 2), ([0xED, 0x95, 0x9C], 0),
    ([0xF0, 0x9F, 0x98], 3), ([0x6A, 0x1B, 0x5B], 2), ([0x1B, 0x5B, 0x31, 0x35], 4), ([0x1B, 0x5B, 0x41], 0),
    ([UInt8]("x\u{1B}[200~half a pa".utf8), 15), ([UInt8]("\u{1B}[200~all\u{1B}[201~".utf8), 0), ([], 0),
  ])
  func keepsWhatTheNextReadCompletes(_ bytes: [UInt8], _ tail: Int) {
    #expect(KeyDecoder().pendingTail(bytes) == tail)
  }

  @Test func aCharacterSplitAcrossTwoReadsIsOneKey() {
    let decoder = KeyDecoder()
    let bytes = [UInt8]("a한".utf8)
    let first = Array(bytes.prefix(2))
    let tail = decoder.pendingTail(first)
    #expect(tail == 1)
    #expect(decoder.keys(Array(first.dropLast(tail))) == [.character("a")])
    #expect(decoder.keys(Array(first.suffix(tail)) + bytes.dropFirst(2)) == [.character("한")])
  }
}
