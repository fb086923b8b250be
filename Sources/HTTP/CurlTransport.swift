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
/// blocking transfer never occupies a Swift concurrency thread. Copies of one transport share one
/// libcurl handle: a sync's requests reuse its connection (no new TCP and TLS handshake, no
/// reloading of the CA store per page), one request at a time, as GitHub asks.
public struct CurlTransport: HTTPTransport {
  /// Seconds allowed to establish the connection.
  public var connectTimeout: Int
  /// Seconds allowed for the whole transfer.
  public var totalTimeout: Int
  /// The longest body read, in bytes (32 MiB; a commit page is about 0.3 MiB). A longer one
  /// aborts the transfer with `HTTPTransportError.tooLarge`.
  public var maxBodyBytes: Int
  /// The libcurl to load (a file name or path), or nil for `libcurl.so.4`, then
  /// `libcurl-gnutls.so.4`. Only the first library that loads is used by the process.
  public var library: String?
  /// A file of CA certificates to trust instead of the system's (`CURL_CA_BUNDLE`), or nil.
  public var caBundle: String?
  /// The libcurl handle the requests share.
  let session = Session()

  /// Creates the live transport with the given timeouts (seconds), libcurl and CA bundle.
  public init(
    connectTimeout: Int = 10, totalTimeout: Int = 60, maxBodyBytes: Int = 32 << 20,
    library: String? = nil, caBundle: String? = nil
  ) {
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
    self.maxBodyBytes = max(0, maxBodyBytes)
    self.library = library
    self.caBundle = caBundle
  }

  /// Owns the shim's session (one libcurl handle and its connection cache) for its lifetime.
  final class Session: @unchecked Sendable {
    let pointer = ootd_curl_session_create()
    deinit { ootd_curl_session_destroy(pointer) }
  }

  /// Loads libcurl now, so that a missing library is reported before any work starts.
  ///
  /// - Throws: `HTTPTransportError.unavailable` with a one-line reason, e.g.
  ///   "libcurl.so.4 was not found".
  public func load() throws {
    var error = [CChar](repeating: 0, count: 512)
    guard ootd_curl_load(library, &error, error.count) == OOTD_CURL_OK else {
      throw HTTPTransportError.unavailable(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
  }

  /// The methods this transport sends (an allow-list): GET for reads; PATCH and POST with a
  /// body (GitHub); WebDAV's PROPFIND and REPORT (with an XML body), PUT and DELETE (CalDAV).
  public static let methods: Set<String> = ["GET", "PATCH", "POST", "PROPFIND", "REPORT", "PUT", "DELETE"]

  /// Performs a request with libcurl, once: a failed transfer is never resent here (for a write
  /// it may have been applied). Throws `HTTPTransportError.unavailable` when libcurl cannot be
  /// loaded and `.network` when the transfer fails.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard Self.methods.contains(request.method) else {
      throw HTTPTransportError.unsupported(
        "only \(Self.methods.sorted().joined(separator: ", ")) are supported, not \(request.method)")
    }
    if request.method == "GET", request.body != nil {
      throw HTTPTransportError.unsupported("a GET request has no body")
    }
    let transport = self
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try transport.perform(request) })
      }
    }
  }

  /// Control characters other than tab, which have no place in a header line.
  static func isForbiddenInHeader(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
  }

  func perform(_ request: HTTPRequest) throws -> HTTPResponse {
    // libcurl sends a header line as it is: a CR, LF or NUL in it would end the line and start
    // another header (or cut the value). Such a request is refused, whatever the header.
    for field in request.headers
    where (field.name + field.value).unicodeScalars.contains(where: Self.isForbiddenInHeader) {
      throw HTTPTransportError.unsupported(
        "refusing to send the \(field.name) header: it holds a control character")
    }
    var lines = request.headers.map { "\($0.name): \($0.value)" }
    // libcurl would add `Expect: 100-continue` to a large body and wait for a server that may
    // never answer it (a second lost per request); an empty `Expect:` turns that off.
    if request.body != nil, request.headers["expect"] == nil { lines.append("Expect:") }
    var cLines = lines.map { strdup($0) }
    defer { cLines.forEach { free($0) } }
    var response = ootd_curl_response()
    defer { ootd_curl_response_free(&response) }

    let body = request.body ?? Data()
    let code = cLines.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
        body.withUnsafeBytes { bytes in
          ootd_curl_request(
            library, session.pointer, request.method, request.url.absoluteString,
            pointers.baseAddress, pointers.count,
            bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count,
            connectTimeout, totalTimeout, maxBodyBytes, caBundle, &response)
        }
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
    case OOTD_CURL_TOO_LARGE:
      throw HTTPTransportError.tooLarge(message)
    default:
      throw HTTPTransportError.network(message)
    }
    let rawHeaders =
      response.headers.map {
        String(
          decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self
        )
      } ?? ""
    let responseBody =
      response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
    return HTTPResponse(
      status: response.status, headers: HTTPHeaders(parsingRawBlock: rawHeaders),
      body: responseBody)
  }
}
