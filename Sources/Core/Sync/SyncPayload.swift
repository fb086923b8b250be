import Foundation

/// One record as it is stored on the server: an id the server deduplicates on, the device that
/// made it, its latest clock value (``HybridClock/text(_:)``) and the payload
/// (``SyncPayload``). The server never reads the payload.
public struct SyncRecord: Hashable, Sendable {
  public var opID: String
  public var device: String
  public var clock: String
  public var payload: String

  public init(opID: String, device: String, clock: String, payload: String) {
    self.opID = opID
    self.device = device
    self.clock = clock
    self.payload = payload
  }
}

/// The payload of a record: up to ``SyncPayload/operationsPerRecord`` operations of one journal
/// entry, as JSON:
///
/// ```json
/// {"v":1,"command":"done 3","ops":[
///   {"entity":"todo","row":"…","action":"update","field":"done","value":1,"clock":116…}]}
/// ```
///
/// `action` is `create` (with `fields`), `update` (with `field` and `value`) or `delete`.
/// A todo's `project` and `block` name the linked row by its uuid. The device is the record's.
public enum SyncPayload {
  /// The version this ootd writes and reads.
  public static let version = 1
  /// How many operations one record carries at most.
  public static let operationsPerRecord = 1000

  /// A decoded payload.
  public struct Batch: Hashable, Sendable {
    public var command: String
    public var operations: [SyncOperation]
    public init(command: String, operations: [SyncOperation]) {
      self.command = command
      self.operations = operations
    }
  }

  /// The JSON text of `operations` (made by one device) and the command they came from.
  public static func encode(command: String, _ operations: [SyncOperation]) -> String {
    var text = "{\"v\":\(version),\"command\":\(JSONText.quoted(command)),\"ops\":["
    for (index, operation) in operations.enumerated() {
      if index > 0 { text += "," }
      text += "{\"entity\":\"\(operation.entity.rawValue)\",\"row\":\(JSONText.quoted(operation.row)),"
      switch operation.kind {
      case .create(let fields): text += "\"action\":\"create\",\"fields\":\(JSONText.object(fields)),"
      case .update(let field, let value):
        text += "\"action\":\"update\",\"field\":\(JSONText.quoted(field)),\"value\":\(JSONText.value(value)),"
      case .delete: text += "\"action\":\"delete\","
      }
      text += "\"clock\":\(operation.stamp.clock)}"
    }
    return text + "]}"
  }

  /// The operations of a payload made by `device`; throws ``CoreError`` when it is not one.
  public static func decode(_ payload: String, device: String) throws -> Batch {
    func bad(_ why: String) -> CoreError { .invalidSyncRecord(why) }
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
      let version = object["v"] as? Int
    else { throw bad("not JSON") }
    guard version == Self.version else { throw bad("version \(version); update ootd") }
    let command = object["command"] as? String ?? ""
    guard let ops = object["ops"] as? [[String: Any]] else { throw bad("no operations") }
    var operations: [SyncOperation] = []
    operations.reserveCapacity(ops.count)
    for op in ops {
      guard
        let entity = (op["entity"] as? String).flatMap(Entity.init(rawValue:)),
        let row = op["row"] as? String, RowID.isValid(row),
        let clock = (op["clock"] as? NSNumber)?.int64Value
      else { throw bad("an operation without entity, row or clock") }
      let kind: SyncOperation.Kind
      switch op["action"] as? String {
      case "create":
        guard let raw = op["fields"] as? [String: Any] else { throw bad("a creation without fields") }
        var fields: Fields = [:]
        for (name, value) in raw {
          guard let value = fieldValue(value) else { throw bad("field \(name)") }
          fields[name] = value
        }
        kind = .create(fields)
      case "update":
        guard let field = op["field"] as? String, let value = fieldValue(op["value"] ?? NSNull())
        else { throw bad("an update without field") }
        kind = .update(field: field, value: value)
      case "delete": kind = .delete
      default: throw bad("unknown action")
      }
      operations.append(SyncOperation(entity, row: row, kind, stamp: Stamp(clock: clock, device: device)))
    }
    return Batch(command: command, operations: operations)
  }

  private static func fieldValue(_ value: Any) -> FieldValue? {
    switch value {
    case is NSNull: return .null
    case let string as String: return .text(string)
    case let number as NSNumber:
      // Booleans and reals never appear in ootd's fields: refuse them rather than guess.
      let integer = number.int64Value
      guard number.doubleValue == Double(integer) else { return nil }
      return .integer(integer)
    default: return nil
    }
  }
}

/// Compact JSON text for journal values, written by hand (fast for 100,000 rows, stable order):
/// the one encoder of the journal's field text and of sync payloads.
public enum JSONText {
  /// `fields` as an object sorted by name: `{"done":1,"title":"x"}`.
  public static func object(_ fields: Fields) -> String {
    // Built as bytes: an import encodes thousands of rows, and small String appends are slow.
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    bytes.reserveCapacity(256)
    for (index, (name, value)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      appendQuoted(name, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      switch value {
      case .null: bytes.append(contentsOf: "null".utf8)
      case .integer(let integer): bytes.append(contentsOf: String(integer).utf8)
      case .text(let string): appendQuoted(string, to: &bytes)
      }
    }
    bytes.append(UInt8(ascii: "}"))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One value: `null`, an integer or a string.
  public static func value(_ value: FieldValue) -> String {
    switch value {
    case .null: return "null"
    case .integer(let integer): return String(integer)
    case .text(let string): return quoted(string)
    }
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendQuoted(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `text` as a JSON string literal, appended to `bytes`; copied whole when nothing needs an
  /// escape.
  private static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    let plain = text.withUTF8 { utf8 in
      guard !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return false }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: utf8)
      bytes.append(UInt8(ascii: "\""))
      return true
    }
    guard !plain else { return }
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
      case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
