/// The journal's clock: a hybrid logical clock packed in one integer.
///
/// The high bits are wall-clock milliseconds, the low ``counterBits`` a counter, so that
/// comparing two values compares (milliseconds, counter). A local event takes
/// `max(now, last + 1)`: the wall time when the machine's clock is ahead of everything seen,
/// else one step past the last value (the counter). Receiving another machine's value moves
/// `last` up to it, so a machine whose clock is hours behind still orders its next change after
/// everything it has seen. Ties between machines are broken by the device id (``Stamp``).
public enum HybridClock {
  /// How many low bits count events within one millisecond.
  public static let counterBits: Int64 = 16

  /// The clock value of wall time `milliseconds` with a zero counter.
  public static func value(milliseconds: Int64) -> Int64 { milliseconds << counterBits }

  /// The wall-clock milliseconds of a clock value.
  public static func milliseconds(_ value: Int64) -> Int64 { value >> counterBits }

  /// The counter of a clock value.
  public static func counter(_ value: Int64) -> Int64 { value & ((1 << counterBits) - 1) }

  /// The value of the next local event after `last`, at wall time `milliseconds`.
  public static func tick(last: Int64, milliseconds: Int64) -> Int64 {
    max(value(milliseconds: milliseconds), advanced(last, by: 1))
  }

  /// `value` moved `steps` on, saturating at `Int64.max`: clock arithmetic never traps, even
  /// on a value no record may carry any more (``Caps/clocks`` refuses them at the door) but a
  /// database may hold from before.
  public static func advanced(_ value: Int64, by steps: Int64) -> Int64 {
    let (sum, overflow) = value.addingReportingOverflow(steps)
    return overflow ? (steps < 0 ? .min : .max) : sum
  }

  /// `last` once a value `remote` from another machine has been seen: never behind it.
  public static func receive(last: Int64, remote: Int64) -> Int64 { max(last, remote) }

  /// How far ahead of the largest wall clock this machine and the server have shown the clock
  /// may be pulled by another machine's values: one minute (issue 24). A machine whose clock
  /// runs fast would otherwise pull every clock it syncs with ahead, and edits made seconds
  /// apart elsewhere would be ordered by the counter of its future instead of by time.
  public static let maxLeadMilliseconds: Int64 = 60_000

  /// The highest value a receive may take the clock to when the largest wall clock seen (this
  /// machine's, the server's) is `milliseconds`.
  public static func ceiling(milliseconds: Int64) -> Int64 {
    value(milliseconds: min(advanced(milliseconds, by: maxLeadMilliseconds), Int64.max >> counterBits))
  }

  /// `last` once `remote` has been seen, never taken past `ceiling` by it (a `last` already
  /// past it stays: the clock never goes back). The remote value itself is kept as it is by
  /// the record that carries it: every machine compares the same stamps.
  public static func receive(last: Int64, remote: Int64, ceiling: Int64) -> Int64 {
    max(last, min(remote, ceiling))
  }

  /// The text form carried by a remote record: decimal, e.g. `"116823984000000005"`.
  public static func text(_ value: Int64) -> String { String(value) }

  /// The value of ``text(_:)``, or nil.
  public static func parse(_ text: String) -> Int64? { Int64(text) }
}

/// When and where a change was made: its clock value, ties broken by the device id. Later
/// stamps win.
public struct Stamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The hybrid clock value.
  public var clock: Int64
  /// The device that made the change.
  public var device: String

  /// Creates a stamp.
  public init(clock: Int64, device: String) {
    self.clock = clock
    self.device = device
  }

  public static func < (a: Stamp, b: Stamp) -> Bool {
    (a.clock, a.device) < (b.clock, b.device)
  }

  public var description: String { "\(clock)@\(device.prefix(8))" }

  /// The stamp of what every database starts with, older than any change: a built-in block as
  /// a fresh database has it (``TaskBlock/builtInSeed(uuid:)``). Never pushed.
  public static let seed = Stamp(clock: 0, device: "")

  /// The stamp of a todo's number `number` as its creation gave it
  /// (``SyncMerge/creationStamp(_:_:_:_:)``): older than any change, and the smaller the
  /// number, the later the stamp, so that of two creations' numbers the smaller one wins.
  public static func number(_ number: Int64) -> Stamp {
    Stamp(clock: number > 0 ? -number : Int64.min, device: "")
  }
}

/// The clocks a sync saw: this machine's (the instant the command runs at) and the server's,
/// read at the same moment (issue 24). The pull caps the hybrid clock with them and says by
/// which rule each conflict was decided.
public struct SyncClocks: Hashable, Sendable {
  /// This machine's wall clock, in milliseconds since 1970.
  public var local: Int64
  /// The server's, at the same moment, in this machine's reckoning of the command's instant
  /// (`local` less the measured skew); nil when it was not read.
  public var server: Int64?

  public init(local: Int64, server: Int64?) {
    self.local = local
    self.server = server
  }

  /// The clocks of a sync at `milliseconds` on a machine `skewMilliseconds` ahead of the server.
  public init(milliseconds: Int64, skewMilliseconds: Int64?) {
    self.init(local: milliseconds, server: skewMilliseconds.map { milliseconds - $0 })
  }

  /// The highest value another machine's change may take this machine's clock to: a minute
  /// past the later of this machine's clock and the server's. Without the server's there is
  /// no cap (`Int64.max`): this machine's clock alone may be the one that is wrong (hours
  /// behind), and capping by it would order its next change before what it has just seen.
  public var ceiling: Int64 {
    guard let server else { return .max }
    return HybridClock.ceiling(milliseconds: max(local, server))
  }

  /// The time changes are judged against: the server's, when read.
  public var reference: Int64 { server ?? local }

  /// How a conflict between the changes stamped `winner` and `loser` was decided, in truth.
  public func rule(winner: Stamp, loser: Stamp) -> SyncConflict.Rule {
    if winner.clock == loser.clock { return .tie }
    if HybridClock.milliseconds(winner.clock) > reference + HybridClock.maxLeadMilliseconds { return .clockAhead }
    return .later
  }
}
