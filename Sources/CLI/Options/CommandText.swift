import Core

/// The command line as the change journal records it: without the program name and the global
/// options (`--db`, `--no-color`), each argument quoted as a shell would need it
/// (`add 'Write the README' --priority high`).
enum CommandText {
  static func from(_ arguments: [String]) -> String {
    var words: [String] = []
    var index = arguments.startIndex
    var afterDashes = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if !afterDashes {
        if argument == "--" { afterDashes = true }
        let span = GlobalOptions.globalSpan(argument)
        if span > 0 {
          index += span - 1
          continue
        }
      }
      words.append(quoted(argument))
    }
    return words.concatenated(separator: " ")
  }

  /// `word` as typed in a POSIX shell: bare when it is safe, else in single quotes.
  static func quoted(_ word: String) -> String {
    let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
      scalar.value > 0x7F
        ? !scalar.properties.isWhitespace && scalar.value > 0x9F
        : (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || "-_./:=,+@%^".unicodeScalars.contains(scalar))
    }
    if safe { return word }
    // By hand, not Foundation's replacingOccurrences: on Linux it goes through NSString.
    var quoted = "'"
    for character in word {
      if character == "'" { quoted += "'\\''" } else { quoted.append(character) }
    }
    return quoted + "'"
  }
}
