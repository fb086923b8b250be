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
  ])
  func decodes(_ bytes: [UInt8], _ keys: [Key]) {
    #expect(KeyDecoder().keys(bytes) == keys)
  }
}
