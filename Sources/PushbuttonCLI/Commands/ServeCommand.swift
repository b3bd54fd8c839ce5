import Foundation
import Pushbutton
import PushbuttonGateway
import PushbuttonStore
import PushbuttonSupport

/// `pushbutton serve`: the push gateway (HTTP API, durable queue, device registry, workers) until interrupted.
struct ServeCommand: Command {
    let name = "serve"
    let summary = "Run the push gateway: an HTTP API for any backend, a durable queue, a device registry."
    let discussion = """
        Reads --config FILE (JSON; errors are reported with their line and column, as lint does) and the
        PUSHBUTTON_… environment variables, which win over the file (PUSHBUTTON_STORE, PUSHBUTTON_LISTEN,
        PUSHBUTTON_APP_ID, …; NAME_FILE reads a secret from a file); with no --config, the variables alone
        configure it. --print-config shows the effective configuration and where each value came from. The store is
        sqlite:PATH (one process) or postgres://… (several processes share one queue). The first line on stdout
        says where it listens; Ctrl-C or SIGTERM stops it after the workers finish their batches.
        API keys are configured by their digest: --hash-key KEY prints it, --generate-key secret|publishable
        makes a new key and prints it with its digest. --check validates the configuration and exits.
        """
    static let config = Option<String>(
        "--config", value: "FILE", help: "The gateway's configuration (JSON; default: $PUSHBUTTON_CONFIG, or none).")
    static let port = Option<Int>(
        "--port", value: "PORT", help: "Listen on this port instead of the configured one (0: any).",
        range: ArgumentRange.listeningPort)
    static let hashKey = Option<String>(
        "--hash-key", value: "KEY", help: "Print the sha256:… digest of an API key and exit.")
    static let generateKey = Option<String>(
        "--generate-key", value: "KIND", help: "Make a secret or publishable key, print it and its digest.")
    static let duration = Option<Duration>(
        "--duration", help: "Stop after this long (default: run until interrupted).", seconds: ArgumentRange.seconds)
    static let check = Flag("--check", help: "Validate the configuration (manifests, keys, store) and exit.")
    static let printConfig = Flag(
        "--print-config", help: "Print the effective configuration (secrets as ***) and each value's source; exit.")
    let arguments = ArgumentSpec(
        options: [Self.config, Self.port, Self.hashKey, Self.generateKey, Self.duration],
        flags: [Self.check, Self.printConfig])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if let key = try arguments[Self.hashKey] {
            console.print(APIKey.digestText(of: key))
            return ExitStatus.success
        }
        if let kind = try arguments[Self.generateKey] {
            guard let kind = APIKey.Kind(rawValue: kind) else {
                throw UsageError("--generate-key takes secret or publishable, not '\(kind)'")
            }
            let key = APIKey.generate(kind)
            console.print("key:    \(key)")
            console.print("digest: \(APIKey.digestText(of: key))")
            return ExitStatus.success
        }
        let environment = ProcessInfo.processInfo.environment
        let path = try arguments[Self.config] ?? environment["PUSHBUTTON_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        // Flags are checked before anything is read or opened, as every command does.
        let port = try arguments[Self.port]
        let duration = try arguments[Self.duration]
        let loaded = GatewayConfiguration.load(
            file: path, bytes: try path.map { try console.read($0) }, environment: environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
        for (diagnostic, source) in zip(loaded.diagnostics, loaded.sources) where diagnostic.severity >= .warning {
            console.printError(DiagnosticPrinter.human(diagnostic, file: source ?? path ?? "the environment"))
        }
        guard var configuration = loaded.configuration else {
            let fromVariables = loaded.sources.contains { $0 != nil }
            let what =
                path.map { fromVariables ? "\($0) and the environment have" : "\($0) has" }
                ?? "the configuration from the environment has"
            throw CommandFailure("\(what) errors (see above); the gateway did not start")
        }
        if let port { configuration.listen.port = port }
        if arguments[Self.printConfig] {
            for (member, value) in configuration.printableSettings {
                let origin = member.hasPrefix("listen.port") && port != nil ? "--port" : loaded.origin(of: member)
                console.print("\(member) = \(value)  (\(origin))")
            }
            return ExitStatus.success
        }
        for warning in configuration.openSecretWarnings(configurationFile: path) {
            console.printError("pushbutton serve: warning: \(warning)")
        }
        let gateway: Gateway
        do { gateway = try await Gateway.start(configuration) } catch { throw CommandFailure("serve: \(error)") }
        if arguments[Self.check] {
            await gateway.stop()
            console.print(
                "\(path ?? "the environment"): the configuration is valid (\(configuration.apps.count) app(s), store reachable)"
            )
            return ExitStatus.success
        }
        let scheme = configuration.listen.tls == nil ? "http" : "https"
        console.print(
            "pushbutton serve: listening on \(scheme)://\(configuration.listen.host):\(gateway.port) "
                + "(HTTP/1.1 and HTTP/2; store \(StoreLocation.redacted(configuration.store)); "
                + "\(configuration.apps.count) app(s); \(configuration.workers.count) worker(s))")
        await StopSignal.wait(timeout: duration)
        // A second signal from here on ends the process at once (StopSignal); so does the deadline.
        let grace = configuration.shutdownGrace
        console.printError(
            "pushbutton serve: stopping: in-flight requests and batches finish, unstarted leases are released "
                + "(at most \(Int(grace.seconds)) s; a second signal stops at once)")
        let deadline = DispatchWorkItem {
            FileHandle.standardError.write(
                Data(
                    "pushbutton serve: shutdownSeconds (\(Int(grace.seconds))) passed; stopping now (leases left expire)\n"
                        .utf8))
            exit(ExitStatus.failure)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace.seconds, execute: deadline)
        await gateway.stop()
        deadline.cancel()
        console.printError("pushbutton serve: stopped (\(gateway.metrics.deliveredTotal) delivered by this process)")
        return ExitStatus.success
    }
}
