import GRDB

/// A setting of the PostgreSQL connection this database keeps. Never a password.
public enum RemoteSetting: String, Sendable, CaseIterable {
  /// The libpq URI of the server (`ootd remote set URI`).
  case uri
  /// The name teammates see on boards (`ootd remote set URI --name NAME`).
  case displayName
  /// This machine's name, as the other machines' logs show it (`ootd remote name NAME`;
  /// sanitised, ``Core/DeviceName``). Records carry it sealed.
  case deviceName
}

extension Settings {
  /// A saved remote setting, or nil.
  public func remoteSetting(_ setting: RemoteSetting) throws(StorageError) -> String? {
    try read { db in try KeyValueTable.remoteSettings.value(db, setting.rawValue, as: String.self) }
  }

  /// Saves (or, with nil, forgets) remote settings, all in one transaction.
  public func setRemoteSettings(_ settings: [RemoteSetting: String?]) throws(StorageError) {
    try write { db in
      for (setting, value) in settings.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
        try KeyValueTable.remoteSettings.set(db, setting.rawValue, to: value)
      }
    }
  }
}
