import ArgumentParser
import Core

/// `--priority high|mid|low`, read with Core's own parser.
extension Priority: ExpressibleByArgument {
  public init?(argument: String) {
    guard let priority = try? Priority(parsing: argument) else { return nil }
    self = priority
  }

  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
