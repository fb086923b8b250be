import ArgumentParser
import Core
import Storage

extension Ootd.RemoteCommand {
  /// `ootd remote name [NAME]`.
  struct NameCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "name",
      abstract: "Show or set this machine's name, as your other machines' logs show it.",
      discussion: """
        A change pulled from this machine says 'from NAME' in 'ootd log' on your other \
        machines. The default is this machine's host name up to its first dot. The name \
        travels encrypted inside each change (the server never sees it); the others learn a \
        new name with the next change this machine pushes. Control characters are dropped \
        and white space runs become one space; at most 40 characters.

        Examples:
          ootd remote name
          ootd remote name desktop
        """)

    @Argument(help: ArgumentHelp("The new name (without it: show the name).", valueName: "name"))
    var name: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard let name else { return }
      guard let whole = DeviceName.sanitised(name, cappedAt: .max) else {
        throw ValidationError("the name must have a visible character")
      }
      if whole.count > DeviceName.maxCharacters {
        throw ValidationError("the name must be at most \(DeviceName.maxCharacters) characters")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      if let name, let clean = DeviceName.sanitised(name) {
        try database.settings.setRemoteSettings([.deviceName: clean])
        environment.print(TerminalText.printable("This machine's name: \(clean)"))
        return
      }
      let naming = try DeviceNaming.effective(environment, database: database)
      guard let shown = naming.name else {
        environment.print("This machine has no name: ootd remote name NAME sets one")
        return
      }
      let origin = naming.saved ? "" : " (the host name's)"
      environment.print(TerminalText.printable("This machine's name: \(shown)\(origin)"))
    }
  }
}
