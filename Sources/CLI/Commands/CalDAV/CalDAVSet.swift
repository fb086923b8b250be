import ArgumentParser
import Core
import Foundation
import Storage

extension Ootd.CalDAVCommand {
  /// `ootd caldav set URL [--user NAME]`.
  struct SetCollection: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Link a CalDAV task list (a calendar collection holding VTODOs).",
      discussion: """
        Asks the server for the collection (PROPFIND) before saving anything: a wrong URL, \
        user or password, or a calendar that holds no todos, is one line and exit 1, nothing \
        saved. The URL and user are saved, never the password (OOTD_CALDAV_PASSWORD, \
        ~/.netrc, or the prompt). Another URL or user than the linked one starts over: the \
        next sync matches todos and VTODOs by uuid and pushes nothing twice.

        Examples:
          ootd caldav set http://127.0.0.1:5232/alice/tasks/ --user alice     # Radicale
          ootd caldav set https://cloud.example.com/remote.php/dav/calendars/alice/tasks/ --user alice
        """)

    @Argument(help: ArgumentHelp("The collection's URL.", valueName: "url"))
    var url: String

    @Option(name: .long, help: ArgumentHelp("The user name to log in with.", valueName: "name"))
    var user: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if let user, user.isEmpty || user.count > 256 || user.contains(":")
        || user.unicodeScalars.contains(where: ControlCharacters.isControl)
      {
        throw ValidationError("--user must be 1 to 256 characters, without ':' or control characters")
      }
    }

    func run(in environment: AppEnvironment) async throws {
      let parsed = try CalDAVAccess.checked(url)
      let (user, password) = try CalDAVAccess.credentials(environment, url: parsed, user: user)
      let collection = try CalDAVAccess.collection(environment, url: parsed, user: user, password: password)
      let info = try await CalDAVAccess.reporting(url: url) { try await collection.describe() }
      guard info.supportsTodos else {
        throw CLIError.calDAVFailed("\(url) holds no todos (its supported-calendar-component-set has no VTODO): link a task list")
      }
      let database = try global.openDatabase(environment)
      try database.setCalDAVLink(
        CalDAVLink(url: url, user: user, displayName: info.displayName.map { String($0.prefix(200)) }, ctag: info.ctag))
      let name = info.displayName.map { " '\($0.prefix(200))'" } ?? ""
      environment.print(TerminalText.printable("Linked CalDAV task list\(name): \(url)" + (user.map { " as \($0)" } ?? "")))
      if info.syncToken == nil {
        environment.print("The server has no sync-collection: each sync lists the collection.")
      }
    }
  }
}
