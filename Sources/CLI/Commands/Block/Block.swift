import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd block`: manages task blocks.
  struct Block: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "block",
      abstract: "Manage task blocks: ready-made todos for work you do often.",
      discussion: """
        A fresh database has built-in blocks (algorithm, blog, commit, study, review, docs, \
        refactor, english). Add a todo from one with 'ootd add --block NAME'. Mark blocks as your \
        routine (every day, some weekdays, or every N days) and each day gets their todos by \
        itself.

        Examples:
          ootd block list
          ootd block add leetcode "Solve one LeetCode medium" --priority high
          ootd block routine algorithm
          ootd block routine blog --on mon,wed,fri
          ootd block rm leetcode
          ootd block restore algorithm   # bring back a built-in block
          ootd block edit commit --done-when commits --repo me/app
        """,
      subcommands: [
        ListBlocks.self, AddBlock.self, RemoveBlock.self, RestoreBlock.self, Routine.self,
        EditBlock.self,
      ],
      defaultSubcommand: ListBlocks.self)
  }
}
