import Core
import Foundation
import Storage
import Zone

/// What `ootd report` reads for a range, and `ootd review` draws: the achievement report (each
/// day's figures by ``DayFigures``, the streaks with the runs reaching outside the range) and,
/// once commits are synced, the commits of the same days. One loader, so the page and the
/// report can never state a figure two ways.
struct ReportFigures {
  /// Every day's tally, the totals, streaks, weekdays and priorities.
  var report: AchievementReport
  /// The commits of the same days; nil until commits are synced (or for a project without a
  /// repository).
  var commits: CommitCalendar?
  /// When commits were last synced.
  var lastSync: Date?

  /// How achievement relates to commits over the range; nil until commits are synced.
  var relation: CommitAchievementRelation? {
    commits.map { CommitAchievementRelation(report, commits: $0) }
  }

  /// The figures of `days` (only `project`'s todos and repository when given) when today is
  /// `today` in `timeZone`.
  static func load(
    _ days: DayRange, project: String?, today: Day, timeZone: any ZoneRules, database: AppDatabase
  ) throws -> ReportFigures {
    // A run of perfect days counts in full in every range it overlaps (Core's ``Streaks``):
    // its days before and after the range count too, and an open today does not break it.
    let counts = try database.achievementCounts(in: days, project: project)
    let runBefore = try database.runOutside(days, forward: false, today: today, project: project)
    var report = AchievementReport(range: days, counts: counts, today: today, runBefore: runBefore)
    // The days after the range matter only to a run still standing at its end.
    if report.streaks.current > 0 {
      report = AchievementReport(
        range: days, counts: counts, today: today, runBefore: runBefore,
        runAfter: try database.runOutside(days, forward: true, today: today, project: project))
    }
    // The commits of the same days, side by side, once any are synced. A project's report
    // counts its own repository's (GitHub's, or `local/NAME` read from its clone); a project
    // with neither has no commits to show.
    var figures = ReportFigures(report: report)
    let repository = try project.map { try database.project(named: $0).project.commitRepository }
    if try database.gitHub.hasCommits(), repository != .some(nil) {
      var commits = try database.gitHub.commitCalendar(
        days, timeZone: timeZone,
        filter: database.gitHub.commitFilter(
          author: database.gitHub.commitAuthor(), repository: repository ?? nil))
      commits.syncedFrom = syncedFrom(
        try database.gitHub.syncStates(), repository: repository ?? nil, timeZone: timeZone)
      figures.commits = commits
      figures.lastSync = try database.gitHub.lastCommitSync()
    }
    return figures
  }

  /// The first day the shown repositories' completed syncs cover (days before it are "not
  /// synced", never "0 commits"): the earliest among them; nil when one covered its whole
  /// history or none is known (commits read from local clones).
  static func syncedFrom(
    _ states: [RepositorySyncState], repository: RepositoryName?, timeZone: any ZoneRules
  ) -> Day? {
    let shown = states.filter {
      $0.lastSyncAt != nil && (repository == nil || $0.repository == repository)
    }
    guard !shown.isEmpty, shown.allSatisfy({ $0.windowStart != nil }) else { return nil }
    return shown.compactMap(\.windowStart).min().map { Day($0, in: timeZone) }
  }
}
