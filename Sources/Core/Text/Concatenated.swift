extension Array where Element == String {
  /// The strings one after the other, `separator` between each two: `joined(separator:)`'s
  /// answer, without the standard library's generic entry point, whose first call in a process
  /// resolves an associated type by a scan of the binary's conformance records (0.3 M
  /// instructions, a twentieth of `ootd list`; issue 25). For the commands' hot paths.
  public func concatenated(separator: String = "") -> String {
    var text = ""
    var first = true
    for element in self {
      if first { first = false } else { text += separator }
      text += element
    }
    return text
  }
}
