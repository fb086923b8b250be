import Core
import Foundation
@testable import Interchange
import Testing

/// The Taskwarrior importer's use of Formats' JSON reader: where an error is, and numbers kept as
/// written.
@Suite struct TaskwarriorJSONTests {
  @Test func theTaskwarriorImportNamesTheLineOfAJSONLinesError() {
    let text = "{\"uuid\":\"a1b2c3d4-0000-4000-8000-000000000001\",\"entry\":\"20240101T000000Z\",\"description\":\"x\"}\n\n{\"uuid\": [}\n"
    #expect(throws: InterchangeError("line 3", "invalid JSON (unexpected '}' at line 3, column 11)")) {
      try Taskwarrior.plan(Data(text.utf8), timeZone: TimeZone(identifier: "UTC")!)
    }
  }

  @Test func epochSecondsAsANumberWithAFraction() throws {
    let text = #"{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","entry":1704067200.9,"description":"x","estimate":2.50,"meta":{"b":[1,"two"],"a":null}}"#
    let todo = try #require(try Taskwarrior.plan(Data(text.utf8), timeZone: TimeZone(identifier: "UTC")!).todos.first)
    #expect(todo.createdAt == Date(timeIntervalSince1970: 1_704_067_200))
    #expect(todo.notes == nil)
    #expect(todo.attributes == ["estimate": "2.50", "meta": #"{"a":null,"b":[1,"two"]}"#])
  }
}
