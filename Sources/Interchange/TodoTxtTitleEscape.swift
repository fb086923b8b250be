import Core

/// The escape that lets a todo.txt line carry any title (issue: a title with a newline or an
/// ESC, from a Taskwarrior import or a sync, came back changed), applied by the export and
/// reversed by the import, so what ootd exports it re-imports unchanged.
///
/// A todo.txt line is one task: a line end in a title (LF, CR, VT, FF, NEL, U+2028, U+2029)
/// would start a new one, and another control character (ESC, BEL…) would drive the terminal
/// of whoever `cat`s the file. Each such character is written `\uXXXX` (four uppercase hex
/// digits: `\u000A`, `\u001B`, `\u2028`); a tab stays a tab. Only that text is an escape: a
/// backslash anywhere else (`C:\Users`, `\n`, `\u0041`, `\u001b`) is written and read as it is,
/// so a title without those characters is written byte for byte as it is.
///
/// A word the reader would take out of the title (`+1`, `@home`, `C:\Users`, `due:2026-12-01`, a
/// run of spaces) is escaped the same way at the one character that makes it so
/// (``wordEscapes(_:)``): the export never turns a title into a project, a tag or an attribute.
///
/// A title that holds the escape's text itself (`\u001B` typed as six characters) keeps it:
/// the backslashes right before `uXXXX` are doubled, the one before an escaped character too,
/// and a reader halves them; an odd count means the last one starts an escape (as a Windows
/// command line reads backslashes before a quote). `\u001B` typed is written `\\u001B`, `\`
/// then ESC is `\\\u001B`.
extension TodoTxt {
  /// Whether a title's `scalar` is written as an escape: a control character other than tab,
  /// or U+2028, U+2029.
  static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    (ControlCharacters.isControl(scalar) && scalar != "\t") || scalar == "\u{2028}" || scalar == "\u{2029}"
  }

  /// Whether `scalar` may be read back from an escape: one ``isEscaped(_:)``, or one that
  /// ``wordEscapes(_:)`` escapes where the reader would take a title's word for its own.
  static func isReadBack(_ scalar: Unicode.Scalar) -> Bool {
    isEscaped(scalar) || scalar == "+" || scalar == "@" || scalar == ":" || scalar == " "
  }

  /// The places (scalar offsets) of `title` escaped because the reader would otherwise take
  /// the word they are in for its own and out of the title (``take(_:into:)``, the reader's own
  /// rule, on words split at spaces): the `+` of a `+project` word, the `@` of an `@context`, the colon of a
  /// `key:value` it reads (`due:2026-12-01`, `C:\Users`, `ootd:…`), and the second and later
  /// spaces of a run (the reader joins words with one). A word the reader keeps (`C++`,
  /// `a@b`, `10:30`, `https://…`) is written as it is.
  static func wordEscapes(_ title: String) -> Set<Int> {
    var escaped: Set<Int> = []
    // As the reader fills it: the title's words come first on the line, and the reader takes
    // none of them (each it would take is escaped), so each is asked of an empty line (a
    // second `ootd:UUID` or `t:1` was asked of a line that had the first, kept as it was, and
    // taken by the reader, which never saw the escaped first).
    let line = Line()
    // The title's words as the reader splits them (``take(_:into:)``), each with the offset
    // of its first scalar in the title.
    let scalars = title.unicodeScalars
    var offset = 0
    var position = title.startIndex
    for word in title.split(separator: " ", omittingEmptySubsequences: true) {
      offset += scalars.distance(from: position, to: word.startIndex)
      position = word.startIndex
      var probe = line
      guard (try? take(word, into: &probe)) ?? true else { continue }
      // The `+` or `@` that starts it, else the colon of its `key:value`.
      let at = word.first == "+" || word.first == "@" ? word.startIndex : word.firstIndex(of: ":") ?? word.startIndex
      escaped.insert(offset + scalars.distance(from: word.startIndex, to: at))
    }
    // The second and later spaces of a run: the reader joins words with one.
    var previous: Unicode.Scalar?
    for (index, scalar) in scalars.enumerated() {
      if scalar == " ", previous == " " { escaped.insert(index) }
      previous = scalar
    }
    return escaped
  }

  /// `title` as a todo.txt line carries it (see the extension's summary); the title itself when
  /// it has nothing to escape.
  public static func escapedTitle(_ title: String) -> String { escaped(title, asWord: false) }

  /// `value` as the value of a `key:value` word (the block of `ootdblock:`): escaped as a title
  /// is, and every space and colon too, so it stays one word and ``unescapedTitle(_:)`` gives it
  /// back exactly. A block name (letters, digits, `-`, `_`, `.`) is written as it is.
  static func escapedWord(_ value: String) -> String { escaped(value, asWord: true) }

  /// ``escapedTitle(_:)``, or with `asWord` ``escapedWord(_:)``.
  private static func escaped(_ title: String, asWord: Bool) -> String {
    // Bytes first, in one pass: a title without a C0 byte, DEL, a C1 control (lead byte
    // 0xC2), U+2028/U+2029 (0xE2), a backslash, or what may make a word the reader's (`+`,
    // `@`, `:`, two spaces; a word: any space), as most, is written as it is without decoding it.
    var previous: UInt8 = 0
    guard title.containsUTF8(where: { byte in
      defer { previous = byte }
      return byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 || byte == 0x5C || byte == 0x2B
        || byte == 0x40 || byte == 0x3A || (byte == 0x20 && (asWord || previous == 0x20))
    }) else {
      return title
    }
    let scalars = Array(title.unicodeScalars)
    var inWords = wordEscapes(title)
    if asWord {
      for (index, scalar) in scalars.enumerated() where scalar == " " || scalar == ":" { inWords.insert(index) }
    }
    guard !inWords.isEmpty || scalars.contains(where: isEscaped)
      || scalars.indices.contains(where: { isEscapeText(scalars, at: $0) })
    else {
      return title
    }
    var result = String.UnicodeScalarView()
    var backslashes = 0
    for (index, scalar) in scalars.enumerated() {
      if scalar == "\\" {
        backslashes += 1
        continue
      }
      if isEscaped(scalar) || inWords.contains(index) {
        appendBackslashes(2 * backslashes + 1, to: &result)
        result.append("u")
        result.append(contentsOf: hex(scalar).unicodeScalars)
      } else if backslashes > 0, isEscapeText(scalars, at: index - 1) {
        // The title's own `\uXXXX`: doubled, it reads back as text.
        appendBackslashes(2 * backslashes, to: &result)
        result.append(scalar)
      } else {
        appendBackslashes(backslashes, to: &result)
        result.append(scalar)
      }
      backslashes = 0
    }
    appendBackslashes(backslashes, to: &result)
    return String(result)
  }

  /// The title a todo.txt line's `text` stands for: ``escapedTitle(_:)`` reversed. A text
  /// without a backslash is returned as it is.
  public static func unescapedTitle(_ text: String) -> String {
    guard text.containsUTF8(where: { $0 == 0x5C }) else { return text }
    let scalars = Array(text.unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      guard scalars[index] == "\\" else {
        result.append(scalars[index])
        index += 1
        continue
      }
      var end = index
      while end < scalars.count, scalars[end] == "\\" { end += 1 }
      let run = end - index
      guard isEscapeText(scalars, at: end - 1) else {
        appendBackslashes(run, to: &result)
        index = end
        continue
      }
      appendBackslashes(run / 2, to: &result)
      if run % 2 == 1 {
        result.append(code(scalars, at: end + 1)!)
      } else {
        result.append(contentsOf: scalars[end..<(end + 5)])
      }
      index = end + 5
    }
    return String(result)
  }

  /// Whether `scalars` hold, from `index`, a backslash then the text of an escape: `u` and four
  /// uppercase hex digits naming a character ``isReadBack(_:)``.
  static func isEscapeText(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
    index >= 0 && index + 5 < scalars.count && scalars[index] == "\\" && scalars[index + 1] == "u"
      && code(scalars, at: index + 2) != nil
  }

  /// The character the four uppercase hex digits at `index` name, when it is one
  /// ``isReadBack(_:)``; nil otherwise.
  static func code(_ scalars: [Unicode.Scalar], at index: Int) -> Unicode.Scalar? {
    guard index + 4 <= scalars.count else { return nil }
    var value: UInt32 = 0
    for scalar in scalars[index..<(index + 4)] {
      switch scalar {
      case "0"..."9": value = value << 4 | (scalar.value - 0x30)
      case "A"..."F": value = value << 4 | (scalar.value - 0x41 + 10)
      default: return nil
      }
    }
    guard let scalar = Unicode.Scalar(value), isReadBack(scalar) else { return nil }
    return scalar
  }

  /// `scalar` as four uppercase hex digits (every escaped character is under U+10000).
  static func hex(_ scalar: Unicode.Scalar) -> String {
    let digits = String(scalar.value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.utf8.count)) + digits
  }

  static func appendBackslashes(_ count: Int, to result: inout String.UnicodeScalarView) {
    for _ in 0..<count { result.append("\\") }
  }
}
