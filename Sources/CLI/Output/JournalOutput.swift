import Core
import Foundation

/// How `undo`, `redo` and `log` print journal entries.
struct JournalOutput {
  let environment: AppEnvironment

  init(_ environment: AppEnvironment) { self.environment = environment }

  /// `Undid 'done 12 13': 2 todos open again ('a', 'b')`, or the entry acted on as JSON.
  func printStep(_ step: JournalStep, json: Bool, undo: Bool) throws {
    if json {
      JSONOutput.print(EntryJSON(entry: step.entry, step: step), environment)
      return
    }
    let line = undo
      ? ChangeSummary.undid(step.entry.command, effect: step.effect)
      : ChangeSummary.redid(step.entry.command, effect: step.effect)
    environment.print(TerminalText.printable(line))
    for left in step.leftLines { environment.print(TerminalText.printable(left)) }
    if let note = step.note { environment.print(note) }
  }

  /// The log: a table on a terminal or in a pipe, or a JSON array.
  func printLog(_ entries: [JournalEntry], json: Bool, noColor: Bool) throws {
    if json {
      JSONOutput.print(entries.map(EntryJSON.init), environment)
      return
    }
    let style = environment.style(noColor: noColor)
    guard !entries.isEmpty else {
      environment.print(style.dim("No changes yet: every command that changes data is recorded here."))
      return
    }
    let idWidth = entries.map { String($0.id).count }.max() ?? 1
    for entry in entries {
      let when = localTime(entry.at)
      let undone = entry.isUndone ? "  " + style.dim("(undone)") : ""
      let from = entry.fromDevice.map { "  " + style.cyan(Self.from($0, name: entry.fromDeviceName)) } ?? ""
      environment.print(
        style.dim(DisplayWidth.padLeft(String(entry.id), to: idWidth)) + "  " + style.dim(when) + "  "
          + style.bold(TerminalText.printable(entry.command)) + from + undone)
      environment.print(
        String(repeating: " ", count: idWidth + 2) + TerminalText.printable(entry.summary))
    }
  }

  /// `from desktop`: the machine a pulled change was made on, by its name (sanitised and capped
  /// again: it came from another machine), or by its short device id when its records carry no
  /// name (`from 4fc7664d`).
  static func from(_ device: String, name: String?) -> String {
    "from " + TerminalText.printable(name.flatMap(DeviceName.sanitised) ?? String(device.prefix(8)))
  }

  /// `2026-11-23 09:41` in the user's time zone.
  func localTime(_ date: Date) -> String {
    let day = Day(date, in: environment.timeZone)
    let seconds = Int(date.timeIntervalSince1970) + environment.timeZone.secondsFromGMT(for: date)
    let minutes = ((seconds % 86_400) + 86_400) % 86_400 / 60
    let hh = minutes / 60 < 10 ? "0\(minutes / 60)" : "\(minutes / 60)"
    let mm = minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
    return "\(day) \(hh):\(mm)"
  }

  /// A journal entry: `{"id","at","command","summary","undone"}`, plus `kind`, `target`,
  /// `fromDevice` (the device id of the machine a pulled change was made on; null for a change
  /// made here) and `fromDeviceName` (that machine's name; null when made here or unknown).
  /// The entry an `undo` or `redo` acted on adds what the step left as another device made it
  /// (`left`: `[{"entity","fields","fromDevice","fromDeviceName","kind","line","name","number","uuid"}]`,
  /// `kind` one of `fields`, `kept`, `holding` (a project a kept todo is in), `deleted`, `present`;
  /// the first hundred rows; `leftCount`: all of them) and the ids of the changes it passed over
  /// (`passedOver`: nothing of them was left to undo).
  struct EntryJSON: JSONShape {
    let entry: JournalEntry
    let step: JournalStep?

    init(entry: JournalEntry) {
      self.entry = entry
      step = nil
    }

    init(entry: JournalEntry, step: JournalStep) {
      self.entry = entry
      self.step = step
    }

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("at")
      writer.string(Timestamp.string(entry.at, .iso8601))
      writer.key("command")
      writer.string(entry.command)
      writer.key("fromDevice")
      writer.string(entry.fromDevice)
      writer.key("fromDeviceName")
      writer.string(entry.fromDeviceName)
      writer.key("id")
      writer.integer(entry.id)
      writer.key("kind")
      writer.string(entry.kind.rawValue)
      if let step {
        writer.key("left")
        writer.array(step.left.map(LeftJSON.init))
        writer.key("leftCount")
        writer.integer(step.leftCount)
        writer.key("passedOver")
        writer.beginArray()
        for passed in step.passedOver { writer.integer(passed.id) }
        writer.endArray()
      }
      writer.key("summary")
      writer.string(entry.summary)
      writer.key("target")
      writer.integer(entry.target)
      writer.key("undone")
      writer.bool(entry.isUndone)
      writer.endObject()
    }
  }

  /// A row an undo or redo left as another device made it (``LeftRow``).
  struct LeftJSON: JSONShape {
    let row: LeftRow

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("entity")
      writer.string(row.entity.rawValue)
      writer.key("fields")
      writer.beginArray()
      if case .fields(let fields) = row.kind { for field in fields { writer.string(field) } }
      writer.endArray()
      writer.key("fromDevice")
      writer.string(row.fromDevice)
      writer.key("fromDeviceName")
      writer.string(row.fromDeviceName)
      writer.key("kind")
      switch row.kind {
      case .fields: writer.string("fields")
      case .kept: writer.string("kept")
      case .madeToo: writer.string("madeToo")
      case .holding: writer.string("holding")
      case .deleted: writer.string("deleted")
      case .present: writer.string("present")
      }
      writer.key("line")
      writer.string(row.line)
      writer.key("name")
      writer.string(row.name)
      writer.key("number")
      writer.integer(row.number)
      writer.key("uuid")
      writer.string(row.uuid)
      writer.endObject()
    }
  }
}
