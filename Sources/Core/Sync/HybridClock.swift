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
}
