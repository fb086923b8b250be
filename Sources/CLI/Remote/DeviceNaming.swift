import Core
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// This machine's name as the other machines' logs show it (`from desktop`, issue 24 §3): the
/// one `ootd remote name NAME` saved, else the host name up to its first dot (``DeviceName``).
/// Records carry it sealed; the server never has it in clear.
enum DeviceNaming {
  /// The saved name, else the host name's; nil when neither gives a name.
  static func effective(_ environment: AppEnvironment, database: AppDatabase) throws -> (name: String?, saved: Bool) {
    if let saved = try database.settings.remoteSetting(.deviceName) { return (saved, true) }
    return (environment.hostName().flatMap(DeviceName.fromHost), false)
  }

  /// Saves the host name's as this machine's name when none is saved, so that every record
  /// this machine pushes carries the same name (run before a sync pushes).
  static func ensureSaved(_ environment: AppEnvironment, database: AppDatabase) throws {
    let (name, saved) = try effective(environment, database: database)
    if !saved, let name { try database.settings.setRemoteSettings([.deviceName: name]) }
  }
}

extension AppEnvironment {
  /// This machine's host name (`gethostname`), nil when it has none.
  static func systemHostName() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? nil : name
  }
}
