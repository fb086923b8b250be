import Formats
import Foundation

/// One record as it is stored on the server: an id the server deduplicates on, the device that
/// made it, its latest clock value (``HybridClock/text(_:)``) and the payload
/// (``SyncPayload``). The server never reads the payload.
public struct SyncRecord: Hashable, Sendable {
  public var opID: String
  public var device: String
  public var clock: String
  public var payload: String
  /// The payload's size in bytes when the server withheld it for being larger than
  /// ``Caps/payloadBytes`` (`payload` is then empty); nil when it is here.
  public var withheldBytes: Int?

  public init(opID: String, device: String, clock: String, payload: String, withheldBytes: Int? = nil) {
    self.opID = opID
    self.device = device
    self.clock = clock
    self.payload = payload
    self.withheldBytes = withheldBytes
  }

  /// Its size as it traveled when that differs from its size here (a payload opened after the
  /// pull: the sealed text was longer); nil when it is what ``bytes`` counts.
  public var traveledBytes: Int?

  /// Its size as it traveled: the bytes of its id, device, clock and payload.
  public var bytes: Int {
    traveledBytes ?? opID.utf8.count + device.utf8.count + clock.utf8.count + payload.utf8.count
  }
}

/// The payload of a record: up to ``Caps/operationsPerRecord`` operations of one journal
/// entry, as JSON:
///
/// ```json
/// {"v":1,"command":"done 3","ops":[
///   {"entity":"todo","row":"…","action":"update","field":"done","value":1,"clock":116…}]}
/// ```
///
/// `action` is `create` (with `fields`), `update` (with `field` and `value`) or `delete`.
/// A todo's `project` and `block` name the linked row by its uuid. The device is the record's;
/// `"from"` (after `command`, absent in records of an older ootd) is that device's name
/// (``DeviceName``): inside the payload, so sealed like the rest, never in clear on the server.
public enum SyncPayload {
  /// The version this ootd writes and reads.
  public static let version = 1

  /// A decoded payload.
  public struct Batch: Hashable, Sendable {
    public var command: String
    public var operations: [SyncOperation]
    /// The name of the device that made them, sanitised; nil when the record has none.
    public var from: String?
    public init(command: String, operations: [SyncOperation], from: String? = nil) {
      self.command = command
      self.operations = operations
      self.from = from
    }
  }

  /// The JSON text of `operations` (made by one device, named `from`) and the command they came from.
  public static func encode(command: String, from: String? = nil, _ operations: [SyncOperation]) -> String {
    var text = head(command, from: from)
    for (index, operation) in operations.enumerated() {
      if index > 0 { text += "," }
      text += encode(operation)
    }
    return text + "]}"
  }

  /// `operations` as the payloads of as few records as the caps allow, in order: each holds at
  /// most ``Caps/operationsPerRecord`` operations and ``Caps/plainPayloadBytes`` bytes, so that
  /// sealed it stays under ``Caps/payloadBytes`` (an operation
  /// is never split: one alone always fits, as every value keeps its cap). Each payload comes
  /// with the range of `operations` it holds; the same operations always split the same way.
  public static func chunks(command: String, from: String? = nil, _ operations: [SyncOperation])
    -> [(payload: String, range: Range<Int>)]
  {
    let start = head(command, from: from)
    var chunks: [(payload: String, range: Range<Int>)] = []
    var text = start
    var first = 0
    for (index, operation) in operations.enumerated() {
      let encoded = encode(operation)
      let count = index - first
      if count > 0,
        count == Caps.operationsPerRecord || text.utf8.count + encoded.utf8.count + 3 > Caps.plainPayloadBytes
      {
        chunks.append((text + "]}", first..<index))
        text = start
        first = index
      }
      if index > first { text += "," }
      text += encoded
    }
    if first < operations.count { chunks.append((text + "]}", first..<operations.count)) }
    return chunks
  }

  /// A payload's text up to its first operation.
  private static func head(_ command: String, from: String?) -> String {
    let name = from.flatMap(DeviceName.sanitised).map { ",\"from\":" + JSONText.quoted($0) } ?? ""
    return "{\"v\":\(version),\"command\":\(JSONText.quoted(command))\(name),\"ops\":["
  }

  /// One operation's JSON text.
  private static func encode(_ operation: SyncOperation) -> String {
    var text = "{\"entity\":\"\(operation.entity.rawValue)\",\"row\":\(JSONText.quoted(operation.row)),"
    switch operation.kind {
    case .create(let fields): text += "\"action\":\"create\",\"fields\":\(JSONText.object(fields)),"
    case .update(let field, let value):
      text += "\"action\":\"update\",\"field\":\(JSONText.quoted(field)),\"value\":\(JSONText.value(value)),"
    case .delete: text += "\"action\":\"delete\","
    }
    return text + "\"clock\":\(operation.stamp.clock)}"
  }

  /// The operations of a payload made by `device`; throws ``CoreError`` when it is not one.
  public static func decode(_ payload: String, device: String) throws -> Batch {
    func bad(_ why: String) -> CoreError { .invalidSyncRecord(why) }
    guard payload.utf8.count <= Caps.payloadBytes else {
      throw bad("a payload larger than \(Caps.payloadBytes) bytes")
    }
    var payload = payload
    return try payload.withUTF8 { bytes in try decode(bytes, device: device) }
  }

  /// ``decode(_:device:)`` of the payload's bytes.
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, device: String) throws -> Batch {
    func bad(_ why: String) -> CoreError { .invalidSyncRecord(why) }
    // Formats' reader, as for journal fields (docs/decisions/json-reader.md).
    guard let object = (try? JSONReader.document(bytes))?.object,
      case .number(let versionText)? = object["v"], let version = Int(versionText)
    else { throw bad("not JSON") }
    guard version == Self.version else { throw bad("version \(version); update ootd") }
    let command = object["command"]?.string ?? ""
    guard case .array(let ops)? = object["ops"] else { throw bad("no operations") }
    guard ops.count <= Caps.operationsPerRecord else {
      throw bad("more than \(Caps.operationsPerRecord) operations")
    }
    var operations: [SyncOperation] = []
    operations.reserveCapacity(ops.count)
    for op in ops {
      guard let op = op.object,
        let entity = op["entity"]?.string.flatMap(Entity.init(rawValue:)),
        let row = op["row"]?.string, RowID.isValid(row),
        case .number(let clockText)? = op["clock"], let clock = Int64(clockText)
      else { throw bad("an operation without entity, row or clock") }
      let kind: SyncOperation.Kind
      var fieldsText: String?
      switch op["action"]?.string {
      case "create":
        guard let raw = op["fields"]?.object, let fields = JSONText.fields(raw)
        else { throw bad("a creation without fields") }
        kind = .create(fields)
        // The fields' own text, when it is what the journal would write for them.
        if let range = raw.sourceRange, range.upperBound <= bytes.count {
          let text = UnsafeBufferPointer(rebasing: bytes[range])
          if JSONText.isObjectText(text) { fieldsText = String(decoding: text, as: UTF8.self) }
        }
      case "update":
        guard let field = op["field"]?.string, let value = JSONText.fieldValue(op["value"] ?? .null)
        else { throw bad("an update without field") }
        kind = .update(field: field, value: value)
      case "delete": kind = .delete
      default: throw bad("unknown action")
      }
      var operation = SyncOperation(entity, row: row, kind, stamp: Stamp(clock: clock, device: device))
      operation.fieldsText = fieldsText
      operations.append(operation)
    }
    // A name is outside text: sanitised here, whatever the other machine sent.
    return Batch(command: command, operations: operations, from: object["from"]?.string.flatMap(DeviceName.sanitised))
  }
}
