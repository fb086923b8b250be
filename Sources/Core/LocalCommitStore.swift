#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a local git sync (UseCases' `LocalSync`) needs of the database: the projects whose
/// clones it reads, the e-mails a login is known by, and where the commits it reads are kept
/// (Storage's database implements it, as it implements ``CommitStore`` for GitHub's).
public protocol LocalCommitStore {
  /// Every project, archived ones too.
  func allProjects() throws -> [Project]
  /// The author e-mails `login`'s synced commits carry.
  func authorEmails(of login: String) throws -> [String]
  /// Stores commits read from a clone under `key`; returns how many were new.
  func storeLocalCommits(_ commits: [Commit], recordedAs key: ListingKey, now: Date) throws -> Int
}
