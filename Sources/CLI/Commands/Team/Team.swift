import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd {
  /// `ootd team`: study groups sharing a board of daily figures through the server.
  struct Team: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "team",
      abstract: "Share a board of daily achievement and commits with a study group.",
      discussion: """
        Teams live on the server ('ootd remote set'); every team command acts there at once. \
        Members share only per-day figures (date, todos planned and done, commits) and a \
        display name, never titles, projects or notes. The server enforces it: a role reads \
        the figures only of teams it has joined.

        Examples:
          ootd team create algo-study
          ootd team invite algo-study bob       # bob's database role
          ootd team join algo-study             # run by bob
          ootd team list                        # your teams and invitations
          ootd team board algo-study --week
          ootd team promote algo-study bob      # a team always keeps an owner
          ootd team leave algo-study
          ootd team delete algo-study
        """,
      subcommands: [Create.self, Invite.self, Join.self, List.self, Leave.self, Promote.self, Delete.self, Board.self])
  }
}
