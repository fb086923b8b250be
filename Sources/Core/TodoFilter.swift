import Foundation

/// Which todos a list asks for. Every field narrows the result.
public struct TodoFilter: Hashable, Sendable {
  /// Which days: one range, or every day.
  public enum Days: Hashable, Sendable {
    /// Every day.
    case all
    /// The days of a range, inclusive.
    case range(DayRange)
    /// No day: the backlog (``Todo/isInBacklog``).
    case backlog
  }

  /// Done or open.
  public enum Status: String, Hashable, Sendable {
    /// Any status.
    case any
    /// Not done yet.
    case open
    /// Done.
    case done
  }

  /// The days to include.
  public var days: Days
  /// Only todos of this project.
  public var project: String?
  /// Only todos of this priority.
  public var priority: Priority?
  /// Only open or only done todos.
  public var status: Status
  /// Only todos whose title contains this text, ignoring case (see ``TodoFilter/matches(title:)``).
  public var text: String?
  /// Only todos with this tag (lowercased, see ``Tag``).
  public var tag: String?

  /// Creates a filter.
  public init(
    days: Days, project: String? = nil, priority: Priority? = nil, status: Status = .any,
    text: String? = nil, tag: String? = nil
  ) {
    self.text = text
    self.tag = tag
    self.days = days
    self.project = project
    self.priority = priority
    self.status = status
  }
}

extension TodoFilter {
  /// The one search rule: `needle` occurs in `title` when both are without case
  /// (``caseless(_:)``: any script, Latin, Greek, Cyrillic, Cherokee; Korean and emoji have no
  /// case and match as written), compared character by character, so composed and decomposed
  /// Hangul match each other. An empty needle matches every title.
  public static func title(_ title: String, contains needle: String) -> Bool {
    needle.isEmpty || caseless(title).contains(caseless(needle))
  }

  /// `text` with case taken out as a search should: lowercased, and where lowercasing alone
  /// keeps two spellings of one word apart, those made one: `ß`, `ẞ` and `SS` are `ss`
  /// (`STRASSE` finds `Straße`), a final `ς` is `σ` (`ΦΟΣ` finds `φος`), `ﬁ` is `fi`, `ſ` is `s`,
  /// and the dot above that lowercasing adds to Turkish `İ` is left out (`istanbul` finds
  /// `İSTANBUL`; `ı` is `i`). That is lowercase, uppercase, lowercase again: the stdlib's full
  /// mappings, scalar by scalar, close to Unicode's full case folding. ASCII is only lowercased.
  public static func caseless(_ text: String) -> String {
    if !text.containsUTF8(where: { $0 >= 0x80 }) { return text.lowercased() }
    // Scripts without case (Hangul, kana, CJK, emoji): every mapping keeps such a scalar, so
    // only ASCII letters change (three passes over each title cost a Hangul search half again).
    // U+0307 takes the whole way: it may be the dot of an `İ` typed decomposed.
    if !text.unicodeScalars.contains(where: { !$0.isASCII && ($0.properties.changesWhenCaseMapped || $0 == "\u{307}") }) {
      return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
    let folded = text.lowercased().uppercased().lowercased()
    guard folded.unicodeScalars.contains("\u{307}") else { return folded }
    var scalars = String.UnicodeScalarView()
    var previous: Unicode.Scalar? = nil
    for scalar in folded.unicodeScalars {
      // Lowercasing writes `İ` as `i` and U+0307: the dot is the capital's, not a letter's.
      if scalar == "\u{307}", previous == "i" { continue }
      scalars.append(scalar)
      previous = scalar
    }
    return String(scalars)
  }

  /// The search key of `text`: without case as ``title(_:contains:)`` takes it
  /// (``caseless(_:)``), then in Unicode canonical decomposition (NFD), so composed and
  /// decomposed Hangul (and accents) are the same bytes. Stored beside each title at write time (`todo.titleFold`), so that SQLite can find
  /// the candidates with `instr` and leave the rule to the few it finds
  /// (docs/decisions/search.md). Whenever the rule matches, the fold of the needle occurs in
  /// the fold of the title; when both folds are ASCII without a carriage return, the converse
  /// holds too.
  public static func fold(_ text: String) -> String {
    let lowered = caseless(text)
    // ASCII is its own decomposition.
    if !lowered.containsUTF8(where: { $0 >= 0x80 }) { return lowered }
    return lowered.decomposedStringWithCanonicalMapping
  }

  /// ``fold(_:)`` of many titles (an import's, a first sync's), remembering the fold of each
  /// non-ASCII scalar met: a title whose every scalar is a starter (canonical combining class
  /// 0) folds scalar by scalar, as ``fold(_:)`` would fold it whole (lowercasing maps each
  /// scalar on its own, and canonical decomposition reorders only the marks that follow a
  /// starter, never across one); any other title is folded by ``fold(_:)`` itself. Each title's
  /// `lowercased()` and decomposition cost ~25,000 instructions, a fifth of an imported todo.
  public struct Folder {
    /// The fold of each non-ASCII scalar met, or nil when titles holding it are folded whole.
    private var pieces: [Unicode.Scalar: String?] = [:]
    /// At most this many scalars are remembered (the rest are folded each time).
    static let remembered = 4_096

    public init() {}

    /// ``TodoFilter/fold(_:)`` of `text`.
    public mutating func fold(_ text: String) -> String {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(text.utf8.count + 8)
      for scalar in text.unicodeScalars {
        if scalar.isASCII {
          let byte = UInt8(scalar.value)
          bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
          continue
        }
        guard let piece = piece(scalar) else { return TodoFilter.fold(text) }
        bytes.append(contentsOf: piece.utf8)
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    /// The fold of `scalar` alone, when a title may be folded piece by piece with it.
    private mutating func piece(_ scalar: Unicode.Scalar) -> String? {
      if let known = pieces[scalar] { return known }
      var piece: String? = nil
      // A final sigma is the one letter whose lowercase could depend on its neighbours.
      if scalar.properties.canonicalCombiningClass == .notReordered, scalar.value != 0x3A3 {
        let folded = TodoFilter.fold(String(scalar))
        if folded.unicodeScalars.first?.properties.canonicalCombiningClass == .notReordered { piece = folded }
      }
      if pieces.count < Self.remembered { pieces[scalar] = .some(piece) }
      return piece
    }
  }

  /// Whether `title` passes this filter's text.
  public func matches(title: String) -> Bool {
    text.map { Self.title(title, contains: $0) } ?? true
  }
}
