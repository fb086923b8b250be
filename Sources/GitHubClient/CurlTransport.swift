import CCurlShim
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The live transport: libcurl, loaded with `dlopen("libcurl.so.4")` the first time it is used.
///
/// The binary does not link libcurl, so commands that never touch the network do not pay for
/// loading it. Redirects are returned, not followed. Each request runs on a Dispatch worker so a
/// blocking transfer never occupies a Swift concurrency thread.
public struct CurlTransport: HTTPTransport {
  /// Seconds allowed to establish the connection.
  public var connectTimeout: Int
  /// Seconds allowed for the whole transfer.
  public var totalTimeout: Int

  /// Creates the live transport with the given timeouts (seconds).
  public init(connectTimeout: Int = 10, totalTimeout: Int = 60) {
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
  }

  /// Performs a GET with libcurl. Throws `HTTPTransportError.unavailable` when libcurl cannot be
  /// loaded and `.network` when the transfer fails.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard request.method == "GET" else {
      throw HTTPTransportError.unsupported("only GET is supported, not \(request.method)")
    }
    let connectTimeout = self.connectTimeout
    let totalTimeout = self.totalTimeout
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result {
            try Self.perform(request, connectTimeout: connectTimeout, totalTimeout: totalTimeout)
          })
      }
    }
  }

  static func perform(_ request: HTTPRequest, connectTimeout: Int, totalTimeout: Int) throws
    -> HTTPResponse
  {
    let lines = request.headers.map { "\($0.name): \($0.value)" }
    var cLines = lines.map { strdup($0) }
    defer { cLines.forEach { free($0) } }
    var response = ootd_curl_response()
    defer { ootd_curl_response_free(&response) }

    let code = cLines.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
        ootd_curl_get(
          request.url.absoluteString, pointers.baseAddress, pointers.count,
          connectTimeout, totalTimeout, &response)
      }
    }
    let message = withUnsafeBytes(of: response.error) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    switch code {
    case OOTD_CURL_OK:
      break
    case OOTD_CURL_UNAVAILABLE:
      throw HTTPTransportError.unavailable(message)
    default:
      throw HTTPTransportError.network(message)
    }
    let rawHeaders =
      response.headers.map {
        String(
          decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self
        )
      } ?? ""
    let body =
      response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
    return HTTPResponse(
      status: response.status, headers: HTTPHeaders(parsingRawBlock: rawHeaders), body: body)
  }
}
