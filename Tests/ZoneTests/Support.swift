import Foundation
import Testing

/// Parses an ISO 8601 instant such as `2026-11-22T23:30:00Z` with Foundation, independently of
/// the zone reader under test.
func instant(_ text: String) throws -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime]
  return try #require(formatter.date(from: text), "bad instant literal \(text)")
}
