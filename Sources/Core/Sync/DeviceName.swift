/// A machine's name as the other machines show it (`ootd log`: `from desktop`): chosen with
/// `ootd remote name NAME`, by default the host name up to its first dot. It travels inside
/// each sealed record (``SyncPayload``), never in clear to the server, and comes back as
/// outside text: every machine passes it through ``sanitised(_:)`` when it is set and again
/// when it is pulled.
public enum DeviceName {
  /// The most characters a name keeps.
  public static let maxCharacters = Caps.nameCharacters

  /// `text` as a name: control and format characters (bidi overrides, zero-width) dropped,
  /// runs of white space made one space, trimmed, cut to ``maxCharacters`` characters; nil when
  /// nothing is left.
  public static func sanitised(_ text: String) -> String? {
    sanitised(text, cappedAt: maxCharacters)
  }

  /// `text` sanitised as ``sanitised(_:)`` does, cut to `cap` characters.
  public static func sanitised(_ text: String, cappedAt cap: Int) -> String? {
    var scalars = String.UnicodeScalarView()
    var space = false
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace || ControlCharacters.isControl(scalar) {
        space = !scalars.isEmpty
        continue
      }
      if scalar.properties.generalCategory == .format { continue }
      if space {
        scalars.append(" ")
        space = false
      }
      scalars.append(scalar)
    }
    let name = String(String(scalars).prefix(cap))
    let trimmed = name.hasSuffix(" ") ? String(name.dropLast()) : name
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The default name of a machine whose host name is `host`: the host name up to its first
  /// dot (`desktop.local` is `desktop`), sanitised; nil when that leaves nothing.
  public static func fromHost(_ host: String) -> String? {
    sanitised(String(host.prefix { $0 != "." }))
  }
}
