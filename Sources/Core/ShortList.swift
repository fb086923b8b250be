/// A list echoed in a message or a summary, shortened: the first few items, then how many more.
/// Input can name thousands (ids on a command line, projects an import created); a line that
/// repeats all of them helps nobody.
public enum ShortList {
  /// `a, b, c` when there are at most `limit` items, else the first `limit` and
  /// `and N more`: `1, 2, 3, 4, 5 and 4,695 more`.
  public static func text(_ items: [String], limit: Int = 5) -> String {
    let shown = items.prefix(max(limit, 1)).joined(separator: ", ")
    let more = items.count - min(items.count, max(limit, 1))
    return more > 0 ? "\(shown) and \(more) more" : shown
  }
}
