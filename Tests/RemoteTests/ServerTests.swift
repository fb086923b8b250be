import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// A database with the ootd schema and three login roles: two members and a stranger.
struct ServerFixture {
  let cluster: PostgresCluster
  let database: String
  let alice: String
  let bob: String
  let stranger: String

  init(initialise: Bool = true) throws {
    cluster = try PostgresCluster.shared()
    let cast = try cluster.castOfThree()
    (database, alice, bob, stranger) = (cast.database, cast.alice, cast.bob, cast.stranger)
    if initialise {
      try RemoteSchema.migrate(PostgresConnection(uri: cluster.uri(database: database)))
    }
  }

  func connect(_ role: String) throws -> PostgresConnection {
    try PostgresConnection(uri: cluster.uri(role: role, database: database))
  }

  func server(_ role: String) throws -> RemoteServer {
    try RemoteServer(connection: connect(role))
  }

  /// Alice's new team (a unique name) with Bob invited and joined: the servers of both, and the
  /// team's name.
  func teamOfTwo() throws -> (alice: RemoteServer, bob: RemoteServer, team: String) {
    let (alice, bob, team) = try invitedTeam()
    try bob.join(team)
    return (alice, bob, team)
  }

  /// Alice's new team (a unique name) with Bob invited, not joined yet.
  func invitedTeam() throws -> (alice: RemoteServer, bob: RemoteServer, team: String) {
    let alice = try server(self.alice)
    let bob = try server(self.bob)
    let team = cluster.uniqueName("study")
    try alice.createTeam(team)
    try alice.invite(self.bob, to: team)
    return (alice, bob, team)
  }

  /// `sql` through the real psql as `role`; the output lines.
  func psql(_ sql: String, as role: String) throws -> [String] {
    try cluster.psql(sql, as: role, database: database).split(separator: "\n").map(String.init)
  }
}

func record(_ n: Int, device: String = "laptop") -> SyncRecord {
  SyncRecord(
    opID: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!.uuidString.lowercased(),
    device: device, clock: "clock-\(n)", payload: "{\"n\":\(n)}")
}

@Suite(.tags(.postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct ServerTests {
  @Test("push is idempotent and pull returns one's own operations in seq order, in pages")
  func pushPull() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    #expect(try alice.push((1...5).map { record($0) }) == 5)
    #expect(try alice.push((3...8).map { record($0) }) == 3)  // 3, 4, 5 already there
    var cursor: Int64 = 0
    var pulled: [SyncRecord] = []
    while true {
      let page = try alice.pull(after: cursor, limit: 3)
      if page.isEmpty { break }
      #expect(page.map(\.seq) == page.map(\.seq).sorted())
      #expect(page.allSatisfy { $0.seq > cursor })
      cursor = page.last!.seq
      pulled += page.map(\.record)
    }
    #expect(pulled == (1...8).map { record($0) })
    #expect(try alice.operationCount() == 8)
  }

  @Test("payloads with quotes, backslashes, braces, commas, newlines and non-ASCII come back byte for byte")
  func awkwardPayloads() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    let payloads = [
      #"{"title":"say "hi"","path":"C:\dir\","list":[1,2,{"x":"}"}]}"#, "line one\nline two\n", "한글 · emoji 🎉",
      "NULL", "", " leading and trailing ", "{}", "\"", "\\",
    ]
    let records = payloads.enumerated().map { index, payload in
      SyncRecord(opID: record(index).opID, device: "dev,ice \"1\"", clock: "c{\(index)}", payload: payload)
    }
    #expect(try alice.push(records) == payloads.count)
    #expect(try alice.pull(after: 0, limit: 100).map(\.record) == records)
  }

  @Test("large records (a first sync's) are sent as parameters of their own: in order, once, byte for byte")
  func largeRecords() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    let awkward = #"{"a":"say "hi" \ , {}"} 한글 🎉"# + "\n"
    let records = (0..<6).map { index in
      SyncRecord(
        opID: record(index).opID, device: "dev \"1\"", clock: "c{\(index)}",
        payload: String(repeating: awkward, count: (40 << 10) / awkward.utf8.count + index))
    }
    #expect(try alice.push(records) == 6)
    #expect(try alice.push(records) == 0)
    let pulled = try alice.pull(after: 0, limit: 100)
    #expect(pulled.map(\.record) == records)
    #expect(pulled.map(\.seq) == pulled.map(\.seq).sorted())
  }

  @Test("10,000 operations push in one call and come back whole")
  func bigPush() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    let records = (1...10_000).map { record($0) }
    #expect(try alice.push(records) == 10_000)
    #expect(try alice.push(records) == 0)
    #expect(try alice.pull(after: 0, limit: 20_000).map(\.record) == records)
  }

  @Test("devices remember their last sync; day figures upsert")
  func devicesAndFigures() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    #expect(try alice.lastSync(device: "d1") == nil)
    try alice.registerDevice("d1", name: "laptop")
    let first = try #require(try alice.lastSync(device: "d1"))
    #expect(abs(first.timeIntervalSinceNow) < 3600)  // real clock: PostgreSQL's now() against this machine's
    try alice.registerDevice("d1", name: nil)
    #expect(try alice.devices().map(\.name) == ["laptop"])
    let day = Day(year: 2026, month: 11, day: 2)!
    try alice.publishDayFigures([DayFigure(date: day, total: 3, done: 1, commits: nil)], displayName: "Alice")
    try alice.publishDayFigures([DayFigure(date: day, total: 3, done: 3, commits: 4)], displayName: "Alice")
    let rows = try fixture.psql("SELECT day, total, done, commits FROM ootd.day_figures", as: fixture.alice)
    #expect(rows == ["2026-11-02|3|3|4"])
    // Her other machine, which does not sync GitHub, publishes the day without commits: the
    // figures are replaced, the commits her laptop counted stay.
    try alice.publishDayFigures([DayFigure(date: day, total: 4, done: 3, commits: nil)], displayName: "Alice")
    #expect(try fixture.psql("SELECT day, total, done, commits FROM ootd.day_figures", as: fixture.alice) == ["2026-11-02|4|3|4"])
    try alice.publishDayFigures([DayFigure(date: day, total: 4, done: 3, commits: 0)], displayName: "Alice")
    #expect(try fixture.psql("SELECT day, total, done, commits FROM ootd.day_figures", as: fixture.alice) == ["2026-11-02|4|3|0"])
    // A machine of hers without a name of its own publishes: the name her laptop set stays.
    try alice.publishDayFigures([DayFigure(date: day, total: 5, done: 3, commits: nil)], displayName: nil)
    #expect(try fixture.psql("SELECT display_name FROM ootd.members WHERE owner = current_user", as: fixture.alice) == ["Alice"])
    #expect(try fixture.psql("SELECT total FROM ootd.day_figures", as: fixture.alice) == ["5"])
    // A member who never set a name gets a row without one (the board shows the role's name).
    let bob = try fixture.server(fixture.bob)
    try bob.publishDayFigures([DayFigure(date: day, total: 1, done: 1, commits: nil)], displayName: nil)
    #expect(try fixture.psql("SELECT coalesce(display_name, '(none)') FROM ootd.members WHERE owner = current_user", as: fixture.bob) == ["(none)"])
  }

  @Test(
    "the server's clock is read only as a finite instant between 1970 and 2200",
    arguments: [
      ("1795780800.123456", 1_795_780_800.123456 as Double?), ("0", 0), ("7258118400", 7_258_118_400),
      ("Infinity", nil), ("-Infinity", nil), ("NaN", nil), ("1e300", nil), ("-1", nil),
      ("7258118401", nil), ("", nil), ("now", nil), (String(repeating: "1", count: 41), nil),
    ])
  func serverClockText(text: String, expected: Double?) {
    #expect(RemoteServer.serverSeconds(text) == expected)
  }

  @Test(
    "a pulled page must read on past the cursor in order, or the pull would never end",
    arguments: [
      ([Int64](), 5 as Int64, nil as Int64?), ([6, 7, 9], 5, nil), ([5], 5, 5), ([6, 6], 5, 6),
      ([7, 6], 5, 6), ([4, 8], 5, 4), ([0], 0, 0), ([1], 0, nil),
    ])
  func pulledPageOrder(seqs: [Int64], cursor: Int64, expected: Int64?) {
    #expect(RemoteServer.firstOutOfOrder(seqs, after: cursor) == expected)
  }

  @Test("row-level security: a member reads only its own operations, a stranger reads nothing, with plain SQL")
  func opsAreprivate() throws {
    let fixture = try ServerFixture()
    try fixture.server(fixture.alice).push([record(1), record(2)])
    try fixture.server(fixture.bob).push([record(3, device: "bob-pc")])
    // Bob, through psql, sees his one operation and none of Alice's, even asking by owner.
    #expect(try fixture.psql("SELECT count(*) FROM ootd.ops", as: fixture.bob) == ["1"])
    #expect(try fixture.psql("SELECT count(*) FROM ootd.ops WHERE owner = '\(fixture.alice)'", as: fixture.bob) == ["0"])
    // He cannot write as Alice, nor change or delete any operation.
    #expect(throws: (any Error).self) {
      try fixture.psql(
        "INSERT INTO ootd.ops (owner, op_id, device, clock, payload) VALUES ('\(fixture.alice)', gen_random_uuid(), 'x', 'c', 'p')",
        as: fixture.bob)
    }
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.ops SET payload = 'x'", as: fixture.bob)
    }
    #expect(throws: (any Error).self) { try fixture.psql("DELETE FROM ootd.ops", as: fixture.bob) }
    #expect(try fixture.psql("SELECT count(*) FROM ootd.ops", as: fixture.alice) == ["2"])
    // A role outside ootd_member cannot even look into the schema.
    for table in ["ops", "day_figures", "members", "devices", "teams", "team_members"] {
      #expect(throws: (any Error).self, "\(table)") {
        try fixture.psql("SELECT count(*) FROM ootd.\(table)", as: fixture.stranger)
      }
    }
  }

  @Test("row-level security: figures and display names reach only teammates who joined")
  func figuresReachTeammatesOnly() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    let bob = try fixture.server(fixture.bob)
    let day = Day(year: 2026, month: 11, day: 2)!
    try alice.publishDayFigures([DayFigure(date: day, total: 4, done: 2, commits: 7)], displayName: "Alice")
    try bob.publishDayFigures([DayFigure(date: day, total: 1, done: 1, commits: nil)], displayName: nil)
    // No team yet: each sees only itself.
    #expect(try fixture.psql("SELECT count(*) FROM ootd.day_figures", as: fixture.bob) == ["1"])
    #expect(try fixture.psql("SELECT count(*) FROM ootd.members", as: fixture.bob) == ["1"])

    let team = fixture.cluster.uniqueName("study")
    try alice.createTeam(team)
    try alice.invite(fixture.bob, to: team)
    // Invited, not joined: still nothing of Alice's.
    #expect(try fixture.psql("SELECT count(*) FROM ootd.day_figures", as: fixture.bob) == ["1"])
    #expect(try bob.join(team))
    #expect(try !bob.join(team))
    #expect(try fixture.psql("SELECT owner, total, done, commits FROM ootd.day_figures ORDER BY owner", as: fixture.bob)
      == ["\(fixture.alice)|4|2|7", "\(fixture.bob)|1|1|"])
    #expect(try fixture.psql("SELECT display_name FROM ootd.members WHERE owner = '\(fixture.alice)'", as: fixture.bob) == ["Alice"])
    // Still never Alice's operations, nor a way to write her figures.
    try alice.push([record(1)])
    #expect(try fixture.psql("SELECT count(*) FROM ootd.ops", as: fixture.bob) == ["0"])
    #expect(try fixture.psql("UPDATE ootd.day_figures SET done = 0 WHERE owner = '\(fixture.alice)' RETURNING 1", as: fixture.bob) == [])
    // Bob cannot promote himself.
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.team_members SET role = 'owner' WHERE member = current_user", as: fixture.bob)
    }

    let board = try bob.board(team, through: day)
    #expect(board.map(\.name) == ["Alice", fixture.bob])
    #expect(board.first?.figures == [DayFigure(date: day, total: 4, done: 2, commits: 7)])

    try bob.leave(team)
    #expect(try fixture.psql("SELECT count(*) FROM ootd.day_figures", as: fixture.bob) == ["1"])
    #expect(throws: RemoteError.self) { try bob.board(team, through: day) }
    #expect(try alice.board(team, through: day).map(\.name) == ["Alice"])
  }

  @Test("team rules: only owners and admins invite, only ootd members can be invited, names are unique")
  func teamRules() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    let bob = try fixture.server(fixture.bob)
    let team = fixture.cluster.uniqueName("group")
    try alice.createTeam(team)
    #expect(throws: RemoteError.refused("a team named '\(team)' already exists")) { try bob.createTeam(team) }
    #expect(throws: RemoteError.self) { try alice.createTeam("bad name!") }
    #expect(throws: RemoteError.refused(RemoteServer.notAMember(team))) {
      try bob.invite(fixture.alice, to: team)
    }
    #expect(throws: RemoteError.refused("the role '\(fixture.stranger)' is not a member of ootd_member")) {
      try alice.invite(fixture.stranger, to: team)
    }
    #expect(throws: RemoteError.refused("there is no database role 'nobody_at_all'")) {
      try alice.invite("nobody_at_all", to: team)
    }
    try alice.invite(fixture.bob, to: team)
    try bob.join(team)
    #expect(try bob.myRole(in: team) == .member)
    // A plain member cannot invite, even with SQL.
    #expect(throws: (any Error).self) {
      try fixture.psql("INSERT INTO ootd.team_members (team, member) VALUES ('\(team)', '\(fixture.stranger)')", as: fixture.bob)
    }
    // An admin invites members but not admins, and cannot take the owner out.
    let carol = fixture.cluster.uniqueName("carol")
    try fixture.cluster.createRole(carol, password: "pw-carol", member: true)
    let dave = fixture.cluster.uniqueName("dave")
    try fixture.cluster.createRole(dave, password: "pw-dave", member: true)
    try alice.invite(carol, to: team, admin: true)
    let carolServer = try fixture.server(carol)
    try carolServer.join(team)
    #expect(try carolServer.myRole(in: team) == .admin)
    #expect(throws: RemoteError.refused("only an owner of team '\(team)' can invite an admin")) {
      try carolServer.invite(dave, to: team, admin: true)
    }
    #expect(throws: (any Error).self) {
      try fixture.psql("INSERT INTO ootd.team_members (team, member, role) VALUES ('\(team)', '\(dave)', 'admin')", as: carol)
    }
    // (Through the schema's function: members hold no DELETE, which would let them lock the table.)
    #expect(try fixture.psql("SELECT ootd.remove_from_team('\(team)', '\(fixture.alice)')", as: carol) == ["f"])
    #expect(try fixture.psql("SELECT ootd.remove_from_team('\(team)', '\(fixture.bob)')", as: carol) == ["t"])
    #expect(try alice.board(team, through: Day(year: 2026, month: 11, day: 1)!).map(\.role).sorted() == [fixture.alice, carol].sorted())

    // Nobody joins uninvited.
    let other = fixture.cluster.uniqueName("other")
    try bob.createTeam(other)
    #expect(throws: RemoteError.self) { try alice.join(other) }
    #expect(throws: (any Error).self) {
      try fixture.psql("INSERT INTO ootd.team_members (team, member, role, joined) VALUES ('\(other)', current_user, 'member', true)", as: fixture.alice)
    }
  }

  @Test("RemoteServer refuses a server without the schema and a role outside ootd_member")
  func refusals() throws {
    let fixture = try ServerFixture(initialise: false)
    #expect(throws: RemoteError.noSchema) { try fixture.server(fixture.alice) }
    try RemoteSchema.migrate(fixture.connect(PostgresCluster.admin))
    #expect(throws: RemoteError.notMember(role: fixture.stranger)) { try fixture.server(fixture.stranger) }
    _ = try fixture.server(fixture.alice)
  }

  @Test("a sync's opening registers the device, reads the server's clock and the first page, as the separate calls do")
  func openSync() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    try alice.push((1...5).map { record($0) })
    var readings: [Date] = []
    let opening = try alice.openSync(device: "d1", after: 0, limit: 3) {
      // Any instants do: the opening hands back the ones its clock gave, in order.
      readings.append(Date(timeIntervalSince1970: 1_800_000_000 + Double(readings.count)))
      return readings.last!
    }
    #expect(opening.firstPage.map(\.record) == (1...3).map { record($0) })
    #expect(opening.firstPage.map(\.seq) == (try alice.pull(after: 0, limit: 3)).map(\.seq))
    #expect(readings.count == 2 && opening.sentAt == readings[0] && opening.answeredAt == readings[1])
    let serverTime = try #require(opening.serverTime)
    #expect(abs(serverTime.timeIntervalSinceNow) < 3600)  // real clock: PostgreSQL's against this machine's
    let device = try #require(try alice.devices().first)
    #expect(device.device == "d1" && device.lastSync != nil)
    // Past the last record: an empty page; again for the same device: still one device.
    let last = opening.firstPage.last!.seq
    #expect(try alice.openSync(device: "d1", after: last + 2, limit: 3, clock: nil).firstPage.isEmpty)
    #expect(try alice.devices().map(\.device) == ["d1"])
  }

  @Test("the key record read with the server's opening checks is the stored one, and a write reads it again")
  func openingKeyRecord() throws {
    let fixture = try ServerFixture()
    let record = ServerKeyRecord(
      keyID: UUID().uuidString.lowercased(), salt: "salt", opsLimit: 2, memLimit: 8192, wrappedKey: "wrapped")
    let first = try fixture.server(fixture.alice)
    #expect(try first.keyRecord() == nil)
    #expect(try first.createKeyRecord(record) == record)
    // A connection made as `remote sync` makes it: the checks and the key in its set-up's round trip.
    let connection = try PostgresConnection(
      uri: fixture.cluster.uri(role: fixture.alice, database: fixture.database), prefetching: RemoteServer.openingStatements)
    let second = try RemoteServer(connection: connection)
    #expect(try second.keyRecord() == record)
    #expect(try second.keyRecord() == record)
    #expect(try fixture.server(fixture.bob).keyRecord() == nil)
  }

  @Test("init is idempotent and migrates a version 1 schema, keeping its data")
  func migration() throws {
    let fixture = try ServerFixture(initialise: false)
    let admin = try fixture.connect(PostgresCluster.admin)
    #expect(try RemoteSchema.migrate(admin, to: 1) == [1])
    #expect(try RemoteSchema.installedVersion(admin) == 1)
    // An ootd of version 1 pushed operations.
    #expect(throws: RemoteError.schemaOutdated(server: 1, known: RemoteSchema.currentVersion)) {
      try fixture.server(fixture.alice)
    }
    try fixture.psql(
      "INSERT INTO ootd.ops (op_id, device, clock, payload) VALUES ('\(record(1).opID)', 'laptop', 'clock-1', '{\"n\":1}')",
      as: fixture.alice)
    #expect(try RemoteSchema.migrate(admin) == Array(2...RemoteSchema.currentVersion))
    #expect(try RemoteSchema.migrate(admin) == [])
    #expect(try RemoteSchema.installedVersion(admin) == RemoteSchema.currentVersion)
    let alice = try fixture.server(fixture.alice)
    #expect(try alice.pull(after: 0, limit: 10).map(\.record) == [record(1)])
    try alice.createTeam(fixture.cluster.uniqueName("after_migration"))
  }
}
