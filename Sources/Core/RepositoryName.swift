/// A GitHub repository named `owner/name`, validated the way GitHub names them.
///
/// Owners are 1–39 characters of ASCII letters, digits and single hyphens; repository names are
/// 1–100 characters of ASCII letters, digits, `-`, `_` and `.` (but not `.` or `..`).
public struct RepositoryName: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The account or organisation that owns the repository.
  public let owner: String
  /// The repository's own name.
  public let name: String

  /// Creates a repository name from its two parts, or returns nil when either is invalid.
  public init?(owner: String, name: String) {
    guard Self.isValidOwner(owner), Self.isValidName(name) else { return nil }
    self.owner = owner
    self.name = name
  }

  /// Parses `owner/name`; returns nil for anything else (URLs, extra slashes, bad characters).
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    self.init(owner: String(parts[0]), name: String(parts[1]))
  }

  /// `owner/name`.
  public var description: String { "\(owner)/\(name)" }

  public static func < (lhs: RepositoryName, rhs: RepositoryName) -> Bool {
    lhs.description.lowercased() < rhs.description.lowercased()
  }

  static func isValidOwner(_ owner: String) -> Bool {
    guard (1...39).contains(owner.utf8.count) else { return false }
    guard owner.first != "-", owner.last != "-", !owner.contains("--") else { return false }
    return owner.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "-" }
  }

  static func isValidName(_ name: String) -> Bool {
    guard (1...100).contains(name.utf8.count), name != ".", name != ".." else { return false }
    return name.unicodeScalars.allSatisfy {
      $0.isASCIIAlphanumeric || $0 == "-" || $0 == "_" || $0 == "."
    }
  }
}

extension Unicode.Scalar {
  var isASCIIAlphanumeric: Bool {
    switch value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    default: return false
    }
  }
}
