import Core

/// A member's place in a team.
public enum TeamRole: String, Sendable, CaseIterable {
  /// Created the team; invites and removes.
  case owner
  /// Invites and removes.
  case admin
  /// Sees the board.
  case member
}

/// One member's row of a team's board: who, and the figures they published.
public struct TeamBoardMember: Sendable, Equatable {
  /// The database role.
  public var role: String
  /// The display name (the role name when none was set).
  public var name: String
  /// The figures they published up to the board's end, oldest first.
  public var figures: [DayFigure]
  /// Whether this is the row of the role viewing the board.
  public var isViewer: Bool

  public init(role: String, name: String, figures: [DayFigure], isViewer: Bool = false) {
    self.role = role
    self.name = name
    self.figures = figures
    self.isViewer = isViewer
  }
}

/// Teams: a group of roles that see each other's day figures. Every rule is enforced by the
/// server's row-level security (schema version 2); these methods turn its refusals into clear
/// messages.
///
/// - `createTeam`: any member; the creator becomes its owner (and a joined member).
/// - `invite`: an owner or admin names a person's database role in `ootd_member` (version 6:
///   never a superuser nor the schema's owner); the invitation gives nothing until that role
///   runs `join`.
/// - `join`: accepts an invitation.
/// - `leave`: takes the role out (its figures stay its own; the team stops seeing them).
/// - `board`: only joined members see it.
extension RemoteServer {
  /// Creates `team` with the connection's role as its owner.
  public func createTeam(_ team: String) throws(RemoteError) {
    do {
      try connection.transaction { () throws in
        try connection.execute("INSERT INTO ootd.teams (name) VALUES ($1)", [team])
        try connection.execute(
          "INSERT INTO ootd.team_members (team, member, role, joined) VALUES ($1, current_user, 'owner', true)",
          [team])
      }
    } catch RemoteError.server(let state, _) where state == "23505" {
      throw .refused("a team named '\(team)' already exists")
    } catch RemoteError.server(let state, _) where state == "23514" {
      throw .refused("'\(team)' is not a team name: use letters, digits, '.', '_' and '-' (at most 63)")
    } catch let error as RemoteError {
      throw error
    } catch {
      throw .refused(String(describing: error))
    }
  }

  /// The refusal of a team command by a role that is not in `team` (or asks of a team there
  /// is not: the server does not tell one from the other).
  public static func notAMember(_ team: String) -> String {
    "you are not a member of team '\(team)' ('ootd team list' shows your teams and invitations)"
  }

  /// Invites the database role `role` into `team` (as an admin when `admin`). Only a person's
  /// role may be invited, by the server's rule (`ootd.invitable`, schema version 6, which a
  /// trigger enforces for any client): it must exist, log in and be in `ootd_member`, and be
  /// neither a superuser, nor a role that bypasses row-level security, nor the schema's owner.
  public func invite(_ role: String, to team: String, admin: Bool = false) throws(RemoteError) {
    let verdict = try connection.query("SELECT ootd.invitable($1)", [role]).rows.first?.first ?? nil
    switch verdict {
    case "ok"?: break
    case "no-role"?: throw .refused("there is no database role '\(role)'")
    case "superuser"?:
      throw .refused("'\(role)' is a superuser of the server, not a person's role: invite the role the person connects with")
    case "bypassrls"?:
      throw .refused("'\(role)' bypasses row-level security (it reads every member's rows), not a person's role: invite the role the person connects with")
    case "owner"?:
      throw .refused("'\(role)' owns the server's ootd schema, not a person's role: invite the role the person connects with")
    case "cannot-login"?:
      throw .refused("the role '\(role)' cannot log in (NOLOGIN): invite a person's login role")
    default: throw .refused("the role '\(role)' is not a member of ootd_member")
    }
    let mine = try myRole(in: team)
    guard mine == .owner || mine == .admin else {
      throw .refused(
        mine == nil
          ? Self.notAMember(team)
          : "only an owner or admin of team '\(team)' can invite")
    }
    if role == connection.role { throw .refused("you are already in team '\(team)'") }
    if admin && mine != .owner { throw .refused("only an owner of team '\(team)' can invite an admin") }
    do {
      try connection.execute(
        "INSERT INTO ootd.team_members (team, member, role) VALUES ($1, $2, $3)",
        [team, role, admin ? "admin" : "member"])
    } catch RemoteError.server(let state, _) where state == "23505" {
      let joined = try connection.query(
        "SELECT joined FROM ootd.team_members WHERE team = $1 AND member = $2", [team, role]
      ).rows.first?.first ?? nil
      throw .refused(
        joined == "t"
          ? "'\(role)' is already a member of team '\(team)'"
          : "'\(role)' is already invited to team '\(team)' (they join with 'ootd team join \(team)')")
    }
  }

  /// Accepts the invitation to `team`. Returns false when the role had joined already.
  @discardableResult
  public func join(_ team: String) throws(RemoteError) -> Bool {
    let rows = try connection.query(
      "SELECT joined FROM ootd.team_members WHERE team = $1 AND member = current_user", [team])
    guard let joined = rows.rows.first?.first else {
      throw .refused("you have no invitation to team '\(team)': ask its owner to run 'ootd team invite \(team) \(connection.role)'")
    }
    if joined == "t" { return false }
    try connection.execute(
      "UPDATE ootd.team_members SET joined = true WHERE team = $1 AND member = current_user", [team])
    return true
  }

  /// Leaves `team` (or declines its invitation). The last owner cannot leave (the server
  /// refuses it too): the team would be left with nobody who can invite or promote.
  public func leave(_ team: String) throws(RemoteError) {
    if try myRole(in: team) == .owner, try ownerCount(of: team) <= 1 {
      throw .refused(
        "you are the last owner of team '\(team)': make another member an owner first ('ootd team promote \(team) MEMBER'), or delete the team ('ootd team delete \(team)')")
    }
    // Members hold no DELETE privilege (it would let them lock the table): the schema's
    // function deletes the caller's own membership only.
    let rows = try connection.query("SELECT ootd.remove_from_team($1, current_user)", [team])
    guard rows.rows.first?.first == "t" else { throw .refused(Self.notAMember(team)) }
  }

  /// How many joined owners `team` has (as far as the connection's role may see it).
  func ownerCount(of team: String) throws(RemoteError) -> Int {
    let rows = try connection.query(
      "SELECT count(*) FROM ootd.team_members WHERE team = $1 AND role = 'owner' AND joined", [team])
    return rows.rows.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
  }

  /// Makes `member`, who has joined `team`, an owner of it (only an owner may). Returns false
  /// when it already was one.
  @discardableResult
  public func promote(_ member: String, in team: String) throws(RemoteError) -> Bool {
    let rows = try connection.query("SELECT ootd.promote_in_team($1, $2)", [team, member])
    switch rows.rows.first?.first ?? nil {
    case "promoted"?: return true
    case "already"?: return false
    case "not-joined"?:
      throw .refused("'\(member)' has not joined team '\(team)': only a member who has joined can be made an owner")
    default:
      throw .refused(try myRole(in: team) == nil
        ? Self.notAMember(team) : "only an owner of team '\(team)' can make another member an owner")
    }
  }

  /// Deletes `team` with its memberships and invitations (only an owner may); every member's
  /// figures stay their own.
  public func deleteTeam(_ team: String) throws(RemoteError) {
    let rows = try connection.query("SELECT ootd.delete_team($1)", [team])
    guard rows.rows.first?.first == "deleted" else {
      throw .refused(try myRole(in: team) == nil
        ? Self.notAMember(team) : "only an owner of team '\(team)' can delete it")
    }
  }

  /// Whether the connection's role is invited to `team` and has not joined yet.
  public func hasPendingInvitation(to team: String) throws(RemoteError) -> Bool {
    let rows = try connection.query(
      "SELECT 1 FROM ootd.team_members WHERE team = $1 AND member = current_user AND NOT joined", [team])
    return !rows.rows.isEmpty
  }

  /// The connection's role in `team`, or nil when it has not joined.
  public func myRole(in team: String) throws(RemoteError) -> TeamRole? {
    let rows = try connection.query("SELECT role FROM ootd.my_teams WHERE team = $1", [team])
    return rows.rows.first?.first.flatMap { $0 }.flatMap(TeamRole.init(rawValue:))
  }

  /// One team the connection's role belongs to or is invited to (``memberships()``).
  public struct Membership: Equatable, Sendable {
    public var team: String
    /// Its role there (the one it is invited as, until it joins).
    public var role: TeamRole
    /// Whether it has joined (false: an invitation it has not accepted).
    public var joined: Bool
    /// The role that invited it (the creator for its own team).
    public var invitedBy: String
  }

  /// The teams the connection's role has joined or is invited to, by name: the rows of
  /// `ootd.team_members` that are its own (the row policy lets it read them).
  public func memberships() throws(RemoteError) -> [Membership] {
    try connection.query(
      "SELECT team, role, joined::text, invited_by FROM ootd.team_members WHERE member = current_user ORDER BY team"
    ).rows.compactMap { row in
      guard let team = row[0], let role = row[1].flatMap(TeamRole.init(rawValue:)) else { return nil }
      return Membership(team: team, role: role, joined: row[2] == "true", invitedBy: row[3] ?? "")
    }
  }

  /// The teams the connection's role has joined, by name.
  public func teams() throws(RemoteError) -> [(team: String, role: TeamRole)] {
    try connection.query("SELECT team, role FROM ootd.my_teams ORDER BY team").rows.compactMap { row in
      guard let team = row[0], let role = row[1].flatMap(TeamRole.init(rawValue:)) else { return nil }
      return (team, role)
    }
  }

  /// The joined members of `team` with the figures they published up to `through`, by display
  /// name. Only a joined member may ask.
  public func board(_ team: String, through: Day) throws(RemoteError) -> [TeamBoardMember] {
    guard try myRole(in: team) != nil else {
      if try hasPendingInvitation(to: team) {
        throw .refused(
          "you are not a member of team '\(team)' yet: you are invited; 'ootd team join \(team)' accepts the invitation")
      }
      throw .refused(Self.notAMember(team))
    }
    let members = try connection.query(
      """
      SELECT tm.member, coalesce(m.display_name, tm.member::text) AS name
      FROM ootd.team_members tm LEFT JOIN ootd.members m ON m.owner = tm.member
      WHERE tm.team = $1 AND tm.joined ORDER BY 2, 1
      """, [team])
    let figures = try connection.query(
      """
      SELECT f.owner, f.day::text, f.total, f.done, f.commits
      FROM ootd.day_figures f JOIN ootd.team_members tm ON tm.member = f.owner
      WHERE tm.team = $1 AND tm.joined AND f.day <= $2::date ORDER BY f.owner, f.day
      """, [team, through.description])
    var byOwner: [String: [DayFigure]] = [:]
    for row in figures.rows {
      guard let owner = row[0], let day = row[1].flatMap(Day.init(iso:)) else { continue }
      byOwner[owner, default: []].append(
        DayFigure(
          date: day, total: Int(row[2] ?? "") ?? 0, done: Int(row[3] ?? "") ?? 0,
          commits: row[4].flatMap { Int($0) }))
    }
    return members.rows.compactMap { row in
      guard let role = row[0] else { return nil }
      return TeamBoardMember(
        role: role, name: row[1] ?? role, figures: byOwner[role] ?? [], isViewer: role == connection.role)
    }
  }
}
