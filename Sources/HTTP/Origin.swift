#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a credential may go: the rules every client of this module shares (GitHub's token,
/// a CalDAV password). Written once here.
public enum Origin {
  /// True for `localhost`, `::1` and IPv4 addresses in 127.0.0.0/8.
  public static func isLoopback(host rawHost: String) -> Bool {
    var host = rawHost.lowercased()
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host == "localhost" || host == "localhost." || host == "::1" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets[0] == "127" else { return false }
    return octets.allSatisfy { part in
      !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
    }
  }

  /// True when a request may be sent to `url` at all: https, or plain http to a loopback host
  /// (anything else would carry a credential in clear text).
  public static func isAllowedTarget(_ url: URL) -> Bool {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let host = components.host, !host.isEmpty, let scheme = components.scheme?.lowercased()
    else { return false }
    return scheme == "https" || (scheme == "http" && isLoopback(host: host))
  }

  /// True when `a` and `b` have the same scheme, host and port (the default port counted), so
  /// a credential meant for one may be sent to the other.
  public static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
    guard let a = URLComponents(url: a, resolvingAgainstBaseURL: false),
      let b = URLComponents(url: b, resolvingAgainstBaseURL: false)
    else { return false }
    return a.scheme?.lowercased() == b.scheme?.lowercased()
      && a.host?.lowercased() == b.host?.lowercased()
      && effectivePort(a) == effectivePort(b)
  }

  private static func effectivePort(_ components: URLComponents) -> Int? {
    if let port = components.port { return port }
    switch components.scheme?.lowercased() {
    case "https": return 443
    case "http": return 80
    default: return nil
    }
  }
}
