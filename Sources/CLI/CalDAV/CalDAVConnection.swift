import Core
import Foundation

#if canImport(CalDAV)
import CalDAV
import HTTP
#endif

extension CalDAVAccess {
  /// The client for the collection at `url`, with Basic credentials (sent to that origin only)
  /// and TLS checked against `CURL_CA_BUNDLE` when set, else the system's CAs (``LiveTransport``).
  static func collection(_ environment: AppEnvironment, url: URL, user: String?, password: String?) throws -> any CalendarCollection {
    if let collection = environment.calDAVCollection { return collection }
    #if canImport(CalDAV)
    let transport: CurlTransport
    do {
      transport = try LiveTransport.curl(environment, timeoutVariable: "OOTD_CALDAV_TIMEOUT")
    } catch {
      throw CLIError.calDAVFailed("\(error)")
    }
    do {
      return try CalDAVClient(collectionURL: url, user: user, password: password, transport: transport)
    } catch {
      throw CLIError.invalidValue(error.description)
    }
    #else
    throw CLIError.calDAVFailed("this ootd was built without its CalDAV client")
    #endif
  }
}
