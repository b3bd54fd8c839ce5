import Foundation
import PushbuttonSupport

/// A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, `pg_ctl start` on 127.0.0.1
/// with a free port, a fresh database per caller, `pg_ctl stop` at the end.
///
/// PostgreSQL refuses to run as root, so as root (CI) every server command runs as the `postgres` user that
/// Debian's package creates, in a directory that user owns.
public final class PostgresTestCluster: Sendable {
    public let port: Int
    public let directory: String
    let binaries: String
    /// The databases made so far; held while `CREATE DATABASE` runs (see ``freshDatabase()``).
    private let databases = Locked(0)

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Where Debian installs the server programs (the newest version present).
    public static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init)
            .sorted()
        for version in versions.reversed()
        where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        return nil
    }

    /// Initializes and starts a server. Stop it with ``stop()``.
    public init() throws {
        guard let binaries = Self.findBinaries() else {
            throw Failure(description: "PostgreSQL's server is not installed (apt-get install postgresql)")
        }
        self.binaries = binaries
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pushbutton-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        directory = base.path
        if getuid() == 0 {
            try Self.run(["/usr/bin/chown", "postgres:postgres", directory], asPostgres: false)
        }
        port = try Self.freePort()
        try Self.run(
            [
                "\(binaries)/initdb", "-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8",
                "--no-sync",
            ],
            asPostgres: true)
        try start()
    }

    /// Starts the server (again, after ``crash()``), on the same port, and waits until it accepts connections.
    /// Room for 400 sessions: the store tests' suites all run at once on one server, each store with its pool
    /// and listeners (about 200 at once were measured with every branch's suites).
    public func start() throws {
        do {
            try startServer()
        } catch let failure as Failure {
            // pg_ctl says only "Examine the log output": the log goes with the directory, so its end is shown here.
            let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
            let tail = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(15).joined(separator: "\n")
            throw Failure(description: failure.description + "\nserver.log (port \(port)):\n" + tail)
        }
    }

    private func startServer() throws {
        try Self.run(
            [
                "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "60",
                "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c fsync=off -c max_connections=400",
                "start",
            ], asPostgres: true)
    }

    /// Stops the server as a crash or a power cut would (`pg_ctl stop -m immediate`: every session is cut, no
    /// checkpoint); ``start()`` brings it back, recovering from its WAL.
    public func crash() throws {
        try Self.run(
            ["\(binaries)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"], asPostgres: true)
    }

    /// Ends every session connected to `database` (`pg_terminate_backend`, as a DBA, an idle timeout or a
    /// failover does), returning once each has ended; returns how many there were.
    @discardableResult
    public func terminateSessions(database: String) throws -> Int {
        let output = try Self.output(
            [
                "/usr/bin/psql", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-Atqc",
                // Materialized first: in one WHERE the server may call pg_terminate_backend before the filters.
                """
                WITH sessions AS MATERIALIZED (
                    SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid())
                SELECT count(*) FROM sessions WHERE pg_terminate_backend(pid, 30000)
                """,
            ])
        guard let count = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "terminating the sessions of \(database): psql printed '\(output)'")
        }
        return count
    }

    /// The database name in a URL made by ``freshDatabase()``.
    public static func database(in url: String) -> String {
        String(url.split(separator: "/").last ?? "")
    }

    /// A URL for a new, empty database.
    public func freshDatabase() throws -> String {
        // One `CREATE DATABASE` at a time: the server runs them one after another anyway (each copies the
        // template under its lock), and a few dozen suites starting at once each held a connection waiting,
        // on top of their stores' own: the server refused connections ("too many clients").
        try databases.withLock { databases in
            databases += 1
            let name = "pushbutton_\(getpid())_\(databases)"
            try Self.run(
                [
                    "/usr/bin/psql", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-qc",
                    "CREATE DATABASE \(name)",
                ], asPostgres: false)
            return url(database: name)
        }
    }

    public func url(database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// Stops the server (immediate shutdown) and removes its directory.
    public func stop() {
        try? Self.run(
            ["\(binaries)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"], asPostgres: true)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a command to its end with posix_spawn and waitpid (Foundation's `Process` waits through a run
    /// loop, which can stall on a busy cooperative pool), its output in a file: a pipe would be held open
    /// forever by the server pg_ctl starts.
    static func run(_ command: [String], asPostgres: Bool) throws {
        _ = try runCapturing(command, asPostgres: asPostgres)
    }

    /// Runs a client command (as this user) and returns what it printed.
    static func output(_ command: [String]) throws -> String {
        try runCapturing(command, asPostgres: false)
    }

    private static func runCapturing(_ command: [String], asPostgres: Bool) throws -> String {
        let arguments = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushbutton-pg-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(description: "\(command.joined(separator: " ")) failed (status \(status)): \(output)")
        }
        return (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// A port for a server that may be stopped and started again on it (``StablePort``).
    static func freePort() throws -> Int { try StablePort.next() }
}
