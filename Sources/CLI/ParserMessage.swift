import ArgumentParser
import Core

/// Argument-parser's own error messages, said in ootd's one-line lowercase style, and the
/// unknown-command error with its nearest suggestion.
enum ParserMessage {
  /// Words users reach for that ootd spells differently: what each one means here.
  static let synonyms: [String: String] = [
    "delete": "rm", "del": "rm", "new": "add", "create": "add", "complete": "done",
    "finish": "done", "check": "done", "reopen": "undone", "find": "search", "grep": "search",
    "version": "--version", "status": "today", "stats": "report", "sweep": "carry",
  ]

  /// `unknown command 'x'` (with `; did you mean 'y'?` when a command is near) when the first
  /// word of `arguments` (global options already moved behind it) is not an option and names
  /// no command; nil otherwise.
  ///
  /// The same holds one level down, in a group of commands (`import`, `block`):
  /// `ootd import bogus x --db F` is `unknown command 'import bogus'`, not what argument-parser
  /// says of the group's leftover words (`unknown option '--db'`, `2 unexpected arguments`).
  static func unknownCommand(_ arguments: [String]) -> String? {
    var group: [String] = []
    var commands = Ootd.configuration.subcommands
    // The top level's default (`today`) takes no word: a first word is always a command.
    var defaultCommand: (any ParsableCommand.Type)? = nil
    for word in arguments {
      guard !word.hasPrefix("-") else { return nil }
      var names = group.isEmpty ? ["help"] : []
      var named: (any ParsableCommand.Type)?
      for command in commands {
        let configuration = command.configuration
        let own = [configuration.commandName ?? ""] + configuration.aliases
        if own.contains(word) { named = command }
        names += own
      }
      guard let named else {
        if group.isEmpty, names.contains(word) { return nil }  // `help`
        // A group's default command (`block` is `block list`) may take the word itself.
        if let fallback = defaultCommand, (try? fallback.parse([word])) != nil { return nil }
        let suggestion =
          (group.isEmpty ? synonyms[word.lowercased()] : nil) ?? NearestName.nearest(to: word, among: names)
        let printable = TerminalText.printable((group + [word]).joined(separator: " "))
        let help = (["ootd"] + group + ["--help"]).joined(separator: " ")
        guard let suggestion else { return "unknown command '\(printable)': see '\(help)'" }
        return "unknown command '\(printable)'; did you mean '\((group + [suggestion]).joined(separator: " "))'?"
      }
      // A command with arguments of its own reads the rest.
      let configuration = named.configuration
      guard !configuration.subcommands.isEmpty else { return nil }
      group.append(word)
      commands = configuration.subcommands
      defaultCommand = configuration.defaultSubcommand
    }
    return nil
  }

  /// `message`, one of argument-parser's, in ootd's words:
  /// - `The value 'urgent' is invalid for '--priority <priority>'. Please provide one of 'high',
  ///   'mid' and 'low'.` → `invalid priority 'urgent': use high, mid or low`
  /// - `Missing value for '--days <days>'` → `--days needs a value`, and when the next word
  ///   looks like a negative number, that it was read as an option;
  /// - anything else: its first letter lowercased, without the closing full stop.
  static func ootdStyle(_ message: String, arguments: [String]) -> String {
    let line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
    if let invalid = invalidValue(line) { return invalid }
    if line.hasPrefix("Missing value for '"), let option = quoted(line, after: "Missing value for ") {
      let name = option.split(separator: " ").first.map(String.init) ?? option
      var text = "\(name) needs a value"
      if let index = arguments.firstIndex(of: name), index + 1 < arguments.count {
        let next = TerminalText.printable(arguments[index + 1])
        if next.hasPrefix("-"), Int(next) != nil {
          text += " ('\(next)' reads as an option; a negative number is not accepted)"
        } else if isPastOffset(next) {
          text += " ('\(next)' reads as an option; write \(name)=\(next))"
        }
      }
      return text
    }
    // `ootd show -1`: a negative id reads as an option, and the id as missing.
    if line.hasPrefix("Missing expected argument '<id"),
      let negative = arguments.first(where: { $0.hasPrefix("-") && Int($0) != nil })
    {
      return "invalid todo id '\(TerminalText.printable(negative))': ids are whole numbers from 1 (or a uuid prefix)"
    }
    // `ootd list -2d`: a day offset in a positional place reads as an option too.
    if line.hasPrefix("Unknown option '"), let option = quoted(line, after: "Unknown option "),
      isPastOffset(option)
    {
      return "'\(option)' reads as an option: put '--' before it ('-- \(option)') or give a date"
    }
    var text = line
    if text.hasSuffix(".") { text.removeLast() }
    if let first = text.first, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) {
      text = first.lowercased() + text.dropFirst()
    }
    return text
  }

  /// The invalid-value message in ootd's words, or nil when `line` is not one.
  private static func invalidValue(_ line: String) -> String? {
    guard line.hasPrefix("The value '"), let value = quoted(line, after: "The value "),
      let option = quoted(line, after: "is invalid for ")
    else { return nil }
    let name = (option.split(separator: " ").first.map(String.init) ?? option)
      .trimmingPrefix(while: { $0 == "-" })
    // A todo id, said as `edit` (which reads its ids itself) says it.
    var text = "invalid \(name == "<id>" ? "todo id" : name) '\(value)'"
    if let range = line.range(of: "Please provide one of ") {
      let choices = line[range.upperBound...].split(separator: "'", omittingEmptySubsequences: false)
        .enumerated()
        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
      if choices.count > 1 {
        text += ": use " + choices.dropLast().joined(separator: ", ") + " or " + choices.last!
      }
    } else if let colon = line.range(of: "': ") {
      var reason = String(line[colon.upperBound...])
      if reason.hasSuffix(".") { reason.removeLast() }
      text += ": " + reason
    }
    return text
  }

  /// `-2d`, `-1w`: a day offset before today, which argument-parser reads as an option.
  private static func isPastOffset(_ text: String) -> Bool {
    guard text.count >= 3, text.hasPrefix("-"), let unit = text.last, unit == "d" || unit == "w" else {
      return false
    }
    return text.dropFirst().dropLast().allSatisfy(\.isASCII) && Int(text.dropFirst().dropLast()) != nil
  }

  /// The text between the single quotes that follow `prefix` in `line`.
  private static func quoted(_ line: String, after prefix: String) -> String? {
    guard let start = line.range(of: prefix + "'") else { return nil }
    let rest = line[start.upperBound...]
    guard let end = rest.firstIndex(of: "'") else { return nil }
    return String(rest[..<end])
  }
}
