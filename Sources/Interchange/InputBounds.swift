/// The most an import reads. Nothing of an input is held but the record being read, so the caps
/// are per record, where hostile input would cost memory or stack: a line (todo.txt) or one JSON
/// object (Taskwarrior) of at most 1 MiB, a JSON string of at most 512 KiB (the longest field ootd
/// keeps, notes of 100,000 characters, is at most 400 KB of UTF-8), JSON nested at most 32 levels
/// (a Taskwarrior task nests 3). The whole input is capped at 1 GiB: a million tasks of
/// `task export` are ~300 MB, and one import is one transaction, whose write-ahead log holds
/// every page it writes until it commits, so the cap bounds the disk and the time one import
/// takes, not its memory. Each cap stops the reading at the first byte past it: `/dev/zero`
/// fails after 1 MiB read. (Titles are capped by ``Title/maximumLength``, as everywhere else.)
/// Pure: counts in, an ``InterchangeError`` out.
public struct InputBounds: Sendable {
  /// The most bytes an import reads.
  public static let maximumInput = 1 << 30
  /// The most bytes in one line (todo.txt) or one JSON object (Taskwarrior).
  public static let maximumItem = 1 << 20
  /// The most bytes in one JSON string (a field's value or key), as written.
  public static let maximumField = 512 << 10
  /// The deepest JSON nesting an import reads in one record (a task is 1, its annotations' objects 3).
  public static let maximumDepth = 32

  /// The error for an input larger than `cap` bytes (``maximumInput``, lowered only by tests).
  public static func inputTooLarge(_ cap: Int = InputBounds.maximumInput) -> InterchangeError {
    InterchangeError("input", "larger than \(size(cap)), the most an import reads")
  }

  /// `count` bytes as `1 GiB`, `1 MiB`, `512 KiB` (or bytes, for the small caps of tests).
  static func size(_ count: Int) -> String {
    if count >= 1 << 30, count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
    if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
  }

  private let maximumInput: Int
  /// Bytes read so far.
  public private(set) var total = 0

  /// Bounds of the whole input (the cap is only lowered by tests).
  public init(maximumInput: Int = InputBounds.maximumInput) {
    self.maximumInput = maximumInput
  }

  /// Counts the next `count` bytes of the input; throws once the input passes the input cap.
  public mutating func count(_ count: Int) throws(InterchangeError) {
    total += count
    if total > maximumInput { throw Self.inputTooLarge(maximumInput) }
  }
}
