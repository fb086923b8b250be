/// Why an import file cannot be read: where (`line 3`, `object 2`) and what is wrong. One line.
public struct InterchangeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The place in the input, e.g. `line 3` or `object 2`.
  public let location: String
  /// What is wrong there.
  public let problem: String

  /// Creates an error.
  public init(_ location: String, _ problem: String) {
    self.location = location
    self.problem = problem
  }

  public var description: String { "\(location): \(problem)" }
}
