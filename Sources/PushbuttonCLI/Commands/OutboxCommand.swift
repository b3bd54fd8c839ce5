import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonOutbox
import PushbuttonSupport

/// `pushbutton outbox status|drain|dead DB`: look into and operate the durable outbox.
struct OutboxCommand: Command {
    let name = "outbox"
    let summary = "Show, drain or list the dead letters of a tap outbox database."
    let discussion = """
        status  pending, in flight, delivered and dead-lettered entries, and the oldest pending age.
        drain   delivers due entries (with --until-empty, waits for retries until nothing is waiting);
                on a terminal, a progress line shows delivered and failed attempts, percentage and time left.
                --endpoint URL sends every entry to that origin instead of its own, keeping path and query.
                Through a proxy (--proxy URL, or HTTPS_PROXY; NO_PROXY honoured) every request is tunnelled with
                CONNECT; --no-proxy connects directly.
        dead    lists dead-lettered entries with their last error (--purge removes them).
        Only one process delivers at a time; a second drain exits with status 1.
        """
    static let endpoint = Option<String>(
        "--endpoint", value: "URL", help: "drain: send to this origin instead of each entry's own.")
    static let timeLimit = Option<Duration>(
        "--time-limit", help: "drain: stop after this long (default 300 with --until-empty).",
        seconds: ArgumentRange.seconds)
    static let baseBackoff = Option<Duration>(
        "--base-backoff", help: "drain: the first retry's delay (default 1).", seconds: ArgumentRange.seconds)
    static let maxBackoff = Option<Duration>(
        "--max-backoff", help: "drain: the longest delay between retries (default 3600).",
        seconds: ArgumentRange.seconds)
    static let maxAttempts = Option<Int>(
        "--max-attempts", value: "N", help: "drain: attempts before dead-lettering (default 20).",
        range: 1...1_000_000)
    static let requestTimeout = Option<Duration>(
        "--request-timeout", help: "drain: how long one request may take (default 30).", seconds: 0.001...86_400)
    static let proxy = Option<String>(
        "--proxy", value: "URL",
        help: "drain: an HTTP proxy to tunnel through (default: HTTPS_PROXY; NO_PROXY honoured).")
    static let noProxy = Flag("--no-proxy", help: "drain: connect directly, whatever HTTPS_PROXY says.")
    static let untilEmpty = Flag("--until-empty", help: "drain: keep going until nothing is waiting.")
    static let json = Flag("--json", help: "status, dead: print JSON.")
    static let purge = Flag("--purge", help: "dead: remove the dead letters after listing them.")
    let arguments = ArgumentSpec(
        options: [
            Self.endpoint, Self.timeLimit, Self.baseBackoff, Self.maxBackoff, Self.maxAttempts, Self.requestTimeout,
            Self.proxy,
        ],
        flags: [Self.untilEmpty, Self.json, Self.purge, Self.noProxy],
        positionals: ["status|drain|dead", "DB"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let verb = arguments.positionals[0]
        let path = arguments.positionals[1]
        guard ["status", "drain", "dead"].contains(verb) else {
            throw UsageError("unknown outbox action '\(verb)'; use status, drain or dead")
        }
        var options = OutboxOptions()
        if let delay = try arguments[Self.baseBackoff] {
            options.baseBackoff = delay
        }
        if let delay = try arguments[Self.maxBackoff] {
            options.maximumBackoff = delay
        }
        if let attempts = try arguments[Self.maxAttempts] {
            options.maximumAttempts = attempts
        }
        if let timeout = try arguments[Self.requestTimeout] {
            options.requestTimeout = timeout
        }
        // Every flag is checked before the database is touched, whichever action reads it.
        let timeLimit = try arguments[Self.timeLimit]
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("no outbox database at '\(path)'")
        }
        let outbox: Outbox
        do {
            outbox = try Outbox(path: path, options: options)
        } catch {
            throw CommandFailure("cannot open the outbox: \(error)")
        }
        do {
            switch verb {
            case "status": try await status(outbox, arguments, console)
            case "drain":
                try await drain(outbox, arguments, console, timeout: options.requestTimeout, timeLimit: timeLimit)
            default: try await dead(outbox, arguments, console)
            }
        } catch let error as OutboxError {
            throw CommandFailure(error.description)
        }
        return ExitStatus.success
    }

    private func status(_ outbox: Outbox, _ arguments: ParsedArguments, _ console: Console) async throws {
        let status = try await outbox.status()
        if arguments[Self.json] {
            var object: [String: JSONValue] = [
                "pending": .integer(Int64(status.pending)), "in_flight": .integer(Int64(status.inFlight)),
                "delivered": .integer(Int64(status.delivered)), "dead": .integer(Int64(status.dead)),
            ]
            object["oldest_pending_age_seconds"] = status.oldestPendingAge.map(JSONValue.double) ?? .null
            console.write(JSONWriter.pretty(.object(object)))
            return
        }
        console.print("pending:        \(status.pending)")
        console.print("in flight:      \(status.inFlight)")
        console.print("delivered:      \(status.delivered)")
        console.print("dead-lettered:  \(status.dead)")
        console.print("oldest pending: " + (status.oldestPendingAge.map(Self.age) ?? "none"))
    }

    private func drain(
        _ outbox: Outbox, _ arguments: ParsedArguments, _ console: Console, timeout: Duration, timeLimit: Duration?
    ) async throws {
        let untilEmpty = arguments[Self.untilEmpty]
        let limit = timeLimit ?? .seconds(untilEmpty ? 300 : 0)
        // On a terminal, a progress line like send's; it also ticks while the drain waits for a retry.
        let before = try await outbox.status()
        let progress = DrainProgress(total: before.pending + before.inFlight)
        let ticker = Task {
            while progress.enabled && !Task.isCancelled {
                try? await Task.sleep(for: ProgressLine.interval)
                progress.redraw()
            }
        }
        let report: DrainReport
        do {
            report = try await outbox.drain(
                sender: DrainProgress.Sender(base: try Self.sender(arguments, timeout: timeout), progress: progress),
                untilEmpty: untilEmpty, endpoint: try arguments[Self.endpoint],
                timeLimit: untilEmpty ? limit : nil)
        } catch {
            ticker.cancel()
            progress.finish()
            throw error
        }
        ticker.cancel()
        progress.finish()
        console.print(
            "attempted \(report.attempted), delivered \(report.delivered), retried \(report.retried), "
                + "dead-lettered \(report.deadLettered), recovered \(report.recovered), remaining \(report.remaining)")
        if let reason = report.stoppedBecause { throw CommandFailure("the drain stopped: \(reason)") }
    }

    private func dead(_ outbox: Outbox, _ arguments: ParsedArguments, _ console: Console) async throws {
        let entries = try await outbox.entries(.dead)
        if arguments[Self.json] {
            console.write(
                JSONWriter.pretty(
                    .array(
                        entries.map { entry in
                            [
                                "id": .integer(entry.id), "idempotency_key": .string(entry.idempotencyKey),
                                "url": .string(entry.url),
                                "attempts": .integer(Int64(entry.attempts)),
                                "last_error": entry.lastError.map(JSONValue.string) ?? .null,
                                "created_at": .double(entry.createdAt.timeIntervalSince1970),
                            ]
                        })))
        } else {
            for entry in entries {
                console.print(
                    "#\(entry.id) \(entry.method) \(entry.url) key \(entry.idempotencyKey), \(entry.attempts) attempt(s): \(entry.lastError ?? "")"
                )
            }
            console.print("\(entries.count) dead-lettered")
        }
        if arguments[Self.purge] { try await outbox.purgeDeadLetters(ids: entries.map(\.id)) }
    }

    static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: return String(format: "%.0f s", seconds)
        case ..<3600: return String(format: "%.0f min", seconds / 60)
        case ..<86400: return String(format: "%.1f h", seconds / 3600)
        default: return String(format: "%.1f days", seconds / 86400)
        }
    }

    /// URLSession as always, or libcurl when a proxy is asked for (or refused): it tunnels every request
    /// through the proxy and names the proxy, without its credentials, when it fails.
    private static func sender(_ arguments: ParsedArguments, timeout: Duration) throws -> any OutboxSender {
        let proxy = try SendSetup.proxy(given: try arguments[Self.proxy], direct: arguments[Self.noProxy])
        guard proxy != nil || arguments[Self.noProxy] else { return URLSessionSender(timeout: timeout) }
        #if os(Linux)
            // The URL as given (libcurl reads its credentials); NO_PROXY's hosts are reached directly.
            let environment = ProcessInfo.processInfo.environment
            let url =
                try arguments[Self.proxy]
                ?? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].lazy.compactMap { environment[$0] }
                .first { !$0.isEmpty }
            let connections = OutboxOptions().maximumConcurrentRequests
            guard let proxy, let url else {
                return CurlSender(timeout: timeout, connections: connections, proxy: .direct)
            }
            return CurlSender(timeout: timeout, connections: connections, proxy: .http(url: url, bypass: proxy.bypass))
        #else
            throw UsageError("--proxy and --no-proxy need the libcurl sender, which is built on Linux only")
        #endif
    }
}
