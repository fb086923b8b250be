import HTTP

/// The live HTTP transport of the network commands (GitHub, CalDAV): libcurl (`OOTD_LIBCURL`
/// names another library file; `CURL_CA_BUNDLE` a file of CA certificates to trust instead of
/// the system's, as for curl and git), loaded at once so that a missing library is one clear
/// error before any work starts. Written once for every client.
enum LiveTransport {
  /// - Parameter timeoutVariable: the variable giving the seconds one request may take
  ///   (default 60), e.g. `OOTD_GITHUB_TIMEOUT`.
  /// - Throws: `HTTPTransportError.unavailable` when libcurl cannot be loaded.
  static func curl(_ environment: AppEnvironment, timeoutVariable: String) throws -> CurlTransport {
    func variable(_ name: String) -> String? {
      environment.variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    let timeout = variable(timeoutVariable).flatMap(Int.init).map { max(1, $0) } ?? 60
    let transport = CurlTransport(
      totalTimeout: timeout, library: variable("OOTD_LIBCURL"), caBundle: variable("CURL_CA_BUNDLE"))
    try transport.load()
    return transport
  }
}
