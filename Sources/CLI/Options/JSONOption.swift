import ArgumentParser

/// `--json` for commands that can print machine-readable output.
struct JSONOption: ParsableArguments {
  @Flag(name: .long, help: "Print JSON for scripts instead of text.")
  var json = false
}
