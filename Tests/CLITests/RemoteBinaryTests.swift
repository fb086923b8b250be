import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// `ootd remote` and `ootd team` through the built binary against a real PostgreSQL.
@Suite(.tags(.binary, .postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct RemoteBinaryTests {
  /// A cluster database initialised by `ootd remote init`, with roles for two members and a
  /// stranger, and a local ootd database for each.
  struct World {
    let cluster: PostgresCluster
    let database: String
    let alice: String
    let bob: String
    let stranger: String
    let folder: TemporaryFolder

    init(initialise: Bool = true) throws {
      cluster = try PostgresCluster.shared()
      let cast = try cluster.castOfThree()
      (database, alice, bob, stranger) = (cast.database, cast.alice, cast.bob, cast.stranger)
      folder = try TemporaryFolder()
      if initialise {
        let result = try run(as: PostgresCluster.admin, ["remote", "init"])
        #expect(result.code == 0, "\(result.stderr)")
      }
    }

    func uri(_ role: String) -> String { cluster.uri(role: role, database: database) }

    /// Runs ootd with `role`'s database and server URI in OOTD_REMOTE.
    func run(as role: String, _ arguments: [String], remote: String? = nil) throws -> BinaryTests.Result {
      try BinaryTests.run(
        arguments,
        environment: ["OOTD_DB": folder.file("\(role).sqlite"), "OOTD_REMOTE": remote ?? uri(role), "NO_COLOR": "1"])
    }

    func publish(_ role: String, _ figures: [DayFigure], name: String?) throws {
      try RemoteServer(connection: PostgresConnection(uri: uri(role))).publishDayFigures(figures, displayName: name)
    }
  }

  static func digest(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test("remote set saves a URI and a name; a URI with a password or a bad URI exits 64, the database untouched")
  func set() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("db.sqlite")]
    #expect(try BinaryTests.run(["add", "x"], environment: env).code == 0)
    let before = Self.digest(folder.file("db.sqlite"))
    for uri in ["postgresql://alice:hunter22@db.example.com/ootd", "host=db user=alice password=hunter22"] {
      let refused = try BinaryTests.run(["remote", "set", uri], environment: env)
      #expect(refused.code == 64)
      #expect(refused.stderr.contains("PGPASSWORD"))
      #expect(!(refused.stdout + refused.stderr).contains("hunter22"))
      #expect(refused.stderr.split(separator: "\n").count == 1)
    }
    let bad = try BinaryTests.run(["remote", "set", "postgresql://db/ootd?bogus=1"], environment: env)
    #expect(bad.code == 64)
    #expect(bad.stderr.hasPrefix("ootd: error: not a PostgreSQL connection URI"))
    #expect(Self.digest(folder.file("db.sqlite")) == before)

    // remote set connects for the sync key: a server it cannot reach saves nothing.
    let unreachable = try BinaryTests.run(
      ["remote", "set", "postgresql://alice@127.0.0.1:1/ootd?connect_timeout=2", "--name", "Alice K."], environment: env)
    #expect(unreachable.code == 1)
    #expect(unreachable.stderr.hasPrefix("ootd: error: cannot connect to the PostgreSQL server"), "\(unreachable.stderr)")
    #expect(Self.digest(folder.file("db.sqlite")) == before)

    let world = try World()
    let saved = try BinaryTests.run(["remote", "set", world.uri(world.alice), "--name", "Alice K."], environment: env)
    #expect(saved.code == 0, "\(saved.stderr)")
    #expect(saved.stdout.hasPrefix("Server: postgresql://\(world.alice)@127.0.0.1:"), "\(saved.stdout)")
    #expect(
      saved.stdout.hasSuffix(
        "\nName on team boards: Alice K.\nSync key: new, stored on the server under your passphrase (keep it: your other machines need it)\n"),
      "\(saved.stdout)")
    let again = try BinaryTests.run(["remote", "set", world.uri(world.alice)], environment: env)
    #expect(again.code == 0 && again.stdout.hasSuffix("Sync key: already on this machine\n"), "\(again.stdout)")
    // A second machine without --name: teammates see the name the first set, and it says so
    // (tryout 19 F2: it said the role name).
    var second = env
    second["OOTD_DB"] = folder.file("second.sqlite")
    let other = try BinaryTests.run(["remote", "set", world.uri(world.alice)], environment: second)
    #expect(other.code == 0, "\(other.stderr)")
    #expect(other.stdout.contains("\nName on team boards: Alice K.\n"), "\(other.stdout)")
  }

  @Test("a --name the server would refuse once it folds it (over 400 characters after NFKC) is one line, exit 64, nothing saved")
  func nameTooLongOnceFolded() throws {
    let world = try World()
    let env = ["OOTD_DB": world.folder.file("names.sqlite")]
    #expect(try BinaryTests.run(["add", "x"], environment: env).code == 0)
    let before = Self.digest(world.folder.file("names.sqlite"))
    // 23 characters, each written out by NFKC as 18: 414 in the key the server derives (the
    // server's own error before).
    let refused = try BinaryTests.run(
      ["remote", "set", world.uri(world.alice), "--name", String(repeating: "\u{FDFA}", count: 23)], environment: env)
    #expect(refused.code == 64)
    #expect(
      refused.stderr
        == "ootd: error: --name is 414 characters once compared as the server compares names (NFKC writes some characters out in full), more than 400: choose a shorter one\n",
      "\(refused.stderr)")
    #expect(Self.digest(world.folder.file("names.sqlite")) == before)
    // 22 (396 in the key): the server keeps it.
    let kept = try BinaryTests.run(
      ["remote", "set", world.uri(world.alice), "--name", String(repeating: "\u{FDFA}", count: 22)], environment: env)
    #expect(kept.code == 0, "\(kept.stderr)")
  }

  @Test("without a server, team and remote commands exit 64 saying to run 'ootd remote set'")
  func noServer() throws {
    let folder = try TemporaryFolder()
    for arguments in [["remote", "init"], ["team", "board", "x"], ["team", "create", "x"]] {
      let result = try BinaryTests.run(arguments, environment: ["OOTD_DB": folder.file("db.sqlite"), "OOTD_REMOTE": ""])
      #expect(result.code == 64)
      #expect(result.stderr == "ootd: error: no PostgreSQL server set: run 'ootd remote set URI' (or set OOTD_REMOTE for one command)\n")
    }
  }

  @Test("remote init creates the schema once; again it says up to date")
  func initIsIdempotent() throws {
    let world = try World(initialise: false)
    // A person's role may not create the schema: one line saying who should run init.
    let member = try world.run(as: world.alice, ["remote", "init"])
    #expect(member.code == 1)
    #expect(
      member.stderr.hasPrefix("ootd: error: permission denied by the server: ")
        && member.stderr.hasSuffix(
          ": run 'ootd remote init' as a role allowed to create schemas and roles (the database's owner, with CREATEROLE)\n"),
      "\(member.stderr)")
    let first = try world.run(as: PostgresCluster.admin, ["remote", "init"])
    #expect(first.code == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("Created the ootd schema (version \(RemoteSchema.currentVersion)) on postgresql://"))
    let again = try world.run(as: PostgresCluster.admin, ["remote", "init"])
    #expect(again.code == 0)
    #expect(again.stdout.contains("is up to date (version \(RemoteSchema.currentVersion))"))
  }

  @Test("remote init migrates a version 1 server")
  func initMigrates() throws {
    let world = try World(initialise: false)
    try RemoteSchema.migrate(PostgresConnection(uri: world.uri(PostgresCluster.admin)), to: 1)
    let result = try world.run(as: PostgresCluster.admin, ["remote", "init"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("from version 1 to \(RemoteSchema.currentVersion)"))
  }

  @Test("exit 1 with one clear line: no schema, a role outside ootd_member, a stopped server")
  func runtimeFailures() throws {
    let world = try World(initialise: false)
    let noSchema = try world.run(as: world.alice, ["team", "create", "t"])
    #expect(noSchema.code == 1)
    #expect(noSchema.stderr.contains("run 'ootd remote init'"))
    #expect(try world.run(as: PostgresCluster.admin, ["remote", "init"]).code == 0)
    let stranger = try world.run(as: world.stranger, ["team", "board", "t"])
    #expect(stranger.code == 1)
    #expect(stranger.stderr == "ootd: error: the role '\(world.stranger)' is not a member of ootd_member: ask the server's owner to run GRANT ootd_member TO \"\(world.stranger)\"\n")

    let own = try PostgresCluster()
    defer { own.stop() }
    let uri = own.uri(role: PostgresCluster.admin)
    try own.pause()
    let stopped = try world.run(as: world.alice, ["team", "board", "t"], remote: uri)
    #expect(stopped.code == 1)
    #expect(stopped.stderr.hasPrefix("ootd: error: cannot connect to the PostgreSQL server:"))
    #expect(stopped.stderr.split(separator: "\n").count == 1)
  }

  @Test("the password from PGPASSWORD or a wrong one never appears in any output")
  func passwordNeverPrinted() throws {
    let world = try World()
    let secret = try #require(world.cluster.password(of: world.alice))
    let plain = world.cluster.plainURI(role: world.alice, database: world.database)
    let folder = try TemporaryFolder()
    var env = ["OOTD_DB": folder.file("db.sqlite"), "OOTD_REMOTE": plain, "PGPASSWORD": secret]
    for arguments in [["team", "create", "pw"], ["team", "board", "pw", "--json"], ["team", "board", "nope"], ["remote", "init"]] {
      let result = try BinaryTests.run(arguments, environment: env)
      #expect(!(result.stdout + result.stderr).contains(secret), "\(arguments)")
    }
    #expect(try BinaryTests.run(["team", "board", "pw"], environment: env).code == 0)
    env["PGPASSWORD"] = "wrong-\(secret)"
    let wrong = try BinaryTests.run(["team", "board", "pw"], environment: env)
    #expect(wrong.code == 1)
    #expect(wrong.stderr.contains("password authentication failed"))
    #expect(!(wrong.stdout + wrong.stderr).contains(secret))
    // remote status refuses a URI holding a password as every other command does, rather than
    // showing "Server: none".
    let inURI = try BinaryTests.run(
      ["remote", "status"],
      environment: ["OOTD_DB": folder.file("db.sqlite"), "OOTD_REMOTE": "postgresql://\(world.alice):\(secret)@127.0.0.1:1/x"])
    #expect(inURI.code == 64)
    #expect(inURI.stderr.hasPrefix("ootd: error: the URI holds a password") && inURI.stdout.isEmpty)
    #expect(!(inURI.stdout + inURI.stderr).contains(secret))
  }

  @Test("team create, invite, join, board and leave end to end; the board JSON has the contract's shape")
  func teamEndToEnd() throws {
    let world = try World()
    let team = world.cluster.uniqueName("algo")
    let created = try world.run(as: world.alice, ["team", "create", team])
    #expect(created.code == 0, "\(created.stderr)")
    // Bob is not in yet: no board for him.
    let early = try world.run(as: world.bob, ["team", "board", team])
    #expect(early.code == 1)
    #expect(early.stderr == "ootd: error: you are not a member of team '\(team)' ('ootd team list' shows your teams and invitations)\n")
    #expect(try world.run(as: world.bob, ["team", "list"]).stdout.hasPrefix("No teams yet"))
    #expect(try world.run(as: world.bob, ["team", "join", team]).code == 1)
    #expect(try world.run(as: world.alice, ["team", "invite", team, world.bob]).code == 0)
    #expect(try world.run(as: world.alice, ["team", "invite", team, world.stranger]).code == 1)
    // team list: alice owns it; bob sees the invitation, who sent it and how to accept it.
    let aliceTeams = try world.run(as: world.alice, ["team", "list", "--no-color"])
    #expect(aliceTeams.stdout == "\(team)  owner\n", "\(aliceTeams.stderr)")
    let invited = try world.run(as: world.bob, ["team", "list", "--no-color"])
    #expect(invited.stdout == "\(team)  invited as member by \(world.alice): 'ootd team join \(team)'\n", "\(invited.stderr)")
    let invitedJSON = try world.run(as: world.bob, ["team", "list", "--json"])
    let invitations = try #require(JSONSerialization.jsonObject(with: Data(invitedJSON.stdout.utf8)) as? [[String: Any]])
    #expect(invitations.count == 1)
    #expect(Set(invitations[0].keys) == ["team", "role", "joined", "invitedBy"])
    #expect(invitations[0]["joined"] as? Bool == false && invitations[0]["role"] as? String == "member")
    #expect(invitations[0]["invitedBy"] as? String == world.alice && invitations[0]["team"] as? String == team)
    let joined = try world.run(as: world.bob, ["team", "join", team])
    #expect(joined.stdout == "Joined team \(team).\n")

    let day = { (n: Int) in Day(year: 2026, month: 11, day: n)! }
    try world.publish(world.alice, [
      DayFigure(date: day(1), total: 2, done: 2, commits: 1),
      DayFigure(date: day(2), total: 3, done: 3, commits: 4),
      DayFigure(date: day(3), total: 4, done: 1, commits: nil),
    ], name: "Alice")
    try world.publish(world.bob, [DayFigure(date: day(2), total: 2, done: 2, commits: nil)], name: nil)

    let board = try world.run(as: world.bob, ["team", "board", team, "--from", "2026-11-02", "--to", "2026-11-03", "--json"])
    #expect(board.code == 0, "\(board.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(board.stdout.utf8)) as? [String: Any])
    #expect(Set(json.keys) == ["team", "from", "to", "members"])
    #expect(json["team"] as? String == team)
    #expect(json["from"] as? String == "2026-11-02")
    #expect(json["to"] as? String == "2026-11-03")
    let members = try #require(json["members"] as? [[String: Any]])
    #expect(members.map { $0["name"] as? String } == ["Alice", world.bob])
    let alice = members[0]
    #expect(Set(alice.keys).isSuperset(of: ["name", "days", "rate", "currentStreak"]))
    #expect(alice["rate"] as? Double == 4.0 / 7.0)
    #expect(alice["currentStreak"] as? Int == 0)  // the 3rd was not perfect
    let days = try #require(alice["days"] as? [[String: Any]])
    #expect(days.count == 2)
    #expect(days.map { Set($0.keys) }.allSatisfy { $0.isSuperset(of: ["date", "total", "done", "rate", "commits"]) })
    #expect(days[0]["date"] as? String == "2026-11-02")
    #expect(days[0]["rate"] as? Double == 1)
    #expect(days[0]["commits"] as? Int == 4)
    #expect(days[1]["commits"] is NSNull)
    let bob = members[1]
    #expect(bob["currentStreak"] as? Int == 1)
    let bobDays = try #require(bob["days"] as? [[String: Any]])
    #expect(bobDays[1]["total"] as? Int == 0)
    #expect(bobDays[1]["rate"] is NSNull)
    #expect(bobDays[1]["commits"] is NSNull)

    let text = try world.run(as: world.alice, ["team", "board", team, "--from", "2026-11-01", "--to", "2026-11-03"])
    #expect(text.code == 0)
    #expect(text.stdout.contains("Team \(team) · 2026-11-01 → 2026-11-03 (3 days)"))
    #expect(text.stdout.contains("Alice"))
    #expect(text.stdout.contains("█░"))  // Alice's perfect 2nd, then the 3rd at 25 %

    let left = try world.run(as: world.bob, ["team", "leave", team])
    #expect(left.stdout == "Left team \(team).\n")
    let after = try world.run(as: world.alice, ["team", "board", team, "--json"])
    let afterJSON = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
    #expect((afterJSON["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Alice"])
    #expect(try world.run(as: world.bob, ["team", "board", team]).code == 1)
  }

  @Test("the URI saved by remote set serves team commands, and the saved name shows on the board at once")
  func savedServerAndName() throws {
    let world = try World()
    let team = world.cluster.uniqueName("saved")
    let env = ["OOTD_DB": world.folder.file("saved.sqlite"), "OOTD_REMOTE": ""]
    let set = try BinaryTests.run(["remote", "set", world.uri(world.alice), "--name", "Alice A."], environment: env)
    #expect(set.code == 0, "\(set.stderr)")
    #expect(try BinaryTests.run(["team", "create", team], environment: env).code == 0)
    let board = try BinaryTests.run(["team", "board", team, "--json"], environment: env)
    #expect(board.code == 0, "\(board.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(board.stdout.utf8)) as? [String: Any])
    let members = try #require(json["members"] as? [[String: Any]])
    #expect(members.map { $0["name"] as? String } == ["Alice A."])
    #expect((members.first?["days"] as? [Any])?.count == 7)
    #expect(members.first?["rate"] is NSNull)
    #expect(members.first?["currentStreak"] as? Int == 0)

    // Bob asks for the name Alice has (told apart ignoring case): refused at once, nothing saved
    // (it was saved, and every team command after it failed).
    let bobEnv = ["OOTD_DB": world.folder.file("bob-saved.sqlite"), "OOTD_REMOTE": ""]
    let taken = try BinaryTests.run(["remote", "set", world.uri(world.bob), "--name", "alice a."], environment: bobEnv)
    #expect(taken.code == 1)
    #expect(taken.stderr.hasPrefix("ootd: error: the name 'alice a.' is taken by another member of this server"), "\(taken.stderr)")
    let status = try BinaryTests.run(["remote", "status"], environment: bobEnv)
    #expect(status.code == 0 && status.stdout.hasPrefix("Server:     none"), "\(status.stdout) \(status.stderr)")
    #expect(try BinaryTests.run(["remote", "set", world.uri(world.bob), "--name", "Bob B."], environment: bobEnv).code == 0)
    #expect(try BinaryTests.run(["team", "create", world.cluster.uniqueName("bobs")], environment: bobEnv).code == 0)
  }

  @Test("commands that need no server never load libpq")
  func addDoesNotLoadLibpq() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("db.sqlite"), "LD_DEBUG": "files"]
    let add = try BinaryTests.run(["add", "x"], environment: env)
    #expect(add.code == 0)
    #expect(add.stderr.contains("libc.so.6"))  // LD_DEBUG works here (SQLite may be linked in)
    #expect(!add.stderr.contains("libpq"))
    let team = try BinaryTests.run(["team", "board", "x"], environment: env.merging(["OOTD_REMOTE": "postgresql://nobody@127.0.0.1:1/x?connect_timeout=2"]) { $1 })
    #expect(team.stderr.contains("libpq.so.5"))
  }
}
