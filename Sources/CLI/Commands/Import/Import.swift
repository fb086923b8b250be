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
        An import reads at most \(InputBounds.maximumInput >> 20) MiB, a line (todo.txt) or an \
        object (Taskwarrior) of at most \(InputBounds.maximumItem >> 20) MiB, and titles of at most \
        \(Title.maximumLength) characters: past a cap it stops at once, exits 64 with one line \
        naming the cap and where, and changes nothing.

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

      /// The file's bytes (standard input for `-`), read a chunk at a time within `bounds`
      /// (``InputBounds``): an oversize line or object, or an input past 64 MiB, exits 64 at the
      /// first byte past the cap (a regular file past it before any is read). Exit 1 when it
      /// cannot be read.
      func read(_ environment: AppEnvironment, _ shape: InputBounds.Shape) throws -> Data {
        var bounds = InputBounds(shape)
        do {
          let path = file.hasPrefix("/") ? file : environment.currentDirectory + "/" + file
          return try Self.read(file == "-" ? nil : path, name: file, within: &bounds)
        } catch let error as InterchangeError {
          throw CLIError.invalidValue(error.description)
        }
      }

      /// The bytes of `path` (standard input when nil), checked by `bounds` as they arrive.
      static func read(_ path: String?, name: String, within bounds: inout InputBounds) throws -> Data {
        let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) } ?? STDIN_FILENO
        guard descriptor >= 0 else {
          let reason = errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : String(cString: strerror(errno))
          throw CLIError.cannotRead(path: name, reason: reason)
        }
        defer { if path != nil { close(descriptor) } }
        var status = stat()
        var data = Data()
        if fstat(descriptor, &status) == 0 {
          switch status.st_mode & S_IFMT {
          case S_IFDIR: throw CLIError.cannotRead(path: name, reason: "it is a folder")
          case S_IFREG:
            // Its size is known: one past the cap is refused before a byte is read.
            if status.st_size > InputBounds.maximumInput { throw InputBounds.inputTooLarge }
            data.reserveCapacity(Int(status.st_size))
          default: break
          }
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
          let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
          if count < 0, errno == EINTR { continue }
          guard count >= 0 else { throw CLIError.cannotRead(path: name, reason: String(cString: strerror(errno))) }
          if count == 0 { return data }
          try chunk.withUnsafeBytes { buffer in try bounds.check(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
          data.append(contentsOf: chunk[..<count])
        }
      }

      /// Imports (or, with `--dry-run`, counts) what `parse` hands to the writer as it reads the
      /// input, as one change, and prints what happened. Malformed input changes nothing.
      func importing(
        _ environment: AppEnvironment, _ parse: (inout ImportWriter) throws -> Void
      ) throws {
        let database = try global.openDatabase(environment)
        let result: ImportResult
        do {
          result = try database.importTodos(
            dryRun: dryRun, today: environment.today, now: environment.now, parse)
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
