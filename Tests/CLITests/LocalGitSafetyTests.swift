import Foundation
import TestTags
import Testing

/// `ootd sync --local` reads clones made by anyone: their configuration must not run programs.
@Suite("sync --local runs no program a clone configures", .tags(.binary))
struct LocalGitSafetyTests {
  /// Runs git in `folder` with `arguments` (test set-up only); its trimmed standard output.
  /// A commit it makes is dated at the pinned instant (``TestClock``), not by the real clock.
  @discardableResult
  static func git(_ arguments: [String], in folder: String, input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder] + arguments
    let date = "@\(Int(TestClock.now.timeIntervalSince1970)) +0000"
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date]) { $1 }
    let output = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "git \(arguments)")
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func hostileClone_signedCommit_gpgProgramPagerAndFsmonitorNeverRun() throws {
    // Given: a clone whose one commit carries a (fake) signature, configured to verify
    // signatures with a script, and to use that script as pager, fsmonitor and external diff
    let folder = try TemporaryFolder()
    let marker = folder.file("marker")
    let script = folder.file("evil")
    try "#!/bin/sh\ntouch '\(marker)'\nexit 1\n".write(toFile: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
    let repository = folder.file("repo")
    try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
    try Self.git(["init", "-q"], in: repository)
    let tree = try Self.git(["hash-object", "-t", "tree", "-w", "--stdin"], in: repository, input: "")
    let now = Int(TestClock.now.timeIntervalSince1970) - 3600  // an hour before the pinned now
    let commit = """
      tree \(tree)
      author Me <me@example.com> \(now) +0000
      committer Me <me@example.com> \(now) +0000
      gpgsig -----BEGIN PGP SIGNATURE-----
       \n iQEzBAABCAAdFiEE
       -----END PGP SIGNATURE-----

      signed
      """ + "\n"
    let sha = try Self.git(
      ["hash-object", "-t", "commit", "-w", "--stdin"], in: repository, input: commit)
    try Self.git(["update-ref", "refs/heads/main", sha], in: repository)
    try Self.git(["symbolic-ref", "HEAD", "refs/heads/main"], in: repository)
    for (key, value) in [
      ("user.email", "me@example.com"), ("log.showSignature", "true"), ("gpg.program", script),
      ("gpg.ssh.program", script), ("gpg.x509.program", script), ("core.pager", script),
      ("core.fsmonitor", script), ("diff.external", script),
    ] {
      try Self.git(["config", key, value], in: repository)
    }
    // The clone really is hostile: a plain `git log` runs the script.
    _ = try? Self.git(["log", "--all", "--format=%H"], in: repository)
    #expect(FileManager.default.fileExists(atPath: marker))
    try FileManager.default.removeItem(atPath: marker)

    // When
    let env = ["OOTD_DB": folder.file("ootd.sqlite"), "GITHUB_TOKEN": "", "GH_TOKEN": ""]
    #expect(
      try BinaryTests.run(["project", "add", "app", "--path", repository], environment: env).code
        == 0)
    let sync = try BinaryTests.run(["sync", "--local"], environment: env)

    // Then: the commit is read, and the script never ran
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(sync.stdout == "Read the git log of 1 project: 1 new commit (1 cached).\n")
    #expect(!FileManager.default.fileExists(atPath: marker), "a program the clone configures ran")
  }
}
