import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `pushbutton send`: validates and sends notifications to APNs (or a stand-in), one or in bulk.
struct SendCommand: Command {
    let name = "send"
    let summary = "Send notifications to APNs: one, a token file, or NDJSON on standard input."
    let discussion = """
        Authenticates with a provider token (--key AuthKey.p8 --key-id K --team-id T), shared by every
        connection, or with a TLS client certificate (--cert FILE --cert-key FILE). Targets production by default, --sandbox, or a stand-in (--host H --port P [--ca FILE]
        or --h2c). Recipients: --token HEX, --tokens FILE (one per line), or NDJSON lines on standard input,
        {"token": HEX, "payload": {...}} (a line without "payload" uses --payload or the payload flags).
        With --manifest, each payload is validated first; invalid ones are reported, not sent.
        Bulk sends print one NDJSON result per notification on stdout, in completion order, with the token,
        "line" (its input line; for --token, its position) and, when its NDJSON line had one, "id" (any JSON
        string, echoed), so each result joins back to its input; the summary goes to stderr. On a terminal a
        progress line shows the counts so far, and the percentage and time left when the total is known (or
        estimated from a token file's size). --shard K/N sends only the tokens whose hash falls in shard K of N.
        --channel ID broadcasts the payload once to a channel's subscribers (iOS 18 Live Activities; see
        `pushbutton channels`) instead of sending to devices: --topic is the app's bundle id, the push type is
        liveactivity. --stats prints the sender's counters (sent, delivered, rejected by reason, retries,
        latency, connections, GOAWAYs, token refreshes) on stderr at the end.
        Ctrl-C stops reading input, waits for what is in flight (at most --timeout), writes those results and
        the summary and exits with 130; a second Ctrl-C ends it at once.
        --payload and payload flags cannot be combined, nor --sandbox and --host.
        A certificate may be a .p12 (--cert FILE.p12 --cert-passphrase-file FILE; never the pass phrase itself).
        --apps FILE sends for several apps (JSON: each app's topic, environment and key or certificate); a
        line's "topic" and "environment" pick its app, and a topic no app covers is that line's failed result.
        Connections go through the proxy --proxy URL or HTTPS_PROXY names (CONNECT; TLS stays end to end with
        APNs), except to the hosts NO_PROXY lists; --no-proxy connects directly.
        Exit status: 0 when every notification was delivered, 1 otherwise, 2 for a wrong command line.
        """
    static let key = Option<String>("--key", value: "FILE", help: "The provider key (.p8), for token authentication.")
    static let cert = Option<String>(
        "--cert", value: "FILE", help: "A TLS client certificate (PEM), for certificate authentication.")
    static let certKey = Option<String>("--cert-key", value: "FILE", help: "The certificate's private key (PEM).")
    static let keyID = Option<String>("--key-id", value: "ID", help: "The key's identifier.")
    static let teamID = Option<String>("--team-id", value: "ID", help: "Your team identifier.")
    static let topic = Option<String>(
        "--topic", value: "BUNDLE", help: "apns-topic: the app's bundle identifier (the push type's suffix is added).",
        header: "apns-topic")
    static let host = Option<String>("--host", value: "HOST", help: "A stand-in's host (default: APNs).")
    static let port = Option<Int>(
        "--port", value: "PORT", help: "A stand-in's port (default 443).", range: ArgumentRange.port)
    static let ca = Option<String>(
        "--ca", value: "FILE", help: "A private CA to trust for the stand-in (verification stays on).")
    static let token = RepeatableOption<String>("--token", value: "HEX", help: "One device token.")
    static let tokens = Option<String>("--tokens", value: "FILE", help: "Device tokens, one per line.")
    static let payload = Option<String>("--payload", value: "FILE", help: "The payload JSON.")
    static let manifest = Option<String>(
        "--manifest", value: "FILE", help: "Validate payloads against this manifest first.")
    static let pushType = Option<String>(
        "--push-type", value: "TYPE", help: "apns-push-type (default alert): alert, background, liveactivity, voip, …",
        header: "apns-push-type")
    static let priority = Option<Int>(
        "--priority", value: "N", help: "apns-priority: 10, 5 or 1.", range: ArgumentRange.priority)
    /// Up to the year 9999.
    static let expiration = Option<Int>(
        "--expiration", value: "EPOCH", help: "apns-expiration.", range: 0...253_402_300_799)
    static let collapseID = Option<String>(
        "--collapse-id", value: "ID", help: "apns-collapse-id.", header: "apns-collapse-id")
    static let connections = Option<Int>(
        "--connections", value: "N", help: "Connections to APNs (default 1).", range: 1...64)
    static let inFlight = Option<Int>(
        "--in-flight", value: "N", help: "Notifications under way at once (default 1000).", range: 1...1_000_000)
    static let shard = Option<(index: Int, count: Int)>(
        "--shard", value: "K/N", help: "Send only shard K of N (1-based) of the tokens.", convert: SendSetup.shard)
    static let timeout = Option<Duration>(
        "--timeout", help: "How long one response may take (default 30).", seconds: 1...86_400)
    static let certPassphraseFile = Option<String>(
        "--cert-passphrase-file", value: "FILE", help: "The file holding a .p12 certificate's pass phrase.")
    static let apps = Option<String>(
        "--apps", value: "FILE", help: "Several apps: each one's topic, environment and credentials (JSON).")
    static let proxy = Option<String>(
        "--proxy", value: "URL", help: "An HTTP proxy to tunnel through (default: HTTPS_PROXY; NO_PROXY honoured).")
    static let noProxy = Flag("--no-proxy", help: "Connect directly, whatever HTTPS_PROXY says.")
    static let channel = Option<String>(
        "--channel", value: "ID", help: "Broadcast to this channel instead of devices.", header: "apns-channel-id")
    static let stats = Flag("--stats", help: "Print the sender's counters on stderr at the end.")
    static let sandbox = Flag("--sandbox", help: "Use APNs' sandbox (development) environment.")
    static let h2c = Flag("--h2c", help: "Cleartext HTTP/2, for a local stand-in only.")
    let arguments = ArgumentSpec(
        options: [
            Self.key, Self.cert, Self.certKey, Self.keyID, Self.teamID, Self.topic, Self.host, Self.port, Self.ca,
            Self.token, Self.tokens, Self.payload, Self.manifest, Self.pushType, Self.priority, Self.expiration,
            Self.collapseID, Self.connections, Self.inFlight, Self.shard, Self.timeout, Self.channel,
            Self.certPassphraseFile, Self.apps, Self.proxy,
        ] + PayloadFlags.options,
        flags: [Self.sandbox, Self.h2c, Self.stats, Self.noProxy] + PayloadFlags.flags)

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let statistics = arguments[Self.stats] ? APNsStatistics() : nil
        if let channel = try arguments[Self.channel] {
            let status = try await BroadcastSend.run(
                arguments, channelID: channel, console: console, observer: statistics)
            statistics.map { Self.printStatistics($0, console: console) }
            return status
        }
        let setup = try SendSetup(arguments, console: console)
        let client = try await setup.makeClient(observer: statistics)
        let started = ContinuousClock.now
        let progress = SendProgress(input: setup.input, knownTotal: setup.knownTotal)
        let stop = SendStop()
        let timeout = setup.timeout
        let breakLine = progress.line.enabled ? "\n" : ""  // off the progress line, on a terminal
        stop.install {
            console.printError(
                breakLine + "pushbutton: stopping: no more input is read; waiting for the notifications under way "
                    + "(at most \(timeout.seconds) s; Ctrl-C again to quit at once)")
        }
        // The reader keeps a few thousand ahead, so it is woken once per couple of thousand, not per window.
        let notifications = stop.limit(setup.notifications(capacity: max(setup.inFlight, 4096), stop: stop))
        let invalid: @Sendable () -> Int = { setup.invalidCount.withLock { $0 } }
        let results = SendResults(
            input: setup.input, bulk: setup.isBulk, progress: progress, console: console, started: started,
            invalid: invalid)
        if setup.isBulk, case .one(let one) = client {
            // Results are written where they arrive, on the transport's thread: no task in between.
            await one.send(polling: notifications, maximumInFlight: setup.inFlight) { notification, result, _ in
                results.record(notification, result)
            }
        } else {
            await client.send(notifications, maximumInFlight: setup.inFlight, input: setup.input) {
                results.record($0, $1)
            }
        }
        var summary = results.flush()
        await client.shutdown()
        results.finishProgress()
        summary.invalid = invalid()
        console.printError(summary.line(elapsed: ContinuousClock.now - started))
        statistics.map { Self.printStatistics($0, console: console) }
        if stop.isRequested {
            console.printError(
                "pushbutton: interrupted: the rest of the input was not sent (each result names its input line)")
            return ExitStatus.interrupted
        }
        return summary.total > 0 && summary.delivered == summary.total && summary.invalid == 0
            ? ExitStatus.success : ExitStatus.failure
    }

    /// The counters as `stats: name value` lines on stderr: stdout keeps only the NDJSON results.
    static func printStatistics(_ statistics: APNsStatistics, console: Console) {
        for line in statistics.counters.lines { console.printError("stats: " + line) }
    }
}
