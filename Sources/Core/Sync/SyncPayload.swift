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
  /// Why its payload could not be opened (``RecordSealer/open(_:seq:)``: it fails
  /// authentication, or was never sealed), in words; `payload` is then empty. Such a record is
  /// set aside as unreadable, as one that breaks a cap is (issue 21).
  public var unopened: String?

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
/// `action` is `create` (with `fields`), `update` (with `field` and `value`, and for a todo's
/// `tags` the value before, `old`, absent in records of an older ootd) or `delete`.
/// A todo's `project` and `block` name the linked row by its uuid. The device is the record's;
/// `"from"` (after `command`, absent in records of an older ootd) is that device's name
/// (``DeviceName``): inside the payload, so sealed like the rest, never in clear on the server.
/// `"entry"` (after `ops`) names the journal entry the operations belong to on that device (its
/// uuid; a first sync's, one name-based uuid for all its rows), in each record of an entry of
/// more operations than a record holds (and in every record of a first sync, whose pages are
/// pushed one by one): the machines that pull them make one entry of them again, whether they
/// arrive in one pull or in several (issue 24 §3). A change of one record (what a command
/// typed by hand makes) names none, as records of an older ootd do, and is an entry of its own.
public enum SyncPayload {
  /// The version this ootd writes and reads.
  public static let version = 1

  /// A decoded payload.
  public struct Batch: Hashable, Sendable {
    public var command: String
    public var operations: [SyncOperation]
    /// The name of the device that made them, sanitised; nil when the record has none.
    public var from: String?
    /// The journal entry of that device they belong to (``RowID``); nil when the record names
    /// none (an older ootd's: the record is an entry of its own).
    public var entry: String?
    public init(command: String, operations: [SyncOperation], from: String? = nil, entry: String? = nil) {
      self.command = command
      self.operations = operations
      self.from = from
      self.entry = entry
    }
  }

  /// The JSON text of `operations` (made by one device, named `from`) and the command they came from.
  public static func encode(
    command: String, from: String? = nil, entry: String? = nil, _ operations: [SyncOperation]
  ) -> String {
    var text = head(command, from: from)
    for (index, operation) in operations.enumerated() {
      if index > 0 { text += "," }
      text += encode(operation)
    }
    return text + "]" + String(decoding: named(entry), as: UTF8.self) + "}"
  }

  /// `operations` as the payloads of as few records as the caps allow, in order: each holds at
  /// most ``Caps/operationsPerRecord`` operations and ``Caps/plainPayloadBytes`` bytes, so that
  /// sealed it stays under ``Caps/payloadBytes`` (an operation
  /// is never split: one alone always fits, as every value keeps its cap). Each payload comes
  /// with the range of `operations` it holds; the same operations always split the same way.
  /// `entry` is named in each payload when there are several (`always`: even when one).
  public static func chunks(
    command: String, from: String? = nil, entry: String? = nil, always: Bool = false, _ operations: [SyncOperation]
  ) -> [(payload: String, range: Range<Int>)] {
    var chunker = Chunker(command: command, from: from, entry: entry, always: always)
    for operation in operations { chunker.add(operation) }
    return chunker.finish()
  }

  /// ``chunks(command:from:entry:always:_:)`` built an operation at a time: the same payloads, split by the
  /// same rule, for operations handed over as they are read (a first push's todos are written
  /// from their rows, ``addCreation(_:row:clock:fields:)``, with no ``SyncOperation`` or
  /// ``Fields`` made for each: issue 24). Bytes throughout: one buffer per payload, one for the
  /// operation being added.
  public struct Chunker {
    private let start: [UInt8]
    /// `,"entry":"…"`, or nothing; named in every payload when `always`, else only when the
    /// operations make several.
    private let entry: [UInt8]
    private let always: Bool
    private var text: [UInt8]
    /// The operation being added, written before it is placed (its size decides the payload).
    private var operation: [UInt8] = []
    private var first = 0
    private var count = 0
    private var chunks: [(payload: String, range: Range<Int>)] = []

    public init(command: String, from: String? = nil, entry: String? = nil, always: Bool = false) {
      start = Array(head(command, from: from).utf8)
      self.entry = named(entry)
      self.always = always
      text = start
    }

    /// Adds `operation`.
    public mutating func add(_ operation: SyncOperation) {
      self.operation.removeAll(keepingCapacity: true)
      SyncPayload.encode(operation, to: &self.operation)
      place()
    }

    /// Adds the creation of `row` at `clock` (its device is the record's) whose fields `fields`
    /// appends as the text ``JSONText/object(_:)`` writes for them (an object, sorted by name).
    public mutating func addCreation(
      _ entity: Entity, row: String, clock: Int64, fields: (inout [UInt8]) throws -> Void
    ) rethrows {
      operation.removeAll(keepingCapacity: true)
      try SyncPayload.encodeCreation(entity, row: row, clock: clock, to: &operation, fields: fields)
      place()
    }

    /// The payloads of the operations added, each with the range (of the order they were added
    /// in) it holds.
    /// The chunker is then as new (its next operation is the first of its next payloads).
    public mutating func finish() -> [(payload: String, range: Range<Int>)] {
      if first < count { close(naming: always || !chunks.isEmpty) }
      defer {
        chunks = []
        text = start
        first = 0
        count = 0
      }
      return chunks
    }

    /// The operation just written, in the open payload, or in a new one when it would pass a cap.
    private mutating func place() {
      let held = count - first
      // (Room kept for the entry's name: a payload closed here has more after it.)
      if held > 0,
        held == Caps.operationsPerRecord || text.count + operation.count + 3 + entry.count > Caps.plainPayloadBytes
      {
        close(naming: true)
        text.append(contentsOf: start)
        first = count
      }
      if count > first { text.append(UInt8(ascii: ",")) }
      text.append(contentsOf: operation)
      count += 1
    }

    /// Ends the open payload, naming the entry when `naming`.
    private mutating func close(naming: Bool) {
      text.append(UInt8(ascii: "]"))
      if naming { text.append(contentsOf: entry) }
      text.append(UInt8(ascii: "}"))
      chunks.append((String(decoding: text, as: UTF8.self), first..<count))
      text.removeAll(keepingCapacity: true)
    }
  }

  /// A payload's text up to its first operation.
  private static func head(_ command: String, from: String?) -> String {
    let name = from.flatMap(DeviceName.sanitised).map { ",\"from\":" + JSONText.quoted($0) } ?? ""
    return "{\"v\":\(version),\"command\":\(JSONText.quoted(command))\(name),\"ops\":["
  }

  /// `,"entry":"…"` of `entry` (after a payload's `ops`), or nothing.
  private static func named(_ entry: String?) -> [UInt8] {
    entry.map { Array((",\"entry\":" + JSONText.quoted($0)).utf8) } ?? []
  }

  /// One operation's JSON text.
  private static func encode(_ operation: SyncOperation) -> String {
    var bytes: [UInt8] = []
    encode(operation, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One operation's JSON text, appended to `bytes`.
  private static func encode(_ operation: SyncOperation, to bytes: inout [UInt8]) {
    switch operation.kind {
    case .create(let fields):
      encodeCreation(operation.entity, row: operation.row, clock: operation.stamp.clock, to: &bytes) {
        JSONText.appendObject(fields, to: &$0)
      }
      return
    case .update(let field, let value):
      opening(operation.entity, row: operation.row, to: &bytes)
      bytes.append(contentsOf: "\"action\":\"update\",\"field\":".utf8)
      JSONText.appendQuoted(field, to: &bytes)
      if let old = operation.old {
        bytes.append(contentsOf: ",\"old\":".utf8)
        JSONText.append(old, to: &bytes)
      }
      bytes.append(contentsOf: ",\"value\":".utf8)
      JSONText.append(value, to: &bytes)
      bytes.append(UInt8(ascii: ","))
    case .delete:
      opening(operation.entity, row: operation.row, to: &bytes)
      bytes.append(contentsOf: "\"action\":\"delete\",".utf8)
    }
    closing(clock: operation.stamp.clock, to: &bytes)
  }

  /// A creation's JSON text, its fields' object appended by `fields`.
  private static func encodeCreation(
    _ entity: Entity, row: String, clock: Int64, to bytes: inout [UInt8], fields: (inout [UInt8]) throws -> Void
  ) rethrows {
    opening(entity, row: row, to: &bytes)
    bytes.append(contentsOf: "\"action\":\"create\",\"fields\":".utf8)
    try fields(&bytes)
    bytes.append(UInt8(ascii: ","))
    closing(clock: clock, to: &bytes)
  }

  /// `{"entity":"todo","row":"…",`
  private static func opening(_ entity: Entity, row: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "{\"entity\":\"".utf8)
    bytes.append(contentsOf: entity.rawValue.utf8)
    bytes.append(contentsOf: "\",\"row\":".utf8)
    JSONText.appendQuoted(row, to: &bytes)
    bytes.append(UInt8(ascii: ","))
  }

  /// `"clock":116…}`
  private static func closing(clock: Int64, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "\"clock\":".utf8)
    JSONText.appendInteger(clock, to: &bytes)
    bytes.append(UInt8(ascii: "}"))
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

  /// ``decode(_:device:)`` of the payload's bytes: one pass of Formats' reader
  /// (docs/decisions/json-reader.md) with no tree of the payload made (issue 24: the tree, then
  /// a dictionary of each creation's fields made from it, then a second pass over each
  /// creation's text were most of checking a pulled record). The whole payload is read before
  /// anything is refused, and then in the order a tree would be looked at: what is refused, and
  /// why, is what the tree's reading decided (a key given twice means its last value).
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, device: String) throws -> Batch {
    func bad(_ why: String) -> CoreError { .invalidSyncRecord(why) }
    var reader = JSONReader(reading: bytes)
    var version: JSONValue?
    var command: JSONValue?
    var from: JSONValue?
    var entry: JSONValue?
    // The last `ops` given: its operations when it is an array (each decoded, or why not).
    var ops: [Result<SyncOperation, CoreError>]?
    var isObject = false
    do {
      try reader.beginDocument()
      if reader.next == UInt8(ascii: "{") {
        isObject = true
        var payload = try reader.openObject()
        var layout = Layout()
        while let key = try reader.nextMember(&payload) {
          switch key {
          case "v": version = try reader.readValue()
          case "command": command = try reader.readValue()
          case "from": from = try reader.readValue()
          case "entry": entry = try reader.readValue()
          case "ops":
            guard reader.next == UInt8(ascii: "[") else {
              _ = try reader.readValue()
              ops = nil
              continue
            }
            var list: [Result<SyncOperation, CoreError>] = []
            var array = try reader.openArray()
            while try reader.nextElement(&array) {
              list.append(try operation(&reader, bytes, device: device, layout: &layout))
            }
            ops = list
          default: _ = try reader.readValue()
          }
        }
      } else {
        _ = try reader.readValue()
      }
      try reader.endDocument()
    } catch {
      throw bad("not JSON")
    }
    guard isObject, case .number(let versionText)? = version, let version = Int(versionText) else {
      throw bad("not JSON")
    }
    guard version == Self.version else { throw bad("version \(version); update ootd") }
    guard let ops else { throw bad("no operations") }
    guard ops.count <= Caps.operationsPerRecord else {
      throw bad("more than \(Caps.operationsPerRecord) operations")
    }
    var operations: [SyncOperation] = []
    operations.reserveCapacity(ops.count)
    for op in ops { operations.append(try op.get()) }
    // A name is outside text: sanitised here, whatever the other machine sent.
    // An entry not named by a uuid is none (the record is an entry of its own, as an older ootd's).
    return Batch(
      command: command?.string ?? "", operations: operations, from: from?.string.flatMap(DeviceName.sanitised),
      entry: entry?.string.flatMap { RowID.isValid($0) ? $0 : nil })
  }

  /// The fields of the last creation read whose names came in increasing order: their names
  /// (shared by the next creations of the same names, ``SyncOperation/ordered``), the
  /// dictionary made of them and where each name lies in it. The next creation of the same
  /// names takes the dictionary's layout and sets its values in place: no name is hashed again
  /// (the names of a payload's todos are the same 19; issue 24).
  private struct Layout {
    var names: [String] = []
    var fields = Fields()
    var indices: [Fields.Index] = []
  }

  /// The operation at the reader's cursor, or why it is not one (the reading goes on: a syntax
  /// error further on is the payload's refusal, as a tree's reading would find it first).
  private static func operation(
    _ reader: inout JSONReader, _ bytes: UnsafeBufferPointer<UInt8>, device: String, layout: inout Layout
  ) throws(JSONSyntaxError) -> Result<SyncOperation, CoreError> {
    func bad(_ why: String) -> Result<SyncOperation, CoreError> { .failure(.invalidSyncRecord(why)) }
    let noIdentity = "an operation without entity, row or clock"
    guard reader.next == UInt8(ascii: "{") else {
      _ = try reader.readValue()
      return bad(noIdentity)
    }
    var entity: JSONValue?
    var row: JSONValue?
    var clock: JSONValue?
    var action: JSONValue?
    var field: JSONValue?
    var value: JSONValue?
    var old: JSONValue?
    // The last `fields` given: nil when absent, `.failure` when not an object of field values.
    var fields: Result<CreatedFields, CoreError>?
    var object = try reader.openObject()
    while let key = try reader.nextMember(&object) {
      switch key {
      case "entity": entity = try reader.readValue()
      case "row": row = try reader.readValue()
      case "clock": clock = try reader.readValue()
      case "action": action = try reader.readValue()
      case "field": field = try reader.readValue()
      case "value": value = try reader.readValue()
      case "old": old = try reader.readValue()
      case "fields":
        var read: CreatedFields?
        if reader.next == UInt8(ascii: "{") {
          read = try createdFields(&reader, bytes, layout: &layout)
        } else {
          _ = try reader.readValue()
        }
        fields = read.map { .success($0) } ?? .failure(.invalidSyncRecord("a creation without fields"))
      default: _ = try reader.readValue()
      }
    }
    guard let entity = entity?.string.flatMap(Entity.init(rawValue:)),
      let row = row?.string, RowID.isValid(row),
      case .number(let clockText)? = clock, let clock = Int64(clockText)
    else { return bad(noIdentity) }
    let kind: SyncOperation.Kind
    var created: CreatedFields?
    var before: FieldValue?
    switch action?.string {
    case "create":
      guard case .success(let read)? = fields else { return bad("a creation without fields") }
      kind = .create(read.fields)
      created = read
    case "update":
      guard let field = field?.string, let value = JSONText.fieldValue(value ?? .null)
      else { return bad("an update without field") }
      kind = .update(field: field, value: value)
      // What a field that merges by its changes had before (``SyncMerge/carriesOld(_:_:)``);
      // without it (an older ootd's record), the update merges as one value.
      if SyncMerge.carriesOld(entity, field), let old {
        guard let read = JSONText.fieldValue(old) else { return bad("an update with an unreadable old value") }
        before = read
      }
    case "delete": kind = .delete
    default: return bad("unknown action")
    }
    var operation = SyncOperation(entity, row: row, kind, stamp: Stamp(clock: clock, device: device), old: before)
    if let created {
      operation.fieldsText = created.text
      operation.ordered = created.ordered
    }
    return .success(operation)
  }

  /// A creation's fields as read: the dictionary, the same in name order when the names came
  /// in increasing order, and the object's own text when it is exactly what
  /// ``JSONText/object(_:)`` writes for them (so that the journal keeps it rather than writing
  /// it again): no white space, names in increasing order (each once, ASCII), integers as
  /// `String(_:)` writes them (at most 18 digits), strings without escapes (an escape always
  /// makes a string's text longer than its bytes).
  private struct CreatedFields {
    var fields: Fields
    var ordered: OrderedFields?
    var text: String?
  }

  /// The fields of the object at the reader's cursor, read whole; nil when a member is not a
  /// field value (``JSONText/fieldValue(_:)``). A key given twice means its last value.
  private static func createdFields(
    _ reader: inout JSONReader, _ bytes: UnsafeBufferPointer<UInt8>, layout: inout Layout
  ) throws(JSONSyntaxError) -> CreatedFields? {
    var object = try reader.openObject()
    var names: [String] = []
    var values: [FieldValue] = []
    names.reserveCapacity(layout.names.count)
    values.reserveCapacity(layout.names.count)
    var valid = true
    var increasing = true
    var exact = true
    // Where the text of the previous member ends (just past the `{` before the first).
    var end = object.start + 1
    // (Each key most often the previous creation's at the same place: not made again.)
    while let name = try reader.nextMember(
      &object, expecting: names.count < layout.names.count ? layout.names[names.count] : nil)
    {
      let start = reader.offset
      let read = try reader.readValue()
      guard valid, let value = JSONText.fieldValue(read) else {
        valid = false
        continue
      }
      if increasing, let last = names.last, !(last < name) { increasing = false }
      if exact {
        // `"name":` right after the `{` or the `,`, then the value as written.
        exact =
          increasing && start == end + (names.isEmpty ? 0 : 1) + name.utf8.count + 3
          && name.utf8.allSatisfy { $0 < 0x80 } && isExact(read, bytes: reader.offset - start)
      }
      end = reader.offset
      names.append(name)
      values.append(value)
    }
    guard valid else { return nil }
    let text =
      exact && reader.offset == end + 1
      ? String(decoding: UnsafeBufferPointer(rebasing: bytes[object.start..<reader.offset]), as: UTF8.self) : nil
    guard increasing else {
      var fields = Fields(minimumCapacity: names.count)
      for (name, value) in zip(names, values) { fields[name] = value }
      return CreatedFields(fields: fields, ordered: nil, text: text)
    }
    if names != layout.names {
      var fields = Fields(minimumCapacity: names.count)
      for (name, value) in zip(names, values) { fields[name] = value }
      layout = Layout(names: names, fields: fields, indices: names.map { fields.index(forKey: $0)! })
      return CreatedFields(fields: fields, ordered: OrderedFields(names: names, values: values), text: text)
    }
    // The previous creation's names: its dictionary's layout, these values.
    var fields = layout.fields
    for index in values.indices { fields.values[layout.indices[index]] = values[index] }
    return CreatedFields(fields: fields, ordered: OrderedFields(names: layout.names, values: values), text: text)
  }

  /// Whether a field value read from `count` bytes of text is written so by ``JSONText/object(_:)``:
  /// a string without escapes, an integer of at most 18 digits and not `-0`, null.
  private static func isExact(_ value: JSONValue, bytes count: Int) -> Bool {
    switch value {
    case .null: return true
    case .string(let text): return count == text.utf8.count + 2
    case .number(let text):
      let negative = text.utf8.first == UInt8(ascii: "-")
      let digits = text.utf8.count - (negative ? 1 : 0)
      return digits >= 1 && digits <= 18 && !(negative && text == "-0")
    default: return false
    }
  }
}
