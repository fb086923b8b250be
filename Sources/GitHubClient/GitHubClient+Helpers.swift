import HTTP
import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GitHubClient {
  // MARK: - Helpers

  /// The error for a final non-success response that the endpoint has no special meaning for.
  func failure(for response: HTTPResponse) -> GitHubError {
    let message = errorMessage(in: response)
    switch response.status {
    case 401: return .unauthorized
    case 403: return .forbidden(message: message)
    default: return .unexpectedStatus(response.status, message: message)
    }
  }

  /// The JSON body's `message`, on one line, shortened, with the token redacted; nil for
  /// non-JSON bodies such as a proxy's HTML error page.
  func errorMessage(in response: HTTPResponse) -> String? {
    guard let body = try? JSONDecoder().decode(ErrorBodyDTO.self, from: response.body),
      let message = body.message
    else { return nil }
    let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingASCIIWhitespace()
    guard !oneLine.isEmpty else { return nil }
    let short = oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
    return redact(short)
  }

  /// Replaces the token wherever it appears as a whole token (not inside a longer run of
  /// letters, digits and `_`), so no message can leak it, and a short token cannot garble one
  /// (`t` made "[redacted]he response body").
  func redact(_ text: String) -> String {
    guard let token = configuration.token, !token.isEmpty else { return text }
    func joins(_ character: Character?) -> Bool {
      guard let character else { return false }
      return character.isLetter || character.isNumber || character == "_"
    }
    var result = ""
    var rest = text[...]
    while let range = rest.firstRange(of: token) {
      let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
      let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
      if joins(before) || joins(after) {
        // Part of a longer word: kept, and the search goes on a character later.
        let next = rest.index(after: range.lowerBound)
        result += rest[..<next]
        rest = rest[next...]
      } else {
        result += rest[..<range.lowerBound] + "[redacted]"
        rest = rest[range.upperBound...]
      }
    }
    return result + rest
  }

  /// Decodes a JSON body. A body whose text is not valid Unicode (a lone UTF-16 surrogate such
  /// as `"\ud800"` in a commit message, bytes that are not UTF-8) is decoded again with that
  /// text replaced by U+FFFD, so one bad message never costs the rest of its page.
  func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, what: String) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: response.body)
    } catch {
      if let repaired = LenientJSON.repaired(response.body),
        let value = try? JSONDecoder().decode(type, from: repaired)
      {
        return value
      }
      throw GitHubError.invalidResponse(
        "\(what) is not the JSON expected (\(Self.summary(of: error)))")
    }
  }

  static func summary(of error: any Error) -> String {
    guard let error = error as? DecodingError else { return "unreadable" }
    switch error {
    case .dataCorrupted(let context), .keyNotFound(_, let context),
      .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        .joined(separator: ".")
      return path.isEmpty ? "malformed JSON" : "bad value at \(path)"
    @unknown default:
      return "unreadable"
    }
  }

  /// `path` on the base URL with a query string written as it is sent (already escaped).
  func url(path: String, rawQuery: String) throws -> URL {
    let text = configuration.baseURL.absoluteString + path + "?" + rawQuery
    guard let url = URL(string: text) else { throw GitHubError.invalidBaseURL(text) }
    return url
  }

  func url(path: String, query: [(String, String)] = []) throws -> URL {
    var text = configuration.baseURL.absoluteString + path
    if !query.isEmpty {
      text +=
        "?"
        + query.map { "\(Self.queryEscape($0.0))=\(Self.queryEscape($0.1))" }
        .joined(separator: "&")
    }
    guard let url = URL(string: text) else { throw GitHubError.invalidBaseURL(text) }
    return url
  }

  static func queryEscape(_ text: String) -> String {
    escape(text, keeping: ",")
  }

  static func pathSegment(_ text: String) -> String {
    escape(text, keeping: "")
  }

  private static func escape(_ text: String, keeping extra: String) -> String {
    var result = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if (byte < 0x80
        && (scalar.properties.isASCIIHexDigit || Character(scalar).isLetter
          || Character(scalar).isNumber))
        || "-._~".unicodeScalars.contains(scalar)
        || extra.unicodeScalars.contains(scalar)
      {
        result.unicodeScalars.append(scalar)
      } else {
        result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return result
  }
}
