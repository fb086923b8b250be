import Core
import Foundation
import Zone

#if canImport(Glibc)
import Glibc
#endif

/// The user's time zone, read from the system's compiled zones (`/etc/localtime`,
/// `/usr/share/zoneinfo`) as `date` reads them. Foundation's `TimeZone` is only the fallback for a
/// name the system has no file for: creating one loads ICU's zone tables, which cost every command
/// ~0.6 M instructions and ~75 page faults (BENCHMARKS.md).
extension AppEnvironment {
  /// Where the system keeps its compiled zones.
  static let zoneFolder = "/usr/share/zoneinfo"

  /// The zone named by `TZ` (with or without a leading `:`), or given by it as a POSIX rule
  /// (`KST-9`, `EST5EDT,M3.2.0,M11.1.0`, as glibc reads it), else the system's zone. A `TZ` that
  /// is neither (a typo: `Pacific/Honolul`) is said once through `warn` (standard error): the
  /// day is ootd's unit, and a silent fallback puts todos on another day.
  static func userTimeZone(
    _ variables: [String: String], warn: (String) -> Void = { StandardStream.error.write($0 + "\n") }
  ) -> any ZoneRules {
    if let value = variables["TZ"], !value.isEmpty {
      let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
      // A file's path, as glibc takes it (`:/etc/localtime`, `/usr/share/zoneinfo/Asia/Seoul`).
      if name.hasPrefix("/") {
        if name == "/etc/localtime" { return systemTimeZone() }
        let prefix = zoneFolder + "/"
        let identifier = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
        if let bytes = readZoneFile(name), let zone = ZoneInfo(identifier: identifier, tzif: bytes) { return zone }
      }
      if let zone = zone(named: name) { return zone }
      if name == "UTC" { return ZoneInfo.utc }
      let system = systemTimeZone()
      warn(
        "ootd: warning: TZ '\(TerminalText.printable(value))' is no time zone (no zone file, no POSIX rule); "
          + "days follow the system's zone, \(TerminalText.printable(system.identifier))")
      return system
    }
    return systemTimeZone()
  }

  /// The zone `TZ` or `graph --tz` names, in glibc's order: the system's file for it, else a
  /// POSIX rule; ICU's names only after both, since ICU reads `GMT+5` as five hours east where
  /// POSIX (and `date`) read five hours west. Nil: not a zone.
  static func zone(named name: String, folder: String = zoneFolder) -> (any ZoneRules)? {
    if let zone = zoneFile(named: name, folder: folder) { return zone }
    // A leap-second zone (`right/Asia/Seoul`, refused by ZoneInfo) keeps the plain zone's
    // offsets: glibc's count of leap seconds moves a day's end by half a minute, while the
    // fallbacks below (ICU knows no `right/` name) would put it hours off.
    if name.hasPrefix("right/"), let zone = zoneFile(named: String(name.dropFirst("right/".count)), folder: folder) {
      return zone
    }
    if let rule = PosixZoneRule(name) { return ZoneInfo(identifier: name, rule: rule) }
    return TimeZone(identifier: name)
  }

  /// The zone of the system's file for `name`, or nil.
  static func zoneFile(named name: String, folder: String = zoneFolder) -> ZoneInfo? {
    guard isZoneName(name), let bytes = readZoneFile(folder + "/" + name) else { return nil }
    return ZoneInfo(identifier: name, tzif: bytes)
  }

  /// The zone `/etc/localtime` is: its rules from the file, its name from the link's target
  /// (`…/zoneinfo/Asia/Seoul`). Falls back to Foundation's `TimeZone.current` when the file is
  /// not such a link or cannot be read.
  static func systemTimeZone(localtime: String = "/etc/localtime") -> any ZoneRules {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(localtime, &buffer, buffer.count - 1)
    if count > 0 {
      let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let range = target.range(of: "zoneinfo/"), isZoneName(String(target[range.upperBound...])) {
        // The name is printed (`graph`), so only a name a zone file could have is taken.
        let name = String(target[range.upperBound...])
        if let bytes = readZoneFile(localtime), let zone = ZoneInfo(identifier: name, tzif: bytes) {
          return zone
        }
        if let zone = TimeZone(identifier: name) { return zone }
      }
    }
    // A copy rather than a link (as many container images have it): its rules are still the
    // file's, as glibc reads them; Foundation's `TimeZone.current` would take UTC instead. The
    // name comes from Debian's /etc/timezone when it holds one.
    if let bytes = readZoneFile(localtime), let zone = ZoneInfo(identifier: localName(), tzif: bytes) {
      return zone
    }
    return TimeZone.current
  }

  /// The zone name in `file` (Debian's /etc/timezone), else `localtime`.
  static func localName(file: String = "/etc/timezone") -> String {
    let text = readZoneFile(file).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return isZoneName(name) ? name : "localtime"
  }

  /// Whether `name` can name a file below the zone folder: relative, with parts of letters,
  /// digits, `.`, `_`, `+` and `-`, none of them `.` or `..`.
  static func isZoneName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 255 else { return false }
    return name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
      !part.isEmpty && part != "." && part != ".."
        && part.utf8.allSatisfy { byte in
          (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-")
        }
    }
  }

  /// The bytes of a regular file of at most 1 MB (a zone file is a few KB), or nil.
  static func readZoneFile(_ path: String) -> [UInt8]? {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, forever.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= 1 << 20
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var filled = 0
    while filled < bytes.count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if read < 0, errno == EINTR { continue }
      guard read > 0 else { return nil }
      filled += read
    }
    return bytes
  }
}
