import ArgumentParser
import Core
import Foundation
import Remote
import Storage

/// The team name argument every team command takes.
struct TeamNameArgument: ParsableArguments {
  @Argument(help: ArgumentHelp("The team's name.", valueName: "name"))
  var name: String
}
