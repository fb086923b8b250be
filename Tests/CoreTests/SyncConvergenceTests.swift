import Core
import Formats
import Testing

/// A small deterministic random generator (SplitMix64), so that each seed replays exactly.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Three machines, each with its own clock (hours apart), its own rows and a queue of changes
/// not yet pushed, and one server (a list of records): a model of `ootd remote sync` built only
/// from Core's merge rules.
struct Replica {
  let device: String
  /// How far this machine's wall clock is from the true time, in milliseconds.
  let skew: Int64
  var clock: Int64 = 0
  var rows: [String: SyncRow] = [:]
  var outbox: [SyncOperation] = []
  var cursor = 0
  var conflicts = 0
  /// The conflicts reported here: row, field, winning and losing stamps.
  var reported: [String] = []

  mutating func local(_ entity: Entity, row: String, _ kind: SyncOperation.Kind, now: Int64, old: FieldValue? = nil) {
    clock = HybridClock.tick(last: clock, milliseconds: now + skew)
    let operation = SyncOperation(entity, row: row, kind, stamp: Stamp(clock: clock, device: device), old: old)
    let outcome = SyncMerge.merge(operation, into: rows[row])
    #expect(outcome.conflicts.isEmpty, "a local change is never a conflict")
    rows[row] = outcome.row
    outbox.append(operation)
  }

  /// Pull (apply every record after the cursor made elsewhere), then push the queue.
  mutating func sync(_ server: inout [SyncOperation]) {
    let pending = Set(outbox.map(\.stamp))
    while cursor < server.count {
      let operation = server[cursor]
      cursor += 1
      guard operation.stamp.device != device else { continue }
      clock = HybridClock.receive(last: clock, remote: operation.stamp.clock)
      let outcome = SyncMerge.merge(operation, into: rows[operation.row], isPending: { pending.contains($0) })
      rows[operation.row] = outcome.row
      conflicts += outcome.conflicts.count
      reported += outcome.conflicts.map { "\($0.row) \($0.field ?? "-") \($0.winner) \($0.loser)" }
    }
    server += outbox
    outbox = []
  }

  var visible: [String: Fields] { rows.compactMapValues(\.visibleFields) }
}

@Suite("Three machines converge")
struct SyncConvergenceTests {
  static let hour: Int64 = 3_600_000

  /// One random history: creations, edits of any field, deletions, undos of deletions (a new
  /// creation), the same routine planned on several machines, and syncs in any order.
  static func history(seed: UInt64, steps: Int) -> ([Replica], [SyncOperation]) {
    var random = SeededGenerator(seed: seed)
    var replicas = [
      Replica(device: "aaaaaaaa-0000-4000-8000-00000000000a", skew: 0),
      Replica(device: "bbbbbbbb-0000-4000-8000-00000000000b", skew: -3 * hour),
      Replica(device: "cccccccc-0000-4000-8000-00000000000c", skew: 5 * hour + 17),
    ]
    var server: [SyncOperation] = []
    var now: Int64 = 1_790_000_000_000
    var made = 0
    for _ in 0..<steps {
      now += Int64.random(in: 0...90_000, using: &random)
      let index = Int.random(in: 0..<3, using: &random)
      var replica = replicas[index]
      let alive = replica.rows.filter { $0.value.isAlive }.keys.sorted()
      let dead = replica.rows.filter { $0.value.existence?.value == false }.keys.sorted()
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<15:
        made += 1
        let row = RowID.nameBased("todo \(made)", namespace: Array("test-namespace-1".utf8))
        replica.local(.todo, row: row, .create(fields(&random)), now: now)
      case 15..<20:
        // The day's routine: every machine makes the same uuid.
        let day = Int.random(in: 0..<3, using: &random)
        let row = RowID.nameBased("routine \(day)", namespace: Array("test-namespace-1".utf8))
        if !alive.contains(row) {
          replica.local(.todo, row: row, .create(["title": .text("Study"), "done": .integer(0), "priority": .integer(0)]), now: now)
        }
      case 20..<55 where !alive.isEmpty:
        let row = alive.randomElement(using: &random)!
        let field = ["title", "done", "priority", "notes"].randomElement(using: &random)!
        replica.local(.todo, row: row, .update(field: field, value: value(field, &random)), now: now)
      case 55..<63 where !alive.isEmpty:
        replica.local(.todo, row: alive.randomElement(using: &random)!, .delete, now: now)
      case 63..<68 where !dead.isEmpty:
        replica.local(.todo, row: dead.randomElement(using: &random)!, .create(fields(&random)), now: now)
      default:
        replica.sync(&server)
      }
      replicas[index] = replica
    }
    // Everyone syncs, then everyone again: the last one's changes reach the first.
    for _ in 0..<2 {
      for index in replicas.indices { replicas[index].sync(&server) }
    }
    return (replicas, server)
  }

  static func fields(_ random: inout SeededGenerator) -> Fields {
    ["title": value("title", &random), "done": value("done", &random), "priority": value("priority", &random)]
  }

  static func value(_ field: String, _ random: inout SeededGenerator) -> FieldValue {
    switch field {
    case "done": return .integer(Int64.random(in: 0...1, using: &random))
    case "priority": return .integer(Int64.random(in: 0...2, using: &random))
    case "notes": return Bool.random(using: &random) ? .null : .text("n\(Int.random(in: 0..<5, using: &random))")
    default: return .text("t\(Int.random(in: 0..<8, using: &random))")
    }
  }

  @Test("any interleaving of syncs converges to the same rows", arguments: Array(UInt64(1)...UInt64(300)))
  func converges(seed: UInt64) {
    let (replicas, server) = Self.history(seed: seed, steps: 120)
    #expect(replicas[0].visible == replicas[1].visible, "seed \(seed)")
    #expect(replicas[1].visible == replicas[2].visible, "seed \(seed)")
    // The same state as merging the server's whole list in any other order: here, reversed.
    var reference: [String: SyncRow] = [:]
    for operation in server.reversed() {
      reference[operation.row] = SyncMerge.merge(operation, into: reference[operation.row]).row
    }
    #expect(reference.compactMapValues(\.visibleFields) == replicas[0].visible, "seed \(seed)")
  }

  @Test("a conflict is reported once, on the machine whose sync resolved it (issue 24)", arguments: Array(UInt64(1)...UInt64(300)))
  func reportedOnce(seed: UInt64) {
    let (replicas, _) = Self.history(seed: seed, steps: 120)
    var seen: [String: String] = [:]
    for replica in replicas {
      for key in replica.reported {
        #expect(seen[key] == nil, "seed \(seed): \(key) reported on \(seen[key] ?? "") and \(replica.device)")
        seen[key] = replica.device
      }
    }
  }

  @Test("the histories are not trivial: rows, deletions and conflicts happen")
  func nonTrivial() {
    var rows = 0
    var conflicts = 0
    var deleted = 0
    for seed in UInt64(1)...UInt64(300) {
      let (replicas, _) = Self.history(seed: seed, steps: 120)
      rows += replicas[0].visible.count
      deleted += replicas[0].rows.values.filter { $0.existence?.value == false }.count
      conflicts += replicas.map(\.conflicts).reduce(0, +)
    }
    #expect(rows > 300)
    #expect(deleted > 100)
    #expect(conflicts > 100)
  }
}
