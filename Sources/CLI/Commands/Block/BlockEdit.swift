import ArgumentParser
import Core
import Storage

extension Ootd.Block {
  struct EditBlock: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Set what ticks a block's todos by itself (--done-when).",
      discussion: """
        With --done-when commits, an open todo of the block is done as soon as a sync ('ootd \
        sync', 'ootd sync --local') stores at least one commit authored on its day (in your \
        time zone), in the --repo repository when given; it says "doneBy": "commits" in JSON. \
        A todo added (add --block, plan) for a day that already has commits is done at once. \
        Reopen one with 'ootd undone ID' and no sync ticks it again. --done-when none takes the rule away. \
        The built-in commit block has the rule from the start.

        Examples:
          ootd block edit commit --done-when commits
          ootd block edit oss --done-when commits --repo apple/swift
          ootd block edit commit --done-when none
        """)

    @Argument(help: "The block's name.", completion: NameCompletion.blocks)
    var name: String

    @Option(
      name: .long,
      help: ArgumentHelp("commits (done by a commit on its day) or none.", valueName: "rule"))
    var doneWhen: String

    @Option(
      name: .long,
      help: ArgumentHelp("With --done-when commits: only commits in this repository count.",
        valueName: "owner/name"))
    var repo: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard ["commits", "none"].contains(doneWhen.lowercased()) else {
        throw ValidationError("--done-when is 'commits' or 'none', not '\(doneWhen)'")
      }
      if let repo {
        guard doneWhen.lowercased() == "commits" else {
          throw ValidationError("--repo goes with --done-when commits")
        }
        guard RepositoryName(repo) != nil else {
          throw ValidationError("'\(repo)' is not a repository: use OWNER/NAME, e.g. apple/swift")
        }
      }
    }

    func run(in environment: AppEnvironment) throws {
      let rule = doneWhen.lowercased() == "commits" ? DoneRule(repository: repo.flatMap(RepositoryName.init)) : nil
      let block = try global.openDatabase(environment).setDoneRule(named: name, rule, now: environment.now)
      environment.print(TerminalText.printable(
        block.doneWhen.map { "\(block.name) todos are done by \($0) on their day" }
          ?? "\(block.name) todos are ticked by hand only"))
    }
  }
}
