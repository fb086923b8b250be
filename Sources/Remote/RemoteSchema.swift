/// The server's schema `ootd`, built by numbered steps that `ootd remote init` applies in order.
///
/// `ootd.schema_version` records each applied step, so `init` is idempotent and migrates an older
/// server: it applies the steps after the highest recorded one, each in its own transaction
/// under an advisory lock (two `init`s at once do not race). Steps are append-only: a later ootd
/// adds step 3, never edits 1 or 2.
///
/// Access control is PostgreSQL's own: every person is a login role in the group role
/// `ootd_member`; row-level security lets a role read and write only its own personal rows
/// (`ops`, `devices`, `members`, `day_figures`), and read the day figures and display names of
/// the people it shares a team with. `ops`, `devices` and `day_figures` also FORCE row-level
/// security, so even the schema's owner sees only its own rows there through ootd.
public enum RemoteSchema {
  /// The schema version this ootd writes and expects.
  public static var currentVersion: Int { steps.count }

  /// The steps, version 1 first.
  public static let steps: [String] = [version1, version2, version3, version4, version5, version6]

  /// Creates the schema or migrates it to `version` (default: the newest), on a connection whose
  /// role may create schemas and roles. Returns the versions it applied (empty when the server
  /// was up to date).
  @discardableResult
  public static func migrate(_ connection: PostgresConnection, to version: Int = currentVersion)
    throws(RemoteError) -> [Int]
  {
    var applied: [Int] = []
    for step in 1...version {
      let didApply: Bool
      do {
        didApply = try connection.transaction { () throws -> Bool in
          // One init at a time; the lock ends with the transaction.
          try connection.execute("SELECT pg_advisory_xact_lock(hashtext('ootd.remote-init'))")
          let current = try installedVersion(connection) ?? 0
          if current > currentVersion {
            throw RemoteError.schemaTooNew(server: current, known: currentVersion)
          }
          guard current < step else { return false }
          try connection.execute(preamble)
          try connection.execute(steps[step - 1])
          try connection.execute(
            "INSERT INTO ootd.schema_version (version) VALUES ($1)", [String(step)])
          return true
        }
      } catch let error as RemoteError {
        throw error
      } catch {
        throw RemoteError.refused(String(describing: error))
      }
      if didApply { applied.append(step) }
    }
    return applied
  }

  /// Whether the version table exists, as an SQL expression. The catalogs, not to_regclass: a
  /// role without USAGE on the schema may still ask.
  static let versionTableExists = """
    EXISTS (SELECT 1 FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'ootd' AND c.relname = 'schema_version')
    """

  /// The highest applied step, or nil when the server has no ootd schema. `tableExists`: the
  /// caller asked ``versionTableExists`` already, with other checks, and it was true.
  public static func installedVersion(_ connection: PostgresConnection, tableExists: Bool = false) throws(RemoteError)
    -> Int?
  {
    if !tableExists {
      let exists = try connection.query("SELECT \(versionTableExists)")
      guard exists.rows.first?.first == "t" else { return nil }
    }
    let rows = try connection.query("SELECT coalesce(max(version), 0) FROM ootd.schema_version")
    return rows.rows.first?.first.flatMap { $0 }.flatMap { Int($0) }
  }

  /// What every step needs first: the schema, the group role and the version table.
  static let preamble = """
    CREATE SCHEMA IF NOT EXISTS ootd;
    DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'ootd_member') THEN
        CREATE ROLE ootd_member NOLOGIN;
      END IF;
    END $$;
    GRANT USAGE ON SCHEMA ootd TO ootd_member;
    CREATE TABLE IF NOT EXISTS ootd.schema_version (
      version int PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    GRANT SELECT ON ootd.schema_version TO ootd_member;
    """

  /// Version 1: personal data. The journal's operations (opaque to the server), devices, display
  /// names and the per-day figures a team may see.
  static let version1 = """
    CREATE TABLE ootd.members (
      owner name PRIMARY KEY DEFAULT current_user,
      display_name text CHECK (display_name IS NULL OR length(display_name) BETWEEN 1 AND 100),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ootd.ops (
      seq bigserial PRIMARY KEY,
      owner name NOT NULL DEFAULT current_user,
      op_id uuid NOT NULL,
      device text NOT NULL,
      clock text NOT NULL,
      payload text NOT NULL,
      pushed_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (owner, op_id)
    );
    CREATE INDEX ops_owner_seq ON ootd.ops (owner, seq);
    CREATE TABLE ootd.devices (
      owner name NOT NULL DEFAULT current_user,
      device text NOT NULL,
      name text,
      last_sync timestamptz,
      PRIMARY KEY (owner, device)
    );
    CREATE TABLE ootd.day_figures (
      owner name NOT NULL DEFAULT current_user,
      day date NOT NULL,
      total int NOT NULL CHECK (total >= 0),
      done int NOT NULL CHECK (done >= 0 AND done <= total),
      commits int CHECK (commits >= 0),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (owner, day)
    );

    -- A puller reads `seq > cursor`. bigserial values are taken in insert order but committed in
    -- any order, so a push committing late could hide below a cursor already passed. Pushes of
    -- one owner therefore take a transaction-level advisory lock before any row (and its seq) is
    -- made: the owner's seqs become visible in seq order. Enforced here, not by the client.
    CREATE FUNCTION ootd.serialise_push() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('ootd.ops'), pg_catalog.hashtext(current_user));
      RETURN NULL;
    END $f$;
    CREATE TRIGGER ops_serialise BEFORE INSERT ON ootd.ops
      FOR EACH STATEMENT EXECUTE FUNCTION ootd.serialise_push();

    ALTER TABLE ootd.ops ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ootd.ops FORCE ROW LEVEL SECURITY;
    CREATE POLICY ops_own ON ootd.ops USING (owner = current_user) WITH CHECK (owner = current_user);
    ALTER TABLE ootd.devices ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ootd.devices FORCE ROW LEVEL SECURITY;
    CREATE POLICY devices_own ON ootd.devices USING (owner = current_user) WITH CHECK (owner = current_user);
    ALTER TABLE ootd.members ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ootd.members FORCE ROW LEVEL SECURITY;
    CREATE POLICY members_own ON ootd.members USING (owner = current_user) WITH CHECK (owner = current_user);
    ALTER TABLE ootd.day_figures ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ootd.day_figures FORCE ROW LEVEL SECURITY;
    CREATE POLICY figures_own ON ootd.day_figures USING (owner = current_user) WITH CHECK (owner = current_user);

    -- The journal is append-only: no UPDATE or DELETE.
    GRANT SELECT, INSERT ON ootd.ops TO ootd_member;
    GRANT USAGE ON SEQUENCE ootd.ops_seq_seq TO ootd_member;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ootd.devices, ootd.members, ootd.day_figures TO ootd_member;
    REVOKE ALL ON FUNCTION ootd.serialise_push() FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.serialise_push() TO ootd_member;
    """

  /// Version 2: teams. A team has members with a role (`owner`, `admin`, `member`); an owner or
  /// admin invites a database role, which becomes a member when it joins. Joined members read
  /// each other's day figures and display names, nothing else.
  ///
  /// The policies read membership through views owned by the schema's owner (views check the
  /// tables with their owner's rights, so a policy on `team_members` can use one without
  /// recursing). `team_members` is not FORCEd for that reason; the owner role should not be a
  /// person's role.
  static let version2 = """
    CREATE TABLE ootd.teams (
      name text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'),
      created_by name NOT NULL DEFAULT current_user,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ootd.team_members (
      team text NOT NULL REFERENCES ootd.teams (name) ON DELETE CASCADE,
      member name NOT NULL,
      role text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member')),
      joined boolean NOT NULL DEFAULT false,
      invited_by name NOT NULL DEFAULT current_user,
      PRIMARY KEY (team, member)
    );
    CREATE INDEX team_members_member ON ootd.team_members (member);

    -- Teams the current role has joined, with its role there.
    CREATE VIEW ootd.my_teams WITH (security_barrier) AS
      SELECT team, role FROM ootd.team_members WHERE member = current_user AND joined;
    -- Teams the current role is invited to or has joined.
    CREATE VIEW ootd.my_invitations WITH (security_barrier) AS
      SELECT team FROM ootd.team_members WHERE member = current_user;
    -- Roles that share a joined team with the current role (itself included).
    CREATE VIEW ootd.teammates WITH (security_barrier) AS
      SELECT DISTINCT other.member FROM ootd.team_members mine
      JOIN ootd.team_members other ON other.team = mine.team
      WHERE mine.member = current_user AND mine.joined AND other.joined;

    ALTER TABLE ootd.teams ENABLE ROW LEVEL SECURITY;
    CREATE POLICY teams_read ON ootd.teams FOR SELECT
      USING (created_by = current_user OR name IN (SELECT team FROM ootd.my_invitations));
    CREATE POLICY teams_create ON ootd.teams FOR INSERT WITH CHECK (created_by = current_user);

    ALTER TABLE ootd.team_members ENABLE ROW LEVEL SECURITY;
    CREATE POLICY team_members_read ON ootd.team_members FOR SELECT
      USING (member = current_user OR team IN (SELECT team FROM ootd.my_teams));
    -- The creator adds itself as owner; an owner or admin invites members, an owner admins
    -- (always with joined = false: only the invited role can join).
    CREATE POLICY team_members_add ON ootd.team_members FOR INSERT WITH CHECK (
      (member = current_user AND role = 'owner' AND joined
        AND team IN (SELECT name FROM ootd.teams WHERE created_by = current_user))
      OR (NOT joined AND invited_by = current_user
        AND ((role = 'member' AND team IN (SELECT team FROM ootd.my_teams WHERE role IN ('owner', 'admin')))
          OR (role = 'admin' AND team IN (SELECT team FROM ootd.my_teams WHERE role = 'owner')))));
    -- Joining: a role flips its own invitation (only the `joined` column may be updated).
    CREATE POLICY team_members_join ON ootd.team_members FOR UPDATE
      USING (member = current_user) WITH CHECK (member = current_user);
    -- Leaving, or taking someone out: an owner anyone, an admin members and invitations.
    CREATE POLICY team_members_remove ON ootd.team_members FOR DELETE USING (
      member = current_user
      OR team IN (SELECT team FROM ootd.my_teams WHERE role = 'owner')
      OR (role = 'member' AND team IN (SELECT team FROM ootd.my_teams WHERE role = 'admin')));

    CREATE POLICY figures_team ON ootd.day_figures FOR SELECT
      USING (owner IN (SELECT member FROM ootd.teammates));
    CREATE POLICY members_team ON ootd.members FOR SELECT
      USING (owner IN (SELECT member FROM ootd.teammates));

    GRANT SELECT, INSERT ON ootd.teams TO ootd_member;
    GRANT SELECT, INSERT, DELETE ON ootd.team_members TO ootd_member;
    GRANT UPDATE (joined) ON ootd.team_members TO ootd_member;
    GRANT SELECT ON ootd.my_teams, ootd.my_invitations, ootd.teammates TO ootd_member;
    """

  /// Version 3: no member can take a lock that blocks another member, and display names are
  /// unique.
  ///
  /// - `LOCK TABLE` in a mode that blocks others needs a table-wide UPDATE, DELETE or TRUNCATE
  ///   privilege (INSERT allows only ROW EXCLUSIVE, which no statement of ootd waits for;
  ///   column privileges do not count). Members keep UPDATE on the columns an upsert sets
  ///   (`INSERT … ON CONFLICT DO UPDATE` needs no more), and lose DELETE: taking a member out of a
  ///   team (leaving it) goes through `ootd.remove_from_team`, which keeps the rules of the
  ///   `team_members_remove` policy for the calling role.
  /// - The push turn was an advisory lock whose key anyone could compute from a role name (and
  ///   see in pg_locks). It is now a row lock on the pusher's own row of `push_turns`: row-level
  ///   security lets a role see, insert and lock only its own row, so no one can hold another's.
  /// - `members.name_key` holds the display name (or, without one, the role name) folded; a
  ///   unique index refuses a second member under the same key, whatever team they share. Here
  ///   the client computed the key, and a member could write any: version 6 derives it on the
  ///   server.
  static let version3 = """
    REVOKE UPDATE, DELETE, TRUNCATE ON ootd.devices, ootd.members, ootd.day_figures FROM ootd_member;
    GRANT UPDATE (name, last_sync) ON ootd.devices TO ootd_member;
    GRANT UPDATE (total, done, commits, updated_at) ON ootd.day_figures TO ootd_member;

    ALTER TABLE ootd.members ADD COLUMN name_key text
      CHECK (name_key IS NULL OR length(name_key) BETWEEN 1 AND 400);
    CREATE UNIQUE INDEX members_name_key ON ootd.members (name_key);
    GRANT UPDATE (display_name, name_key, updated_at) ON ootd.members TO ootd_member;

    -- Taking a member out keeps the rules of team_members_remove (oneself; an owner anyone; an
    -- admin members and invitations), checked here for the calling role: session_user, as in a
    -- SECURITY DEFINER function current_user is the schema's owner.
    REVOKE DELETE, TRUNCATE ON ootd.team_members FROM ootd_member;
    CREATE FUNCTION ootd.remove_from_team(team_name text, member_name name) RETURNS boolean
      LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
      WITH mine AS (
        SELECT role FROM ootd.team_members
        WHERE team = team_name AND member = session_user AND joined
      ), gone AS (
        DELETE FROM ootd.team_members t WHERE t.team = team_name AND t.member = member_name
          AND (member_name = session_user
            OR EXISTS (SELECT 1 FROM mine WHERE role = 'owner')
            OR (t.role = 'member' AND EXISTS (SELECT 1 FROM mine WHERE role = 'admin')))
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM gone)
    $f$;
    REVOKE ALL ON FUNCTION ootd.remove_from_team(text, name) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.remove_from_team(text, name) TO ootd_member;

    CREATE TABLE ootd.push_turns (owner name PRIMARY KEY DEFAULT current_user);
    ALTER TABLE ootd.push_turns ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ootd.push_turns FORCE ROW LEVEL SECURITY;
    CREATE POLICY push_turns_own ON ootd.push_turns
      USING (owner = current_user) WITH CHECK (owner = current_user);
    -- SELECT … FOR UPDATE needs UPDATE on a column; nothing ever updates the row.
    GRANT SELECT, INSERT, UPDATE (owner) ON ootd.push_turns TO ootd_member;
    CREATE OR REPLACE FUNCTION ootd.serialise_push() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      INSERT INTO ootd.push_turns (owner) VALUES (current_user) ON CONFLICT (owner) DO NOTHING;
      PERFORM 1 FROM ootd.push_turns WHERE owner = current_user FOR UPDATE;
      RETURN NULL;
    END $f$;
    """

  /// Version 4: a team cannot be orphaned. A team always keeps a joined owner: the last one
  /// cannot leave nor be taken out (`remove_from_team` refuses it, for old clients too) until
  /// `promote_in_team` has made another member an owner, or `delete_team` has deleted the team.
  /// Members hold no UPDATE on `role` nor DELETE on `teams`: both go through these functions,
  /// which check the calling role (`session_user`, as in `remove_from_team`) is a joined owner.
  static let version4 = """
    CREATE OR REPLACE FUNCTION ootd.remove_from_team(team_name text, member_name name) RETURNS boolean
      LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
      WITH mine AS (
        SELECT role FROM ootd.team_members
        WHERE team = team_name AND member = session_user AND joined
      ), owners AS (
        SELECT count(*) AS n FROM ootd.team_members WHERE team = team_name AND role = 'owner' AND joined
      ), gone AS (
        DELETE FROM ootd.team_members t WHERE t.team = team_name AND t.member = member_name
          AND (member_name = session_user
            OR EXISTS (SELECT 1 FROM mine WHERE role = 'owner')
            OR (t.role = 'member' AND EXISTS (SELECT 1 FROM mine WHERE role = 'admin')))
          AND NOT (t.role = 'owner' AND t.joined AND (SELECT n FROM owners) <= 1)
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM gone)
    $f$;

    -- 'promoted', 'already', 'not-owner' (the caller is no joined owner) or 'not-joined' (the
    -- member has not joined the team).
    CREATE FUNCTION ootd.promote_in_team(team_name text, member_name name) RETURNS text
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE current text;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM ootd.team_members
          WHERE team = team_name AND member = session_user AND joined AND role = 'owner') THEN
        RETURN 'not-owner';
      END IF;
      SELECT role INTO current FROM ootd.team_members
        WHERE team = team_name AND member = member_name AND joined FOR UPDATE;
      IF current IS NULL THEN RETURN 'not-joined'; END IF;
      IF current = 'owner' THEN RETURN 'already'; END IF;
      UPDATE ootd.team_members SET role = 'owner' WHERE team = team_name AND member = member_name;
      RETURN 'promoted';
    END $f$;
    REVOKE ALL ON FUNCTION ootd.promote_in_team(text, name) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.promote_in_team(text, name) TO ootd_member;

    -- 'deleted' or 'not-owner'. The members' figures stay theirs; the team and its
    -- memberships and invitations go.
    CREATE FUNCTION ootd.delete_team(team_name text) RETURNS text
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM ootd.team_members
          WHERE team = team_name AND member = session_user AND joined AND role = 'owner') THEN
        RETURN 'not-owner';
      END IF;
      DELETE FROM ootd.teams WHERE name = team_name;
      RETURN 'deleted';
    END $f$;
    REVOKE ALL ON FUNCTION ootd.delete_team(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.delete_team(text) TO ootd_member;
    """

  /// Version 5: end-to-end encryption (docs/decisions/encryption.md). `keys` holds one row per
  /// person: their data key wrapped under a key derived from their passphrase (Argon2id, the
  /// salt and cost beside it), named by a random uuid. The server cannot unwrap it; a machine
  /// proves a passphrase by unwrapping it before it pulls anything. Like the other personal
  /// tables it is row-level secured and FORCEd: a role sees and writes only its own row, and
  /// members hold UPDATE only on the columns `remote rekey` rewrites (never the key id), no DELETE.
  static let version5 = """
    CREATE TABLE ootd.keys (
      owner name PRIMARY KEY DEFAULT current_user,
      key_id uuid NOT NULL,
      salt text NOT NULL CHECK (length(salt) <= 64),
      ops_limit bigint NOT NULL CHECK (ops_limit > 0),
      mem_limit bigint NOT NULL CHECK (mem_limit > 0),
      wrapped_key text NOT NULL CHECK (length(wrapped_key) <= 256),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE ootd.keys ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ootd.keys FORCE ROW LEVEL SECURITY;
    CREATE POLICY keys_own ON ootd.keys USING (owner = current_user) WITH CHECK (owner = current_user);
    GRANT SELECT, INSERT ON ootd.keys TO ootd_member;
    GRANT UPDATE (salt, ops_limit, mem_limit, wrapped_key, updated_at) ON ootd.keys TO ootd_member;
    """

  /// Version 6: names are unique by the server's rule, and only people are invited.
  ///
  /// - `members.name_key` was computed by the client and writable by the member, so `UPDATE
  ///   ootd.members SET display_name = 'Ana', name_key = 'anything'` put a second "Ana" on a
  ///   board. The server now derives it: a trigger sets it from the display name (or, without
  ///   one, the role name) with `ootd.name_key`, whatever the statement says, and members hold no
  ///   INSERT nor UPDATE privilege on the column. The trigger also refuses a display name folding
  ///   like another member's role name (a member without a display name shows it), with the
  ///   unique index's own SQLSTATE, so that clients read both refusals as one.
  /// - `ootd.name_key` folds as ootd's clients did (NFKC, lowercase, runs of white space as one
  ///   space, ends trimmed), with PostgreSQL's own functions. Lowercasing follows a collation:
  ///   the database's default may be `C`, which lowercases ASCII only, so the step picks, once,
  ///   ICU's root locale (`und-x-icu`: the same mapping as the clients' Swift, except that a
  ///   final capital sigma lowers to ς) when the server has ICU, else libc's `C.utf8`, else the
  ///   database's default. NFKC needs a UTF-8 database and PostgreSQL 13 (`normalize`): in
  ///   another encoding, or on PostgreSQL 12, it is left out (names then fold by case and white
  ///   space only). The choice is written into the function, so a dump restored elsewhere needs
  ///   the same collation.
  /// - Existing rows get keys by the new rule. Keys differing from it (a forged key, or an edge
  ///   case of the old fold) may now clash: the first claim keeps the name, in this order: a
  ///   member without a display name (its role name is its own), then a row whose stored key
  ///   already was the server's derivation (an honest client's), then the earlier `updated_at`.
  ///   A later claim (or a display name folding like another member's role name) loses its
  ///   display name: the member shows as its role name until it chooses another name (its next
  ///   sync says the name is taken). A role name folding like an earlier row's key keeps no key
  ///   (NULL: the index allows several) until the member sets a display name. Nothing fails.
  /// - `ootd.invitable(role)` says whether a role may be invited: it must exist, log in, belong
  ///   to `ootd_member`, and be a person's role: not a superuser nor a role that bypasses
  ///   row-level security (they see every member's rows; `pg_has_role` also says a superuser is
  ///   in every group), nor the owner of the `ootd` schema. A trigger on `team_members` refuses
  ///   any other invitation, made through `psql` too; the client asks the function first, to say
  ///   why. Invitations made before this step are left as they are.
  static let version6 = """
    DO $step$
    DECLARE
      fold_collation text := coalesce(
        (SELECT collname FROM pg_catalog.pg_collation WHERE collname = 'und-x-icu' LIMIT 1),
        (SELECT collname FROM pg_catalog.pg_collation WHERE collname = 'C.utf8'
          AND collencoding IN (-1, pg_catalog.pg_char_to_encoding(pg_catalog.getdatabaseencoding())) LIMIT 1),
        'default');
      composed text := CASE WHEN pg_catalog.getdatabaseencoding() = 'UTF8'
          AND pg_catalog.to_regprocedure('pg_catalog.normalize(text, text)') IS NOT NULL
        THEN 'pg_catalog.normalize(display, ''NFKC'')' ELSE 'display' END;
    BEGIN
      EXECUTE pg_catalog.format($f$
        CREATE FUNCTION ootd.name_key(display text) RETURNS text
          LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $body$
          SELECT pg_catalog.btrim(pg_catalog.regexp_replace(pg_catalog.lower(%s COLLATE %I),
            '[ \\t\\n\\v\\f\\r\\u0085\\u1680\\u2028\\u2029]+', ' ', 'g'), ' ')
        $body$
        $f$, composed, fold_collation);
    END $step$;
    REVOKE ALL ON FUNCTION ootd.name_key(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.name_key(text) TO ootd_member;

    -- Whether a display name folding to `key` would be another member's role name.
    CREATE FUNCTION ootd.is_other_role_name(key text, member_name name) RETURNS boolean
      LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
      SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
        WHERE r.rolname <> member_name AND pg_catalog.pg_has_role(r.oid, 'ootd_member', 'MEMBER')
          AND ootd.name_key(r.rolname::text) = key)
    $f$;
    REVOKE ALL ON FUNCTION ootd.is_other_role_name(text, name) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.is_other_role_name(text, name) TO ootd_member;

    -- The existing keys, by the new rule (the order is the doc comment's). The rows of every
    -- member: the schema's owner is held to row-level security here until the end of the loop.
    ALTER TABLE ootd.members NO FORCE ROW LEVEL SECURITY;
    DO $step$
    DECLARE r record; own text;
    BEGIN
      UPDATE ootd.members SET name_key = NULL;
      FOR r IN
        SELECT owner, display_name, ootd.name_key(coalesce(display_name, owner::text)) AS key
        FROM ootd.members
        ORDER BY display_name IS NOT NULL,
          name_key IS DISTINCT FROM ootd.name_key(coalesce(display_name, owner::text)), updated_at, owner
      LOOP
        IF r.display_name IS NOT NULL AND (ootd.is_other_role_name(r.key, r.owner)
            OR EXISTS (SELECT 1 FROM ootd.members WHERE name_key = r.key)) THEN
          own := ootd.name_key(r.owner::text);
          UPDATE ootd.members SET display_name = NULL,
            name_key = CASE WHEN EXISTS (SELECT 1 FROM ootd.members WHERE name_key = own) THEN NULL ELSE own END
          WHERE owner = r.owner;
        ELSIF NOT EXISTS (SELECT 1 FROM ootd.members WHERE name_key = r.key) THEN
          UPDATE ootd.members SET name_key = r.key WHERE owner = r.owner;
        END IF;
      END LOOP;
    END $step$;
    ALTER TABLE ootd.members FORCE ROW LEVEL SECURITY;

    CREATE FUNCTION ootd.derive_name_key() RETURNS trigger
      LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
      NEW.name_key := ootd.name_key(coalesce(NEW.display_name, NEW.owner::text));
      IF NEW.display_name IS NOT NULL AND ootd.is_other_role_name(NEW.name_key, NEW.owner) THEN
        RAISE EXCEPTION 'the display name % folds like another member''s role name', NEW.display_name
          USING ERRCODE = 'unique_violation';
      END IF;
      RETURN NEW;
    END $f$;
    REVOKE ALL ON FUNCTION ootd.derive_name_key() FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.derive_name_key() TO ootd_member;
    CREATE TRIGGER members_name_key BEFORE INSERT OR UPDATE ON ootd.members
      FOR EACH ROW EXECUTE FUNCTION ootd.derive_name_key();
    -- The table-wide INSERT let a member name the key; revoking UPDATE revokes the column grants.
    REVOKE INSERT, UPDATE ON ootd.members FROM ootd_member;
    GRANT INSERT (display_name, updated_at), UPDATE (display_name, updated_at) ON ootd.members TO ootd_member;

    -- 'ok', 'no-role', 'superuser', 'bypassrls', 'owner' (of the ootd schema), 'cannot-login'
    -- or 'not-member' (of ootd_member). Compared as text: a `name` would cut a long one short.
    CREATE FUNCTION ootd.invitable(role_name text) RETURNS text
      LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
      SELECT CASE
        WHEN r.oid IS NULL THEN 'no-role'
        WHEN r.rolsuper THEN 'superuser'
        WHEN r.rolbypassrls THEN 'bypassrls'
        WHEN r.oid = (SELECT nspowner FROM pg_catalog.pg_namespace WHERE nspname = 'ootd') THEN 'owner'
        WHEN NOT r.rolcanlogin THEN 'cannot-login'
        WHEN NOT pg_catalog.pg_has_role(r.oid, 'ootd_member', 'MEMBER') THEN 'not-member'
        ELSE 'ok' END
      FROM (VALUES (1)) AS one (x) LEFT JOIN pg_catalog.pg_roles r ON r.rolname::text = role_name
    $f$;
    REVOKE ALL ON FUNCTION ootd.invitable(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.invitable(text) TO ootd_member;
    CREATE FUNCTION ootd.check_invitation() RETURNS trigger
      LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE verdict text;
    BEGIN
      IF NEW.member <> current_user THEN
        verdict := ootd.invitable(NEW.member::text);
        IF verdict <> 'ok' THEN
          RAISE EXCEPTION 'the role % cannot be invited (%)', NEW.member, verdict
            USING ERRCODE = 'check_violation';
        END IF;
      END IF;
      RETURN NEW;
    END $f$;
    REVOKE ALL ON FUNCTION ootd.check_invitation() FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION ootd.check_invitation() TO ootd_member;
    CREATE TRIGGER team_members_invitable BEFORE INSERT ON ootd.team_members
      FOR EACH ROW EXECUTE FUNCTION ootd.check_invitation();
    """
}
