import Core

// The connecting role's sync key on the server (`ootd.keys`, schema step 5) and where the
// payloads pass through the ``RecordSealer`` (docs/decisions/encryption.md). The server stores
// the key only wrapped; nothing here can unwrap it.

extension RemoteServer {
  /// The connecting role's key record, nil when it has none yet.
  /// The first call after the server was opened answers what the opening statements read
  /// (``openingStatements``), without a round trip.
  public func keyRecord() throws(RemoteError) -> ServerKeyRecord? {
    if let opened = openingKeyRecord {
      openingKeyRecord = nil
      return opened
    }
    let rows = try connection.query(
      "SELECT \(Self.keyColumns) FROM ootd.keys k WHERE k.owner = current_user")
    accountIdentity = rows.rows.first.flatMap { Self.accountIdentity($0, role: connection.role) }
    return rows.rows.first.flatMap(Self.keyRecord)
  }

  /// The record in `row` (``keyColumns``), nil when its key id is NULL (an outer join's nothing).
  static func keyRecord(_ row: [String?]) -> ServerKeyRecord? {
    guard row.count >= 5, let keyID = row[0] else { return nil }
    return ServerKeyRecord(
      keyID: keyID, salt: row[1] ?? "", opsLimit: Int64(row[2] ?? "") ?? -1,
      memLimit: Int64(row[3] ?? "") ?? -1, wrappedKey: row[4] ?? "")
  }

  /// Stores `record` as the role's key unless it has one already; returns the record the server
  /// keeps (the other one when another machine stored its key first).
  public func createKeyRecord(_ record: ServerKeyRecord) throws(RemoteError) -> ServerKeyRecord {
    openingKeyRecord = nil
    try connection.execute(
      """
      INSERT INTO ootd.keys (key_id, salt, ops_limit, mem_limit, wrapped_key)
      VALUES ($1::uuid, $2, $3::bigint, $4::bigint, $5) ON CONFLICT (owner) DO NOTHING
      """, [record.keyID, record.salt, String(record.opsLimit), String(record.memLimit), record.wrappedKey])
    guard let kept = try keyRecord() else { throw .refused("the server did not keep the sync key") }
    return kept
  }

  /// Replaces the role's wrapped key by `record` (the same key id, wrapped anew) when the server
  /// still holds `previous`; false when it changed since (another machine rekeyed first).
  public func replaceKeyRecord(_ previous: ServerKeyRecord, with record: ServerKeyRecord) throws(RemoteError) -> Bool {
    openingKeyRecord = nil
    let rows = try connection.query(
      """
      UPDATE ootd.keys SET salt = $2, ops_limit = $3::bigint, mem_limit = $4::bigint, wrapped_key = $5,
        updated_at = now()
      WHERE owner = current_user AND key_id = $1::uuid AND wrapped_key = $6 RETURNING 1
      """,
      [record.keyID, record.salt, String(record.opsLimit), String(record.memLimit), record.wrappedKey, previous.wrappedKey])
    return !rows.rows.isEmpty
  }

  // MARK: - Sealing

  /// `records` sealed by ``sealer`` (unchanged without one), before they are pushed.
  func sealed(_ records: [SyncRecord]) throws(RemoteError) -> [SyncRecord] {
    guard let sealer else { return records }
    do {
      return try records.map(sealer.seal)
    } catch {
      throw .refused(String(describing: error))
    }
  }

  /// Pulled `rows` opened by ``sealer`` (unchanged without one); one that fails to authenticate
  /// comes back unopened (``SyncRecord/unopened``), to be set aside by the pull.
  func opened(_ rows: [(seq: Int64, record: SyncRecord)]) throws(RemoteError) -> [(seq: Int64, record: SyncRecord)] {
    guard let sealer else { return rows }
    do {
      return try rows.map { row in
        var record = try sealer.open(row.record, seq: row.seq)
        record.traveledBytes = row.record.bytes
        return (seq: row.seq, record: record)
      }
    } catch {
      throw .refused(String(describing: error))
    }
  }
}
