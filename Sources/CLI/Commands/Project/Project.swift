import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  /// `ootd project`: the project archive.
  struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "project",
      abstract: "Keep an archive of your projects and link todos to them.",
      discussion: """
        Examples:
          ootd project add ootd --repo octo/ootd --desc "Terminal todo tracker" --tech swift,sqlite
          ootd project list
          ootd project show ootd
          ootd add "Write the README" --project ootd
          ootd project archive ootd
        """,
      subcommands: [
        AddProject.self, ListProjects.self, ShowProject.self, EditProject.self,
        ArchiveProject.self, UnarchiveProject.self, RemoveProject.self,
      ],
      defaultSubcommand: ListProjects.self,
      aliases: ["projects"])
  }
}
