/// XML text written by ootd (an SVG heatmap, a WebDAV request body): written once.
public enum XMLText {
  /// Escapes text for XML content and attribute values; characters XML 1.0 cannot carry (C0
  /// controls other than tab, line feed and carriage return) become U+FFFD.
  public static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
