import ArgumentParser
import Core
import Foundation
import Interchange
import Storage

#if canImport(Glibc)
import Glibc
#endif

extension Ootd {
  /// `ootd import`: brings todos in from Taskwarrior or todo.txt, as one undoable change.
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Bring todos in from Taskwarrior or todo.txt (one change: 'ootd undo' takes it back).",
      discussion: """
        Importing the same file again changes nothing; a newer export updates what changed \
        (Taskwarrior by uuid, todo.txt by ootd:UUID, else the line's creation date and text) and \
        adds what is new; what ootd exported comes back unchanged. \
        Missing projects are created. Malformed input changes nothing and names the line or object.
        An import reads the input as it comes, at most \(InputBounds.maximumInput >> 30) GiB, a \
        line (todo.txt) or an object (Taskwarrior) of at most \(InputBounds.maximumItem >> 20) MiB, \
        a JSON string of at most \(InputBounds.maximumField >> 10) KiB nested at most \
        \(InputBounds.maximumDepth) levels, and titles of at most \(Title.maximumLength) \
        characters: past a cap it stops at once, exits 64 with one line naming the cap and where, \
        and changes nothing.

        Examples:
          task export | ootd import taskwarrior -
          ootd import todotxt ~/todo.txt --dry-run
          ootd import todotxt done.txt --json
        """,
      subcommands: [TaskwarriorImport.self, TodoTxtImport.self])

    /// The options both formats share.
    struct Options: ParsableArguments {
      @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"))
      var file: String = "-"

      @Flag(name: .long, help: "Show what would be imported without changing anything.")
      var dryRun = false

      @OptionGroup var output: JSONOption
      @OptionGroup var global: GlobalOptions

      /// The file (standard input for `-`), opened and checked before the database is: exit 1
      /// when it cannot be read, 64 for a regular file past ``InputBounds/maximumInput``; a pipe
      /// is copied first (``ImportSpool``), and refused as soon as it passes the cap.
      func input(_ environment: AppEnvironment) throws -> ImportInput {
        var cap = InputBounds.maximumInput
        #if DEBUG
        cap = AppEnvironment.debugImportCap(environment.variables) ?? cap
        #endif
        return try ImportInput(
          file == "-" ? nil : file.hasPrefix("/") ? file : environment.currentDirectory + "/" + file, name: file,
          maximumInput: cap,
          spoolFolders: ImportSpool.folders(database: try? environment.databasePath(option: global.db), environment))
      }

      /// Imports (or, with `--dry-run`, counts) what `parse` hands to the writer as it reads the
      /// input, as one change, and prints what happened. Malformed input changes nothing.
      func importing(
        _ environment: AppEnvironment, from input: ImportInput, _ parse: (inout ImportWriter) throws -> Void
      ) throws {
        let database = try global.openDatabase(environment)
        let result: ImportResult
        do {
          result = try database.importTodos(
            dryRun: dryRun, today: environment.today, now: environment.now, size: input.items(taken:), parse)
        } catch let error as InterchangeError {
          throw CLIError.invalidValue(error.description)
        }
        if output.json {
          JSONOutput.print(ImportJSON(result: result, dryRun: dryRun), environment)
          return
        }
        environment.print(ImportSummary.text(result, dryRun: dryRun))
      }
    }
  }
}

/// An import's input, read a chunk of 64 KiB at a time and handed on as it arrives: nothing of
/// it is held (``Taskwarrior/Reader``, ``LineItems``). An input past
/// ``InputBounds/maximumInput`` exits 64 at the first byte past the cap, as do the per-record
/// caps the readers check: a regular file past it before a byte is read, a pipe (which tells no
/// length) while it is copied to a private file (``ImportSpool``), before the database is
/// opened; the import then reads the copy as a regular file. A terminal or another character
/// device is read as it comes (`/dev/zero` stops at the first record's cap).
final class ImportInput {
  private var descriptor: Int32
  private var ownsDescriptor: Bool
  private let name: String
  /// The most bytes read (``InputBounds/maximumInput``; lowered only by tests).
  private let maximumInput: Int
  /// The input's length in bytes when it is a regular file (or a pipe's copy), else nil.
  private var size: Int?
  /// The bytes read so far.
  private var bytesRead = 0

  /// Opens `path` (standard input when nil); `name` is the file as typed. A pipe is copied to
  /// the first of `spoolFolders` that takes a private file.
  init(_ path: String?, name: String, maximumInput: Int = InputBounds.maximumInput, spoolFolders: [String]) throws {
    self.name = name
    self.maximumInput = maximumInput
    let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) } ?? STDIN_FILENO
    guard descriptor >= 0 else {
      let reason = errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : String(cString: strerror(errno))
      throw CLIError.cannotRead(path: name, reason: reason)
    }
    self.descriptor = descriptor
    ownsDescriptor = path != nil
    var status = stat()
    if fstat(descriptor, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFDIR: throw CLIError.cannotRead(path: name, reason: "it is a folder")
      case S_IFREG:
        // Its size is known: one past the cap is refused before a byte is read.
        if status.st_size > maximumInput {
          throw CLIError.invalidValue(InputBounds.inputTooLarge(maximumInput).description)
        }
        size = Int(status.st_size)
      case S_IFIFO, S_IFSOCK:
        var bounds = InputBounds(maximumInput: maximumInput)
        let copy = try ImportSpool.copy(descriptor, name: name, within: &bounds, folders: spoolFolders)
        if ownsDescriptor { close(descriptor) }
        self.descriptor = copy.descriptor
        ownsDescriptor = true
        size = copy.length
      default: break
      }
    }
  }

  deinit { if ownsDescriptor { close(descriptor) } }

  /// Hands each chunk read to `body`, counting the input within `bounds`.
  func stream(within bounds: inout InputBounds, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    let size = 64 << 10
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
    defer { chunk.deallocate() }
    while true {
      let count = Glibc.read(descriptor, chunk.baseAddress, size)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw CLIError.cannotRead(path: name, reason: String(cString: strerror(errno))) }
      if count == 0 { return }
      try bounds.count(count)
      bytesRead += count
      try body(UnsafeBufferPointer(rebasing: chunk[..<count]))
    }
  }

  /// About how many items the whole input holds, when `taken` items came of the bytes read so
  /// far (``ImportSizeEstimate``): the file's size at the rate read so far. The bytes read run
  /// up to a chunk ahead of the items taken, so for a file of items of even size the estimate
  /// errs low; a file whose first items are much shorter than the rest can be estimated over
  /// the truth, and then only costs time (indexes left out and built again that could have
  /// stayed), never an answer. Nil for a terminal or another character device (a pipe is read
  /// from its copy, whose length is known).
  func items(taken: Int) -> Int? {
    guard let size, bytesRead > 0 else { return nil }
    return Int((Double(size) * Double(taken) / Double(bytesRead)).rounded(.down))
  }

  /// Hands each chunk to `body`, within the caps of ``InputBounds``.
  func stream(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    var bounds = InputBounds(maximumInput: maximumInput)
    try stream(within: &bounds, body)
  }
}
