// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "ootd",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "ootd", targets: ["ootd"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMinor(from: "1.8.2")),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    // MARK: - Libraries

    /// Domain values and rules: todos, priorities, days, task blocks, projects. No I/O.
    .target(name: "Core", dependencies: ["Zone", "Formats"]),

    /// Time zone rules read from compiled zone files (TZif, RFC 8536) and POSIX TZ strings, and
    /// the civil calendar they count days with. No I/O: the CLI hands the file's bytes in.
    .target(name: "Zone"),

    /// Hand-written formats with no domain in them: the JSON reader for untrusted input, JSON
    /// string literals, SHA-1 (name-based uuids) and a seedable random generator. No I/O.
    .target(name: "Formats"),

    /// SQLite persistence of Core values through GRDB: the schema, migrations and every write.
    .target(
      name: "Storage",
      dependencies: ["Core", "Zone", "Formats", "CSQLiteShim", .product(name: "GRDB", package: "GRDB.swift")]
    ),

    /// One call SQLite has no Swift spelling for (sqlite3_config is variadic): its memory
    /// statistics turned off before the first connection (see csqliteshim.h).
    .target(name: "CSQLiteShim", linkerSettings: [.linkedLibrary("sqlite3")]),

    /// Other trackers' formats (Taskwarrior JSON, todo.txt, iCalendar VTODO): parsers that turn
    /// their text into Core import plans, and writers that turn todos back into their text. No I/O.
    .target(name: "Interchange", dependencies: ["Core", "Zone", "Formats"]),

    /// A tiny C shim that loads libcurl with dlopen on first use, so that commands which need no
    /// network never pay libcurl's start-up cost (its dependency tree loads at launch when linked).
    .target(name: "CCurlShim", dependencies: ["CDynamicLibrary"]),

    /// How both shims load their library with dlopen and report a missing one: written once.
    .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),

    /// HTTP for the network clients (GitHub, CalDAV): request/response values, the transport
    /// seam, libcurl through CCurlShim (loaded on first use) and where a credential may go.
    .target(name: "HTTP", dependencies: ["CCurlShim"]),

    /// The GitHub REST API, mapped into Core values. Knows URLs, JSON shapes and tokens.
    .target(name: "GitHubClient", dependencies: ["Core", "HTTP"]),

    /// A CalDAV calendar collection (`Core.CalendarCollection`) over HTTP: WebDAV PROPFIND,
    /// `sync-collection` and `calendar-multiget` REPORTs, conditional PUT and DELETE, and a
    /// small bounded reader of DAV multistatus XML (no FoundationXML, no libxml2).
    .target(name: "CalDAV", dependencies: ["Core", "Formats", "HTTP"]),

    /// The commit sync service: repository discovery and the listing protocol, run through
    /// GitHubClient into a `Core.CommitStore` (which the CLI hands over: Storage's database).
    /// No SQL, no environment.
    .target(name: "GitHubSync", dependencies: ["Core", "Zone", "GitHubClient"]),

    /// A tiny C shim that loads libpq (libpq.so.5) with dlopen on first use, as CCurlShim does
    /// for libcurl: only `remote` and `team` commands pay for libpq and its dependency tree.
    .target(name: "CLibPQShim", dependencies: ["CDynamicLibrary"]),

    /// A tiny C shim that loads libsodium (libsodium.so.23) with dlopen on first use, as the
    /// other shims do: only the commands that sync with a server (and so encrypt) pay for it.
    .target(name: "CSodiumShim", dependencies: ["CDynamicLibrary"]),

    /// End-to-end encryption of what syncs through a server: the data key, its wrapping under a
    /// passphrase (Argon2id), the sealed payloads (XChaCha20-Poly1305) and their text form.
    /// No I/O but libsodium's random source (docs/decisions/encryption.md).
    .target(name: "Encryption", dependencies: ["Core", "CSodiumShim"]),

    /// The PostgreSQL server: connections, the server schema and its migrations, pushing and
    /// pulling journal operations, day figures and teams. The only module with server SQL.
    .target(name: "Remote", dependencies: ["Core", "CLibPQShim"]),

    /// Use cases that run a whole exchange behind Core protocols: the remote sync run (this
    /// machine's journal through `SyncJournal`, the server through `SyncServer`, the figures it
    /// publishes through `DayFigureSource`), the issue import (GitHub through `IssueSource`,
    /// the todos through `IssueStore`) and the local git sync (`LocalCommitStore`; git itself is
    /// handed in by the CLI) and the CalDAV sync run (the server through `CalendarCollection`,
    /// VTODO text through `CalendarObjectMapping`, the database through `CalDAVStore`).
    /// No SQL, no network code, no environment, no file format.
    .target(name: "UseCases", dependencies: ["Core", "Zone"]),

    /// `ootd tui`: the full-screen day planner. A pure reducer (state + key -> state and the
    /// changes to make), a pure renderer (state -> lines of a size), a line-diff screen writer and
    /// a thin raw-termios layer. Changes go through Storage's calls and journal, as the CLI's do;
    /// the CLI hands in the clock, the `add` parser, the rows of `ootd list` and its messages.
    .target(name: "TUI", dependencies: ["Core", "Zone", "Storage"]),

    /// The commit `ootd --version` names: "unknown" unless scripts/build-release links its own
    /// definition in (build_info.h).
    .target(name: "CBuildInfo"),

    /// Every command, output rendering and exit code. The only place that reads the environment.
    .target(
      name: "CLI",
      dependencies: [
        "Core", "Zone", "Formats", "Storage", "HTTP", "GitHubClient", "GitHubSync", "Interchange", "Remote", "UseCases",
        "Encryption", "TUI", "CalDAV", "CBuildInfo", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // MARK: - Executable

    /// The `ootd` binary: a few lines that call `CLI`. `scripts/install` builds it with
    /// `--static-swift-stdlib`, which halves start-up time, the main cost of every command.
    .executableTarget(name: "ootd", dependencies: ["CLI"]),

    // MARK: - Tests

    /// How the test servers written in Python (fake GitHub, CalDAV) are started and say they
    /// are ready: written once for both launchers below.
    .target(name: "ScriptSupport", path: "Tests/ScriptSupport"),

    /// Starts the fake GitHub server (a Python script beside it) for the tests that need one.
    .target(
      name: "FakeGitHubSupport",
      dependencies: ["ScriptSupport"],
      path: "Tests/FakeGitHub",
      exclude: ["fake_github.py", "README.md"]
    ),

    /// Starts a throwaway PostgreSQL cluster (initdb in a temporary folder) for the tests that
    /// need a real server.
    .target(name: "PostgresSupport", path: "Tests/PostgresSupport", exclude: ["README.md"]),

    /// Starts real CalDAV servers (Radicale; Xandikos behind an authenticating proxy) on
    /// 127.0.0.1 and runs the phone script (Python scripts beside it) for the CalDAV tests.
    .target(
      name: "CalDAVSupport",
      dependencies: ["ScriptSupport"],
      path: "Tests/CalDAVSupport",
      exclude: ["caldav_server.py", "auth_proxy.py", "phone.py", "README.md"]
    ),

    /// The Swift Testing tags (.binary, .postgres, .network, .slow) that `scripts/test --fast`
    /// skips; every test target depends on it (below).
    .target(name: "TestTags", path: "Tests/TestTags"),

    /// A pseudo-terminal for the tests that run the binary at a terminal (the passphrase
    /// prompt, `ootd tui`): one harness for both.
    .target(name: "PTYSupport", path: "Tests/PTYSupport"),

    /// The CalDAV client: its XML reader and URL rules as tables, and the client against real
    /// Radicale and Xandikos servers (tagged .network).
    .testTarget(name: "CalDAVTests", dependencies: ["CalDAV", "HTTP", "Core", "CalDAVSupport"]),
    .testTarget(name: "CoreTests", dependencies: ["Core", "Zone", "Formats"]),
    .testTarget(name: "ZoneTests", dependencies: ["Zone", "Core", "Formats"]),
    .testTarget(name: "FormatsTests", dependencies: ["Formats"]),
    .testTarget(name: "EncryptionTests", dependencies: ["Encryption", "Core", "CSodiumShim"]),
    .testTarget(name: "RemoteTests", dependencies: ["Remote", "Core", "CLibPQShim", "PostgresSupport"]),
    .testTarget(name: "InterchangeTests", dependencies: ["Interchange", "Core", "Zone"], exclude: ["Fixtures"]),
    .testTarget(
      name: "StorageTests",
      dependencies: ["Storage", "Core", "Zone", "Formats", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    .testTarget(
      name: "GitHubClientTests",
      dependencies: ["GitHubClient", "HTTP", "Core", "FakeGitHubSupport"],
      resources: [.copy("Fixtures")]
    ),
    /// The TUI without a terminal (reducer, renderer, screen writer, key file, the session on a
    /// real database) and one run of `ootd tui` in a pseudo-terminal (tagged .binary).
    .testTarget(
      name: "TUITests",
      dependencies: ["TUI", "CLI", "Core", "Zone", "Storage", "PTYSupport", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    /// Golden files are read from the source tree (see `Golden.swift`), not bundled.
    .testTarget(
      name: "CLITests",
      dependencies: [
        "CLI", "Core", "Zone", "Formats", "Storage", "HTTP", "GitHubClient", "GitHubSync", "Interchange", "UseCases", "FakeGitHubSupport",
        "Remote", "PostgresSupport", "Encryption", "PTYSupport", "CalDAVSupport", "CalDAV",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      exclude: ["Golden"]),
  ]
)

// Every test target can tag its suites (Tests/TestTags/Tags.swift).
for target in package.targets where target.type == .test {
  target.dependencies.append("TestTags")
}
