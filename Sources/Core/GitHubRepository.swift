#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A GitHub repository as listed for a user, reduced to what syncing commits needs.
public struct GitHubRepository: Hashable, Sendable {
  /// The repository's `owner/name`.
  public var fullName: RepositoryName
  /// True when the repository is private.
  public var isPrivate: Bool
  /// True when the repository is a fork (its history overlaps its parent's).
  public var isFork: Bool
  /// The branch GitHub lists commits from by default, e.g. `main`.
  public var defaultBranch: String
  /// The last push, or nil when GitHub reports none (e.g. a repository that was never pushed to).
  public var pushedAt: Date?
  /// True when the repository is archived (read-only).
  public var isArchived: Bool
  /// True when the repository publishes GitHub Pages: its `gh-pages` branch counts too.
  public var hasPages: Bool

  /// Creates a repository value.
  public init(
    fullName: RepositoryName,
    isPrivate: Bool,
    isFork: Bool,
    defaultBranch: String,
    pushedAt: Date?,
    isArchived: Bool,
    hasPages: Bool = false
  ) {
    self.fullName = fullName
    self.isPrivate = isPrivate
    self.isFork = isFork
    self.defaultBranch = defaultBranch
    self.pushedAt = pushedAt
    self.isArchived = isArchived
    self.hasPages = hasPages
  }

  /// The account or organisation that owns the repository.
  public var owner: String { fullName.owner }
  /// The repository's own name.
  public var name: String { fullName.name }
}
