import ArgumentParser

extension Ootd {
  /// `ootd caldav`: two-way sync with a CalDAV task list (issue 27).
  struct CalDAVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "caldav",
      abstract: "Sync your todos both ways with a CalDAV task list (Radicale, Nextcloud, iOS Reminders…).",
      discussion: """
        A todo is a VTODO whose UID is its uuid: SUMMARY the title, DTSTART;VALUE=DATE its day \
        (none for the backlog) and DUE the day after, PRIORITY 1/5/9 for high/mid/low (1-4, 5 \
        and 6-9 read back; 0 or none is mid), STATUS NEEDS-ACTION/COMPLETED/CANCELLED for \
        open/done/dropped, COMPLETED when it was done, CATEGORIES its project, block and tags, \
        DESCRIPTION its notes. Everything else another client wrote (X- properties, VALARM, \
        RELATED-TO, GEO…) is kept untouched when ootd updates a VTODO.

        The password is never stored: OOTD_CALDAV_PASSWORD, else ~/.netrc (machine HOST login \
        USER password P), else asked on the terminal without echo. https:// is required but \
        for a server on this machine; CURL_CA_BUNDLE names the CA certificates to trust.

        Examples:
          ootd caldav set https://dav.example.com/alice/tasks/ --user alice
          ootd caldav sync
          ootd caldav sync --json --from -7 --to +14
          ootd caldav status
        """,
      subcommands: [SetCollection.self, SyncCommand.self, StatusCommand.self])
  }
}
