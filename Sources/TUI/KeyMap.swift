/// What a key does in the list (not while a line is edited, where keys are text).
public enum Action: String, CaseIterable, Sendable {
  case down, up, previousDay = "previous-day", nextDay = "next-day", today
  case toggleDone = "toggle-done", high, mid, low
  case moveNext = "move-next", movePrevious = "move-previous", drop, delete, carry
  case undo, redo, add, block, edit, notes, goTo = "go-to", mark, filter
  case nextTab = "next-tab", previousTab = "previous-tab", help, quit

  /// One line of the help screen (27 columns at most: two columns fit 80).
  public var help: String {
    switch self {
    case .down: return "next todo"
    case .up: return "previous todo"
    case .previousDay: return "previous day"
    case .nextDay: return "next day"
    case .today: return "back to today"
    case .toggleDone: return "tick / untick"
    case .high: return "priority high"
    case .mid: return "priority mid"
    case .low: return "priority low"
    case .moveNext: return "move to the next day"
    case .movePrevious: return "move to the previous day"
    case .drop: return "drop (give up)"
    case .delete: return "delete (asks y/n)"
    case .carry: return "carry the overdue to today"
    case .undo: return "undo the last change"
    case .redo: return "redo"
    case .add: return "add: Title +tag -p high"
    case .block: return "add from a task block"
    case .edit: return "edit the title"
    case .notes: return "edit the notes"
    case .goTo: return "go to a day (fri, +3d…)"
    case .mark: return "mark (then act on all)"
    case .filter: return "filter: title +tag @project"
    case .nextTab: return "next tab"
    case .previousTab: return "previous tab"
    case .help: return "this help"
    case .quit: return "quit"
    }
  }
}

/// Which key does what: the defaults, changed by the key file (``KeyFile``).
public struct KeyMap: Sendable, Equatable {
  public private(set) var actions: [Key: Action]

  public static let standard = KeyMap(actions: [
    .character("j"): .down, .down: .down, .character("k"): .up, .up: .up,
    .character("h"): .previousDay, .left: .previousDay, .character("l"): .nextDay, .right: .nextDay,
    .character("T"): .today, .character(" "): .toggleDone, .character("x"): .toggleDone,
    .character("1"): .high, .character("2"): .mid, .character("3"): .low,
    .character(">"): .moveNext, .character("<"): .movePrevious, .character("d"): .drop,
    .character("D"): .delete, .character("c"): .carry, .character("u"): .undo,
    .character("U"): .redo, .control("r"): .redo, .character("a"): .add, .character("b"): .block, .character("e"): .edit,
    .character("n"): .notes, .character("g"): .goTo,
    .character("v"): .mark, .character("/"): .filter, .character("?"): .help,
    .character("q"): .quit, .control("c"): .quit, .tab: .nextTab, .backTab: .previousTab,
  ])

  public init(actions: [Key: Action]) { self.actions = actions }

  public func action(for key: Key) -> Action? { actions[key] }

  /// The keys of `action`: characters first (the key a hint names), then named keys, each
  /// sorted by name (the help screen's column).
  public func keys(for action: Action) -> [Key] {
    func rank(_ key: Key) -> Int {
      if case .character(let character) = key, character != " " { return 0 }
      return 1
    }
    return actions.filter { $0.value == action }.map(\.key).sorted {
      (rank($0), $0.description) < (rank($1), $1.description)
    }
  }

  /// Binds `action` to exactly `keys`: its other keys are freed, and a key another action had
  /// now does `action`. Ctrl-C always quits (a way out whatever the file says).
  public mutating func bind(_ action: Action, to keys: [Key]) {
    actions = actions.filter { $0.value != action }
    for key in keys { actions[key] = action }
    actions[.control("c")] = .quit
  }
}

/// The key file, `$XDG_CONFIG_HOME/ootd/tui.toml`: a small subset of TOML (docs/decisions/tui-keys.md).
///
///     # ootd tui keys (Colemak)
///     [keys]
///     down = "n"
///     up = ["e", "up"]
///
/// Comments, blank lines, the one `[keys]` table, and `action = "key"` or `action = ["key", …]`
/// with basic strings. Anything else is refused with its line number: a key file that silently
/// does nothing is worse than one that says what is wrong.
public enum KeyFile {
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let reason: String
    public var description: String { "line \(line): \(reason)" }
  }

  public static func read(_ text: String, onto base: KeyMap = .standard) throws(Failure) -> KeyMap {
    var map = base
    var table: String? = nil
    var bound: [Action: Int] = [:]
    // A file saved on Windows: "\r\n" is one Character in Swift, so lines end at either; a
    // byte-order mark at the start is no text.
    let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    let lines = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (offset, raw) in lines.enumerated() {
      let number = offset + 1
      let line = stripComment(String(raw)).trimmingCharacters(in: " \t\r")
      if line.isEmpty { continue }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]") else { throw Failure(line: number, reason: "a table header ends with ]") }
        let name = String(line.dropFirst().dropLast()).trimmingCharacters(in: " \t")
        guard name == "keys" else {
          throw Failure(line: number, reason: "unknown table [\(name)]: the file has one table, [keys]")
        }
        table = name
        continue
      }
      guard table == "keys" else { throw Failure(line: number, reason: "key bindings go under [keys]") }
      guard let equals = line.firstIndex(of: "=") else {
        throw Failure(line: number, reason: "expected action = \"key\"")
      }
      let name = line[..<equals].trimmingCharacters(in: " \t").trimmingCharacters(in: "\"")
      guard let action = Action(rawValue: name) else {
        let known = Action.allCases.map(\.rawValue).joined(separator: ", ")
        throw Failure(line: number, reason: "unknown action '\(name)' (known: \(known))")
      }
      if let first = bound[action] {
        // TOML refuses a key defined twice; the reader did not, and the last one silently won.
        throw Failure(line: number, reason: "'\(name)' is bound already on line \(first): give its keys once, [\"a\", \"b\"]")
      }
      bound[action] = number
      let value = line[line.index(after: equals)...].trimmingCharacters(in: " \t")
      let names = try strings(value, line: number)
      var keys: [Key] = []
      for keyName in names {
        guard let key = Key(name: keyName) else {
          throw Failure(
            line: number,
            reason: "unknown key '\(keyName)' (one character, or space, enter, esc, tab, shift-tab, backspace, up, down, left, right, ctrl-a…ctrl-z)")
        }
        // Keys the TUI reads before the key map: bound to an action they would never do it.
        if key == .control("c") && action != .quit || key == .control("z") || key == .escape {
          throw Failure(
            line: number,
            reason: "'\(keyName)' cannot be bound: \(key == .escape ? "esc clears the filter and the marks" : key == .control("z") ? "ctrl-z suspends" : "ctrl-c always quits")")
        }
        keys.append(key)
      }
      map.bind(action, to: keys)
    }
    return map
  }

  /// `"j"` or `["j", "down"]`: the strings.
  private static func strings(_ value: String, line: Int) throws(Failure) -> [String] {
    var rest = Substring(value)
    let isArray = rest.hasPrefix("[")
    if isArray {
      guard rest.hasSuffix("]") else { throw Failure(line: line, reason: "an array ends with ]") }
      rest = rest.dropFirst().dropLast()
    }
    var found: [String] = []
    while true {
      rest = rest.drop { $0 == " " || $0 == "\t" }
      if rest.isEmpty { break }
      guard rest.first == "\"" else { throw Failure(line: line, reason: "a key is a string in double quotes") }
      rest = rest.dropFirst()
      var text = ""
      var closed = false
      while let character = rest.first {
        rest = rest.dropFirst()
        if character == "\\" {
          guard let escaped = rest.first else { break }
          rest = rest.dropFirst()
          switch escaped {
          case "\"": text.append("\"")
          case "\\": text.append("\\")
          case "t": text.append("\t")
          default: throw Failure(line: line, reason: "unknown escape \\\(escaped)")
          }
        } else if character == "\"" {
          closed = true
          break
        } else {
          text.append(character)
        }
      }
      guard closed else { throw Failure(line: line, reason: "a string ends with \"") }
      found.append(text)
      rest = rest.drop { $0 == " " || $0 == "\t" }
      if rest.first == "," {
        guard isArray else { throw Failure(line: line, reason: "several keys go in [\"a\", \"b\"]") }
        rest = rest.dropFirst()
      } else if !rest.isEmpty {
        throw Failure(line: line, reason: "unexpected text after the key")
      }
    }
    if found.isEmpty { throw Failure(line: line, reason: "give at least one key") }
    return found
  }

  /// `line` without a `#` comment (a `#` inside a string stays).
  private static func stripComment(_ line: String) -> String {
    var inString = false
    var escaped = false
    var result = ""
    for character in line {
      if inString {
        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
      } else if character == "#" {
        break
      } else if character == "\"" {
        inString = true
      }
      result.append(character)
    }
    return result
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    let characters = Set(set)
    var slice = Substring(self)
    while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
