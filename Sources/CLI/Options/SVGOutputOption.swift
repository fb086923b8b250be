import ArgumentParser
import Core

/// What an `--svg` image shows: the option's help line.
protocol SVGImageKind {
  /// The help of `--svg`.
  static var help: String { get }
}

/// `--svg FILE`: also write the command's image to a file; `-` prints the image instead of
/// everything else.
struct SVGOutputOption<Kind: SVGImageKind>: ParsableArguments {
  @Option(
    name: .long, help: ArgumentHelp(Kind.help, valueName: "file"),
    completion: .file(extensions: ["svg"]))
  var svg: String?

  /// Throws when `--svg -` comes with another output (`given`; `others` names those flags), or
  /// when the file name is empty. Commands call it from their own `validate()`, after their
  /// other checks.
  func validate(conflictingWith others: String, given: Bool) throws {
    if svg == "-" && given {
      throw ValidationError("--svg - prints the image; it cannot be combined with \(others)")
    }
    if svg?.isEmpty == true { throw ValidationError("--svg needs a file name") }
  }

  /// Writes `image()` when `--svg` was given: prints it for `-`; else writes the file through
  /// `environment.writeFile` and, unless `moreOutput` follows, prints `Wrote WHAT to FILE`.
  /// Returns true when the command has nothing more to print.
  func write(
    _ image: () -> String, what: @autoclosure () -> String, moreOutput: Bool,
    _ environment: AppEnvironment
  ) throws(CLIError) -> Bool {
    guard let svg else { return false }
    if svg == "-" {
      environment.output(image())
      return true
    }
    try environment.writeFile(svg, image())
    guard !moreOutput else { return false }
    environment.print(TerminalText.printable("Wrote \(what()) to \(svg)"))
    return true
  }
}
