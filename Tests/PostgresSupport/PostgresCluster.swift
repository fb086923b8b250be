import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests (see README.md beside this file).
public final class PostgresCluster: @unchecked Sendable {
  /// The superuser every cluster has; its password is ``adminPassword``.
  public static let admin = "ootd_admin"
  public static let adminPassword = "admin-secret-7f3a"

  /// The port on 127.0.0.1.
  public let port: Int
  /// The temporary folder holding the data directory, socket, log and pgpass file.
  public let folder: URL
  /// The pgpass file every ``uri(role:database:)`` points at.
  public let passfile: URL
  /// The folder with `initdb`, `pg_ctl`, `psql`.
  public let binaries: URL

  private let lock = NSLock()
  private var running = true
  private var passwords: [String: String] = [admin: adminPassword]
  private var counter = 0

  /// Why no cluster could start.
  public struct Unavailable: Error, CustomStringConvertible {
    public let description: String
  }

  // MARK: - Finding PostgreSQL

  /// The folder with PostgreSQL's server binaries, or nil when it is not installed.
  public static let binaryFolder: URL? = {
    let fileManager = FileManager.default
    if let folder = ProcessInfo.processInfo.environment["OOTD_PG_BINDIR"], !folder.isEmpty {
      return URL(fileURLWithPath: folder)
    }
    let root = "/usr/lib/postgresql"
    let versions = ((try? fileManager.contentsOfDirectory(atPath: root)) ?? [])
      .compactMap { Int($0) }.sorted(by: >)
    for version in versions {
      let folder = URL(fileURLWithPath: "\(root)/\(version)/bin")
      if fileManager.isExecutableFile(atPath: folder.appendingPathComponent("initdb").path) {
        return folder
      }
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for entry in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(entry)).appendingPathComponent("initdb")
      // /usr/local/bin/initdb may be a symlink or Debian's pg_wrapper: take the real file's folder.
      let real = candidate.resolvingSymlinksInPath()
      let folder = real.deletingLastPathComponent()
      if fileManager.isExecutableFile(atPath: real.path),
        fileManager.isExecutableFile(atPath: folder.appendingPathComponent("pg_ctl").path),
        fileManager.isExecutableFile(atPath: folder.appendingPathComponent("postgres").path)
      {
        return folder
      }
    }
    return nil
  }()

  /// Whether the PostgreSQL tests should run: PostgreSQL is installed, or CI is set (where a
  /// missing PostgreSQL must fail the run, not skip it).
  public static var available: Bool {
    binaryFolder != nil || ProcessInfo.processInfo.environment["CI"] == "true"
  }

  // MARK: - The shared cluster

  nonisolated(unsafe) private static var sharedCluster: PostgresCluster?
  private static let sharedLock = NSLock()

  /// One cluster for the whole test process, started on first use and stopped at exit. Tests
  /// sharing it use their own databases (``createDatabase()``) and role names (``uniqueName(_:)``).
  public static func shared() throws -> PostgresCluster {
    sharedLock.lock()
    defer { sharedLock.unlock() }
    if let sharedCluster, sharedCluster.isRunning { return sharedCluster }
    let cluster = try PostgresCluster()
    sharedCluster = cluster
    atexit {
      PostgresCluster.sharedCluster?.stop()
    }
    return cluster
  }

  // MARK: - Starting and stopping

  /// Creates and starts a cluster of its own (stop it with ``stop()``).
  public init() throws {
    guard let binaries = Self.binaryFolder else {
      throw Unavailable(
        description: "PostgreSQL is not installed (run scripts/bootstrap, or set OOTD_PG_BINDIR)")
    }
    self.binaries = binaries
    let fileManager = FileManager.default
    folder = fileManager.temporaryDirectory.appendingPathComponent(
      "ootd-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
    passfile = folder.appendingPathComponent("pgpass")
    try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
    let asRoot = getuid() == 0
    let data = folder.appendingPathComponent("data")
    let passwordFile = folder.appendingPathComponent("admin-password")
    try Data(Self.adminPassword.utf8).write(to: passwordFile)
    if asRoot {
      // PostgreSQL refuses to run as root: the cluster belongs to nobody.
      chown(folder.path, 65534, 65534)
      chown(passwordFile.path, 65534, 65534)
    }
    chmod(folder.path, 0o700)

    var startedPort = 0
    do {
      try Self.run(
        binaries.appendingPathComponent("initdb"),
        [
          "-D", data.path, "-U", Self.admin, "--pwfile", passwordFile.path, "-E", "UTF8",
          "--locale", "C", "--auth-local", "trust", "--auth-host", "scram-sha-256", "-N",
        ], asNobody: asRoot)
      try? fileManager.removeItem(at: passwordFile)
      var lastError: (any Error)?
      for _ in 0..<5 {
        let port = try Self.freePort()
        do {
          try Self.run(
            binaries.appendingPathComponent("pg_ctl"),
            [
              "-D", data.path, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60",
              "-o",
              "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off "
                + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60",
              "start",
            ], asNobody: asRoot)
          startedPort = port
          break
        } catch {
          lastError = error
        }
      }
      guard startedPort != 0 else { throw lastError ?? Unavailable(description: "no free port") }
    } catch {
      try? fileManager.removeItem(at: folder)
      throw error
    }
    port = startedPort
    try writePassfile()
    Self.watch(folder: folder, data: data, pgctl: binaries.appendingPathComponent("pg_ctl"), asRoot: asRoot)
  }

  deinit { stop() }

  /// Whether the server was started and not stopped.
  public var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return running
  }

  /// Stops the server at once (as a crash would: `-m immediate`) and removes its folder.
  public func stop() {
    lock.lock()
    let wasRunning = running
    running = false
    lock.unlock()
    guard wasRunning else { return }
    try? Self.run(
      binaries.appendingPathComponent("pg_ctl"),
      ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
      asNobody: getuid() == 0)
    // The server's last processes may still write for a moment after pg_ctl returns.
    for _ in 0..<5 {
      try? FileManager.default.removeItem(at: folder)
      if !FileManager.default.fileExists(atPath: folder.path) { break }
      usleep(200_000)
    }
  }

  /// Stops the server but keeps its folder, so ``start()`` can bring it back.
  public func pause() throws {
    try Self.run(
      binaries.appendingPathComponent("pg_ctl"),
      ["-D", folder.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"],
      asNobody: getuid() == 0)
  }

  /// Starts a paused server again on the same port.
  public func resume() throws {
    try Self.run(
      binaries.appendingPathComponent("pg_ctl"),
      [
        "-D", folder.appendingPathComponent("data").path, "-l", folder.appendingPathComponent("log").path,
        "-w", "-t", "60", "-o",
        "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off "
          + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60",
        "start",
      ], asNobody: getuid() == 0)
  }

  // MARK: - Roles, databases, URIs

  /// A name not used before in this cluster: `prefix` and a number (roles are cluster-wide).
  public func uniqueName(_ prefix: String) -> String {
    lock.lock()
    defer { lock.unlock() }
    counter += 1
    return "\(prefix)_\(getpid())_\(counter)"
  }

  /// A libpq URI for `role` over TCP with its password in the cluster's pgpass file.
  public func uri(role: String = PostgresCluster.admin, database: String = "postgres") -> String {
    "postgresql://\(role)@127.0.0.1:\(port)/\(database)?passfile=\(passfile.path)"
  }

  /// The same URI without `passfile`, for runs that pass the password in `PGPASSWORD`.
  public func plainURI(role: String, database: String) -> String {
    "postgresql://\(role)@127.0.0.1:\(port)/\(database)"
  }

  /// Creates a database owned by the admin and returns its name.
  public func createDatabase() throws -> String {
    let name = uniqueName("db")
    try psql("CREATE DATABASE \(name)")
    return name
  }

  /// A new database and three new login roles for it: two members of `ootd_member` (alice and
  /// bob) and a stranger outside it, each with a password of its own in the pgpass file. The
  /// cast of the row-level-security tests of both the server and the binary.
  public struct Cast: Sendable {
    public let database: String
    public let alice: String
    public let bob: String
    public let stranger: String
  }

  public func castOfThree() throws -> Cast {
    let cast = Cast(
      database: try createDatabase(), alice: uniqueName("alice"), bob: uniqueName("bob"),
      stranger: uniqueName("stranger"))
    try createRole(cast.alice, password: "\(cast.alice)-pw", member: true)
    try createRole(cast.bob, password: "\(cast.bob)-pw", member: true)
    try createRole(cast.stranger, password: "\(cast.stranger)-pw", member: false)
    return cast
  }

  /// Creates a login role with `password`, in `ootd_member` when `member` (creating that group
  /// role first if needed), and records its password in the pgpass file.
  public func createRole(_ name: String, password: String, member: Bool, createRoles: Bool = false) throws {
    var sql = "CREATE ROLE \(name) LOGIN PASSWORD '\(password)'"
    if createRoles { sql += " CREATEROLE CREATEDB" }
    if member {
      try psql(
        """
        DO $$ BEGIN
          IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ootd_member') THEN
            CREATE ROLE ootd_member NOLOGIN;
          END IF;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
        END $$
        """)
      sql += " IN ROLE ootd_member"
    }
    try psql(sql)
    lock.lock()
    passwords[name] = password
    lock.unlock()
    try writePassfile()
  }

  /// The password of a role made by ``createRole(_:password:member:createRoles:)``.
  public func password(of role: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return passwords[role]
  }

  /// Runs `sql` with the real `psql` as `role` (by default the admin) in `database`, unaligned
  /// and tuples only, and returns its standard output. Throws with psql's standard error when
  /// it fails (`ON_ERROR_STOP`).
  @discardableResult
  public func psql(_ sql: String, as role: String = PostgresCluster.admin, database: String = "postgres")
    throws -> String
  {
    let psql = binaries.appendingPathComponent("psql").path
    let executable = FileManager.default.isExecutableFile(atPath: psql) ? psql : "/usr/bin/psql"
    return try Self.run(
      URL(fileURLWithPath: executable),
      ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", uri(role: role, database: database), "-c", sql],
      asNobody: false)
  }

  /// The plain-text `pg_dump` of `database`, made as the admin (the cluster's superuser: the
  /// server's owner, who reads every row whatever the row-level security).
  public func pgDump(database: String) throws -> String {
    let dump = binaries.appendingPathComponent("pg_dump").path
    let executable = FileManager.default.isExecutableFile(atPath: dump) ? dump : "/usr/bin/pg_dump"
    return try Self.run(URL(fileURLWithPath: executable), ["-d", uri(database: database)], asNobody: false)
  }

  // MARK: - Helpers

  private func writePassfile() throws {
    // Held through the rename: two roles created at once must not each write a file that lacks
    // the other's password (the later rename would win with a file missing one role).
    lock.lock()
    defer { lock.unlock() }
    let lines = passwords.sorted { $0.key < $1.key }.map { "127.0.0.1:*:*:\($0.key):\($0.value)" }
    let text = lines.joined(separator: "\n") + "\n"
    let temporary = folder.appendingPathComponent("pgpass.tmp-\(UUID().uuidString.prefix(6))")
    FileManager.default.createFile(
      atPath: temporary.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    _ = rename(temporary.path, passfile.path)
  }

  /// Runs `executable` and returns its standard output; throws with its standard error when it
  /// fails. As nobody (through setpriv) when `asNobody`.
  ///
  /// posix_spawn and waitpid, with output to files rather than pipes: `pg_ctl start` leaves a
  /// server behind that would hold a pipe open forever.
  @discardableResult
  static func run(_ executable: URL, _ arguments: [String], asNobody: Bool) throws -> String {
    var argv = [executable.path] + arguments
    var path = executable.path
    if asNobody {
      path = "/usr/bin/setpriv"
      argv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
    }
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("PG") { environment.removeValue(forKey: key) }
    environment["LC_ALL"] = "C"
    let envp = environment.map { "\($0.key)=\($0.value)" }

    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ootd-pg-run-\(UUID().uuidString)")
    let outPath = scratch.path + ".out"
    let errPath = scratch.path + ".err"
    defer {
      unlink(outPath)
      unlink(errPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    // From / (a folder nobody may read), through sh since posix_spawn has no portable chdir.
    argv = ["/bin/sh", "-c", "cd / && exec \"$@\"", "sh"] + argv
    path = "/bin/sh"
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    let cEnv: [UnsafeMutablePointer<CChar>?] = envp.map { strdup($0) } + [nil]
    defer {
      cArgs.forEach { free($0) }
      cEnv.forEach { free($0) }
    }
    Self.closeInheritedDescriptors(&actions)
    var attributes = Self.spawnAttributes()
    defer { posix_spawnattr_destroy(&attributes) }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, &attributes, cArgs, cEnv)
    guard spawned == 0 else {
      throw Unavailable(description: "cannot run \(path): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    let exited = (status & 0x7f) == 0
    let code = (status >> 8) & 0xff
    guard exited && code == 0 else {
      throw Unavailable(
        description: "\(executable.lastPathComponent) failed (status \(status)): "
          + err.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return out
  }

  /// Makes the child close every descriptor above 2. Without it the server (which outlives
  /// pg_ctl) and the watchdog would inherit the test process's pipes, such as the standard
  /// input of a fake GitHub server, which then never sees the end of its input and never stops.
  /// glibc 2.34's posix_spawn_file_actions_addclosefrom_np (looked up at run time: Swift's Glibc
  /// module does not declare it), else every descriptor open now.
  static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
      let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
      if closeFrom(&actions, 3) == 0 { return }
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
  }

  /// Spawn attributes giving the child an empty signal mask and default signal handlers: a
  /// thread of this process may block signals (dispatch's do), and a child inherits that.
  static func spawnAttributes() -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return attributes
  }

  /// A TCP port on 127.0.0.1 nobody listens on now.
  static func freePort() throws -> Int {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw Unavailable(description: "socket() failed") }
    defer { close(socketFD) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
      }
    }
    guard bound else { throw Unavailable(description: "bind() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Starts a shell that waits for this process to end, then stops the cluster and removes its
  /// folder: a test run that crashes or is killed leaves nothing running.
  private static func watch(folder: URL, data: URL, pgctl: URL, asRoot: Bool) {
    let stop =
      (asRoot ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : "")
      + "'\(pgctl.path)' -D '\(data.path)' -m immediate -w stop"
    let script = """
      while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
      if [ -d '\(data.path)' ]; then
        \(stop) >/dev/null 2>&1
        # The server's last processes may still write for a moment after pg_ctl returns.
        for attempt in 1 2 3 4 5; do rm -rf '\(folder.path)' 2>/dev/null && [ ! -e '\(folder.path)' ] && break; sleep 1; done
      fi
      """
    // Not waited for: it outlives this process on purpose (a zombie until then is harmless).
    let words: [String] = ["/bin/sh", "-c", script]
    let cArgs: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in Int32(0)...2 {
      posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
    }
    Self.closeInheritedDescriptors(&actions)
    var attributes = Self.spawnAttributes()
    defer { posix_spawnattr_destroy(&attributes) }
    var pid: pid_t = 0
    _ = posix_spawn(&pid, "/bin/sh", &actions, &attributes, cArgs, environ)
  }
}
