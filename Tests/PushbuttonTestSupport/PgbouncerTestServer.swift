import Foundation
import PushbuttonSupport

/// Debian's pgbouncer in front of a ``PostgresTestCluster``, on 127.0.0.1 with a free port, in `session` or
/// `transaction` pool mode; run as the cluster's user (pgbouncer refuses root), stopped with ``stop()``.
public final class PgbouncerTestServer: Sendable {
    public let port: Int
    let directory: String

    /// Whether pgbouncer is installed (`apt-get install pgbouncer`).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/pgbouncer") }

    /// Starts pgbouncer for `cluster` with `mode` and waits until it accepts a client.
    public init(cluster: PostgresTestCluster, mode: String) throws {
        directory = cluster.directory + "/pgbouncer-\(mode)"
        port = try PostgresTestCluster.freePort()
        try PostgresTestCluster.run(["/usr/bin/mkdir", "-p", directory], asPostgres: true)
        let settings = """
            [databases]
            * = host=127.0.0.1 port=\(cluster.port)
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = trust
            auth_file = \(directory)/users.txt
            pool_mode = \(mode)
            max_client_conn = 400
            default_pool_size = 60
            ignore_startup_parameters = extra_float_digits
            logfile = \(directory)/pgbouncer.log
            pidfile = \(directory)/pgbouncer.pid

            """
        let ini = FileManager.default.temporaryDirectory.appendingPathComponent("pgbouncer-\(UUID().uuidString).ini")
        try settings.write(to: ini, atomically: true, encoding: .utf8)
        try "\"postgres\" \"\"\n".write(toFile: ini.path + ".users", atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(at: ini)
            try? FileManager.default.removeItem(atPath: ini.path + ".users")
        }
        chmod(ini.path, 0o644)
        chmod(ini.path + ".users", 0o644)
        try PostgresTestCluster.run(["/usr/bin/cp", ini.path, "\(directory)/pgbouncer.ini"], asPostgres: true)
        try PostgresTestCluster.run(["/usr/bin/cp", ini.path + ".users", "\(directory)/users.txt"], asPostgres: true)
        try PostgresTestCluster.run(["/usr/sbin/pgbouncer", "-d", "\(directory)/pgbouncer.ini"], asPostgres: true)
        // -d returns once the daemon forked; a client may connect a moment later. Each try is a psql run.
        var lastError = ""
        for _ in 0..<200 {
            do {
                _ = try PostgresTestCluster.output(
                    [
                        "/usr/bin/psql", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres",
                        "-Atqc", "SELECT 1",
                    ])
                return
            } catch {
                lastError = "\(error)"
            }
        }
        stop()
        throw PostgresTestCluster.Failure(description: "pgbouncer did not accept a client: \(lastError)")
    }

    /// `url` (a database of the cluster) through pgbouncer.
    public func url(_ url: String) -> String {
        guard let range = url.range(of: #":[0-9]+/"#, options: .regularExpression) else { return url }
        return url.replacingCharacters(in: range, with: ":\(port)/")
    }

    /// Stops pgbouncer: SIGKILL to the pid in its pid file (1.18's SIGTERM and SIGINT wait for its clients to
    /// leave, and a test's gateways may not have closed every connection by then).
    public func stop() {
        guard let text = try? String(contentsOfFile: directory + "/pgbouncer.pid", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        kill(pid, SIGKILL)
    }
}
