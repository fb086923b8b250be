/// One key press as the TUI sees it: a character typed, or a named key.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  /// A character, space included (`j`, `>`, `한`).
  case character(Character)
  /// Ctrl with a letter (`ctrl("r")`); Ctrl-C, Ctrl-Z and Ctrl-R are bound by default.
  case control(Character)
  case enter, escape, backspace, tab, backTab, up, down, left, right
  /// Text pasted (bracketed paste: the terminal marks it): typed into a line as text, never
  /// taken for keys (a pasted "Dy" would delete), newlines included.
  case paste(String)

  /// The key's name in the key file (`j`, `space`, `ctrl-r`, `shift-tab`, `up`): what
  /// ``init(name:)`` reads back.
  public var description: String {
    switch self {
    case .character(" "): return "space"
    case .character(let character): return String(character)
    case .control(let letter): return "ctrl-\(letter)"
    case .enter: return "enter"
    case .escape: return "esc"
    case .backspace: return "backspace"
    case .tab: return "tab"
    case .backTab: return "shift-tab"
    case .up: return "up"
    case .down: return "down"
    case .left: return "left"
    case .right: return "right"
    case .paste: return "paste"
    }
  }

  /// The key a name in the key file stands for: one character, or a name as ``description``
  /// writes it (case-insensitive); nil for anything else.
  public init?(name: String) {
    if name.count == 1, let character = name.first {
      self = .character(character)
      return
    }
    let lower = name.lowercased()
    let named: [String: Key] = [
      "space": .character(" "), "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape,
      "backspace": .backspace, "tab": .tab, "shift-tab": .backTab, "backtab": .backTab, "up": .up,
      "down": .down, "left": .left, "right": .right,
    ]
    if let key = named[lower] {
      self = key
      return
    }
    if lower.hasPrefix("ctrl-"), lower.count == 6, let letter = lower.last, letter.isLetter, letter.isASCII {
      self = .control(letter)
      return
    }
    return nil
  }
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters, control bytes, and the escape
/// sequences of arrows and Shift-Tab (`ESC [ A`, `ESC O A`, `ESC [ Z`). A lone ESC at the end of
/// a read is the Escape key (a terminal sends a sequence in one write).
public struct KeyDecoder: Sendable {
  public init() {}

  /// The start and end marks of a paste (bracketed paste mode, `ESC [ ? 2004 h`).
  static let pasteStart: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E]
  static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

  /// How many bytes at the end of `bytes` start what the next read completes: a UTF-8
  /// character cut short, an escape sequence without its final byte (`ESC [` and more; a lone
  /// ESC is the Escape key), a paste without its end mark. The input loop keeps them for the
  /// next read (a terminal may split a write), and decodes them as they are when none comes.
  public func pendingTail(_ bytes: [UInt8]) -> Int {
    guard !bytes.isEmpty else { return 0 }
    if let start = Self.find(Self.pasteStart, in: bytes, from: 0) {
      // The last paste begun and not ended (its end may be in the next read).
      var from = start
      while let next = Self.find(Self.pasteStart, in: bytes, from: from + 1) { from = next }
      if Self.find(Self.pasteEnd, in: bytes, from: from) == nil { return bytes.count - from }
    }
    // An escape sequence cut short: ESC [ or ESC O with no final byte yet.
    if let escape = bytes.lastIndex(of: 0x1B), escape + 1 < bytes.count,
      bytes[escape + 1] == UInt8(ascii: "[") || bytes[escape + 1] == UInt8(ascii: "O"),
      !bytes[(escape + 2)...].contains(where: { (0x40...0x7E).contains($0) })
    {
      return bytes.count - escape
    }
    // A UTF-8 character cut short: a lead byte within the last three, with too few after it.
    for back in 1...min(3, bytes.count) {
      let byte = bytes[bytes.count - back]
      if byte & 0xC0 == 0x80 { continue }  // a continuation byte: look further back
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      return length > back ? back : 0
    }
    return 0
  }

  static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var index = from
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
      index += 1
    }
    return nil
  }

  public func keys(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B, index + Self.pasteStart.count <= bytes.count,
        Array(bytes[index..<(index + Self.pasteStart.count)]) == Self.pasteStart
      {
        // A paste: its text whole, up to the end mark (or the end of what came).
        let start = index + Self.pasteStart.count
        let end = Self.find(Self.pasteEnd, in: bytes, from: start) ?? bytes.count
        keys.append(.paste(String(decoding: bytes[start..<end], as: UTF8.self)))
        index = min(bytes.count, end + Self.pasteEnd.count)
        continue
      }
      switch byte {
      case 0x1B:
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
          // CSI: parameters, then one final byte (0x40…0x7E).
          var end = index + 2
          while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
          if end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "A"): keys.append(.up)
            case UInt8(ascii: "B"): keys.append(.down)
            case UInt8(ascii: "C"): keys.append(.right)
            case UInt8(ascii: "D"): keys.append(.left)
            case UInt8(ascii: "Z"): keys.append(.backTab)
            default: break  // a key the TUI does not use (F1, Home…): ignored whole
            }
          }
          index = end + 1
        } else if index + 1 < bytes.count, bytes[index + 1] == 0x0D || bytes[index + 1] == 0x0A {
          // Alt-Enter: a new line in the notes (as Ctrl-J).
          keys.append(.control("j"))
          index += 2
        } else {
          keys.append(.escape)
          index += 1
        }
      case 0x0D:
        keys.append(.enter)
        index += 1
      case 0x0A:
        // Ctrl-J: Enter, but a new line in the notes (the reducer tells them apart).
        keys.append(.control("j"))
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x7F, 0x08:
        keys.append(.backspace)
        index += 1
      case 0x01...0x1A:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        index += 1
      case 0x00, 0x1C...0x1F:
        index += 1
      default:
        // A UTF-8 character: its length from the lead byte.
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        let end = min(bytes.count, index + length)
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        for character in text where character != "\u{FFFD}" { keys.append(.character(character)) }
        index = end
      }
    }
    return keys
  }
}
