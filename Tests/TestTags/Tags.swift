import Testing

/// What makes a test slow or needy. `scripts/test --fast` skips every test carrying one of these
/// tags (on its `@Suite` or its `@Test`), for the inner loop; `scripts/test` and CI run
/// everything. `TagCoverageTests` (CLITests) fails when a suite starts the binary or PostgreSQL
/// without the tag.
extension Tag {
  /// Starts the built `ootd` binary as a process (`BinaryTests.run` and the helpers over it).
  @Tag public static var binary: Self
  /// Starts a real PostgreSQL cluster (`PostgresCluster`).
  @Tag public static var postgres: Self
  /// Talks to an HTTP server on 127.0.0.1 (the fake GitHub) or goes through libcurl.
  @Tag public static var network: Self
  /// Takes more than about 2 seconds for another reason (big databases, long histories,
  /// every zone of the system).
  @Tag public static var slow: Self
}
