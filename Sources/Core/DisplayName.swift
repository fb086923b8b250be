import Foundation

/// The name teammates see on team boards (`ootd remote set --name`), held to what the server
/// keeps (``RemoteSchema``): `members.display_name` is 1 to 100 characters, and the key names
/// are compared by (`members.name_key`, derived by the server's `ootd.name_key`) 1 to 400. The
/// server counts characters as PostgreSQL does (Unicode scalars), and a name within the first
/// cap can break the second: NFKC writes some characters out in full (`ﷺ` is 18 characters).
/// Checked here so that such a name is one line before anything is sent, not a raw server error.
public enum DisplayName {
  /// The most characters a display name has (`members.display_name`).
  public static let maxCharacters = 100
  /// The most characters the key of a name has (`members.name_key`).
  public static let maxKeyCharacters = 400

  /// The key the server derives from `name` (`ootd.name_key`): compatibility-composed (NFKC),
  /// lowercased, runs of the white space its pattern names made one space, the ends' spaces
  /// trimmed.
  public static func key(_ name: String) -> String {
    let folded = name.precomposedStringWithCompatibilityMapping.lowercased()
    var scalars = String.UnicodeScalarView()
    var space = false
    for scalar in folded.unicodeScalars {
      if spaces.contains(scalar) {
        space = true
        continue
      }
      if space, !scalars.isEmpty { scalars.append(" ") }
      space = false
      scalars.append(scalar)
    }
    return String(scalars)
  }

  /// The white space `ootd.name_key`'s pattern makes one space (after NFKC, which has made the
  /// other spaces, no-break and wide ones, U+0020 already).
  static let spaces: Set<Unicode.Scalar> = [
    " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{1680}", "\u{2028}", "\u{2029}",
  ]

  /// Why the server would refuse `name` as a display name (a phrase after "the name"), or nil
  /// when it keeps it.
  public static func problem(_ name: String) -> String? {
    let length = name.unicodeScalars.count
    if name.trimmingCharacters(in: .whitespaces).isEmpty || length > maxCharacters {
      return "must be 1 to \(maxCharacters) characters"
    }
    let key = key(name).unicodeScalars.count
    if key == 0 { return "has nothing but white space once compared as the server compares names" }
    if key > maxKeyCharacters {
      return
        "is \(key) characters once compared as the server compares names (NFKC writes some characters out in full), more than \(maxKeyCharacters): choose a shorter one"
    }
    return nil
  }
}
