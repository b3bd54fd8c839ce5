import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport
import Synchronization

/// `pushbutton send`'s command line turned into a client and a stream of notifications.
struct SendSetup: Sendable {
    let environment: APNsEnvironment
    /// Token authentication (key, key id, team), or `nil` with certificate authentication.
    let token: (key: P256PrivateKey, keyID: String, teamID: String)?
    let certificate: ClientCertificate?
    /// `--apps FILE`: several apps, each with its environment and credentials, in place of one.
    let apps: SendApps?
    /// The proxy to reach APNs through: `--proxy`, else `HTTPS_PROXY` and its kin; none with `--no-proxy`.
    let proxy: HTTPProxy?
    /// The command line's topic: every notification's, unless its NDJSON line names one (empty with --apps
    /// when not given).
    let topic: String
    let pushType: PushType
    let priority: Int?
    let expiration: Int64?
    let collapseID: String?
    let connections: Int
    let inFlight: Int
    let timeout: Duration
    let shard: (index: Int, count: Int)?
    let payload: [UInt8]?
    let validator: PayloadValidator?
    /// Tokens from --token; a --tokens file is read lazily, line by line, while sending.
    let tokens: [String]?
    let tokenFile: String?
    let console: Console
    /// Lines or tokens that could not be sent (reported as they are found).
    let invalidCount = Locked(0)
    /// Where each notification came from, and how far the input was read.
    let input: SendInput

    var isBulk: Bool { tokenFile != nil || (tokens.map { $0.count > 1 } ?? true) }
    var knownTotal: Int? { tokenFile == nil ? tokens?.count : nil }

    init(_ arguments: ParsedArguments, console: Console) throws {
        self.console = console
        apps = try (try arguments[SendCommand.apps]).map { try SendApps.load($0, console: console) }
        let bundleID: String?
        if apps != nil {
            try Self.refuseBesideApps(arguments)
            (token, certificate) = (nil, nil)
            bundleID = try arguments[SendCommand.topic]  // else each line names its topic
            environment = .production  // unused: each app has its own
        } else {
            (token, certificate) = try Self.authentication(arguments)
            try Self.warnAboutOpenSecrets(arguments, console: console)
            bundleID = try arguments.required(SendCommand.topic)
            environment = try Self.environment(arguments)
        }
        proxy = try Self.proxy(arguments)
        pushType = PushType(rawValue: try arguments[SendCommand.pushType] ?? "alert")
        priority = try arguments[SendCommand.priority]
        if let bundleID {
            topic = try Self.topic(
                bundleID: bundleID, pushType: pushType, priority: priority,
                tokenAuthentication: token != nil || apps != nil)
        } else {
            topic = ""
        }
        expiration = try arguments[SendCommand.expiration].map(Int64.init)
        collapseID = try arguments[SendCommand.collapseID]
        connections = try arguments[SendCommand.connections] ?? 1
        inFlight = try arguments[SendCommand.inFlight] ?? 1000
        timeout = try arguments[SendCommand.timeout] ?? .seconds(30)
        shard = try arguments[SendCommand.shard]
        validator = try (try arguments[SendCommand.manifest]).map {
            PayloadValidator(manifest: try ManifestLoading.load($0, console: console))
        }
        payload = try Self.payload(arguments, console: console)
        (tokens, tokenFile) = try Self.recipients(arguments, hasPayload: payload != nil)
        input = SendInput(
            size: tokenFile.map { SendInput.fileSize($0) } ?? (tokens == nil ? SendInput.fileSize(nil) : nil))
        if let payload {
            try Self.check(payload, with: validator, pushType: pushType, priority: priority, console: console)
        }
    }

    static func environment(_ arguments: ParsedArguments) throws(UsageError) -> APNsEnvironment {
        if let host = try arguments[SendCommand.host] {
            guard !arguments[SendCommand.sandbox] else {
                throw UsageError(
                    "--sandbox (Apple's development APNs) and --host (a stand-in) cannot be combined; give one")
            }
            let port = try arguments[SendCommand.port] ?? 443
            return APNsEnvironment(
                host: host, port: port, caFile: try arguments[SendCommand.ca], cleartext: arguments[SendCommand.h2c])
        }
        if arguments[SendCommand.h2c] || arguments.isGiven(SendCommand.port) || arguments.isGiven(SendCommand.ca) {
            throw UsageError("--port, --ca and --h2c go with --host (a stand-in); APNs itself is TLS on 443")
        }
        return arguments[SendCommand.sandbox] ? .sandbox : .production
    }

    /// `--shard K/N`, as a 0-based index and a count.
    static func shard(_ text: String, option: String) throws(UsageError) -> (index: Int, count: Int) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else {
            throw UsageError("\(option) '\(text)' is not of the form K/N with 1 ≤ K ≤ N")
        }
        return (index - 1, count)
    }

    /// Which shard (0-based) a token falls in: FNV-1a of its lowercase hex, so every machine agrees.
    static func shardIndex(of token: String, count: Int) -> Int {
        Int(FNV1a.hash(token.lowercased().utf8) % UInt64(count))
    }

    func makeClient(observer: (any APNsObserver)? = nil) async throws -> SendClient {
        if let apps {
            do {
                return .many(
                    try APNsClients(
                        apps: apps.apps, connections: connections, proxy: proxy, requestTimeout: timeout,
                        observer: observer),
                    environments: apps.environments)
            } catch {
                throw CommandFailure("cannot start the HTTP/2 transport: \(error)")
            }
        }
        let transport: any APNsTransport
        let configuration = TransportConfiguration(
            environment: environment, connections: connections, proxy: proxy, certificate: certificate)
        do {
            transport = try NGHTTP2Transport(configuration)
        } catch {
            throw CommandFailure("cannot start the HTTP/2 transport: \(error)")
        }
        let tokens = token.map { TokenProvider(key: $0.key, keyID: $0.keyID, teamID: $0.teamID) }
        return .one(APNsClient(transport: transport, tokens: tokens, requestTimeout: timeout, observer: observer))
    }

    func notification(
        token: String, payload: [UInt8], topic lineTopic: String? = nil, apnsID: UUID = APNsNotification.newID(),
        inputLine: Int = 0
    ) throws(APNsError) -> APNsNotification {
        guard let topic = lineTopic ?? (topic.isEmpty ? nil : topic) else {
            throw APNsError(.invalidRequest, "no topic: give \"topic\" on the line or --topic")
        }
        var notification = APNsNotification(
            deviceToken: try DeviceToken(token), payload: payload, topic: topic, pushType: pushType, priority: priority,
            expiration: expiration, collapseID: collapseID, apnsID: apnsID)
        notification.inputLine = inputLine
        return notification
    }

    /// The notifications to send: the tokens given (and those of the token file, read lazily), or NDJSON
    /// lines from standard input. A thread reads the input into a bounded channel, so memory stays flat.
    /// Each notification's input line (for --token, its position) is remembered in ``input``; once `stop` is
    /// requested, nothing more is read into the channel.
    func notifications(capacity: Int, stop: SendStop? = nil) -> BoundedChannel<APNsNotification> {
        let channel = BoundedChannel<APNsNotification>(capacity: capacity)
        let input = input
        let thread = Thread {
            // Handed to the channel a batch at a time: before each read that may wait, and at the end.
            let batch = NotificationBatch(channel)
            var number = 0
            do throws(CommandFailure) {
                if let payload, tokens != nil {
                    for token in tokens ?? [] where stop?.isRequested != true {
                        number += 1
                        emitToken(token, line: number, payload: payload, batch)
                    }
                    batch.flush()
                    if let tokenFile {
                        number = 0
                        try LineReader.forEachLine(path: tokenFile, afterChunk: batch.flush) { line in
                            number += 1
                            input.bytesRead.add(line.byteCount + 1, ordering: .relaxed)
                            guard stop?.isRequested != true else { return }
                            guard case .text(let bytes) = line else {
                                return invalid(line: number, token: nil, Self.describe(line))
                            }
                            if let token = Self.token(onLine: bytes) {
                                emitToken(token, line: number, payload: payload, batch)
                            }
                        }
                    }
                } else {
                    try LineReader.forEachLine(path: nil, afterChunk: batch.flush) { line in
                        number += 1
                        input.bytesRead.add(line.byteCount + 1, ordering: .relaxed)
                        guard stop?.isRequested != true else { return }
                        read(line, number: number, batch)
                    }
                }
            } catch {
                console.printError("pushbutton: error: \(error.message) (after line \(number))")
                invalidCount.withLock { $0 += 1 }
            }
            batch.flush()
            input.finished.store(true, ordering: .releasing)
            channel.finish()
        }
        thread.start()
        return channel
    }

    /// A token file's line without surrounding spaces and tabs, or nil when that leaves nothing or a
    /// comment (`#…`); over the line's bytes, as a bulk send reads millions of lines.
    static func token(onLine line: [UInt8]) -> String? {
        line.withUnsafeBufferPointer { bytes -> String? in
            let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
            var start = 0
            var end = bytes.count
            while start < end && isBlank(bytes[start]) { start += 1 }
            while end > start && isBlank(bytes[end - 1]) { end -= 1 }
            guard start < end, bytes[start] != UInt8(ascii: "#") else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    private func emitToken(
        _ token: String, line: Int, payload: [UInt8], _ batch: NotificationBatch
    ) {
        if let shard, Self.shardIndex(of: token, count: shard.count) != shard.index { return }
        emit(line: line, token: token, payload: payload, validate: false, batch)
    }

    private func read(_ line: LineSplitter.Line, number: Int, _ batch: NotificationBatch) {
        guard case .text(let bytes) = line else { return invalid(line: number, token: nil, Self.describe(line)) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let parsed: SendLine
        do { parsed = try SendLine.parse(bytes) } catch {
            return invalid(line: number, token: error.token, error.message)
        }
        let token = parsed.token
        if let shard, Self.shardIndex(of: token, count: shard.count) != shard.index { return }
        let id = parsed.id
        guard let bytes = parsed.payload ?? payload else {
            return invalid(
                line: number, token: token, id: id, "no \"payload\" on the line and no --payload or payload flags")
        }
        if let environment = parsed.environment {
            guard let apps else {
                return invalid(line: number, token: token, id: id, "\"environment\" on a line needs --apps FILE")
            }
            guard apps.environments[environment] != nil else {
                let names = apps.environments.keys.sorted().joined(separator: ", ")
                return invalid(
                    line: number, token: token, id: id, "unknown environment '\(environment)' (known: \(names))")
            }
        }
        emit(
            line: number, id: id, token: token, payload: bytes, validate: true, topic: parsed.topic,
            environment: parsed.environment, batch)
    }

    private static func describe(_ line: LineSplitter.Line) -> String {
        guard case .tooLong(let length) = line else { return "" }
        return "the line is \(length) bytes long; lines are limited to \(LineSplitter().maximumLength) bytes"
    }

    private func emit(
        line: Int, id: String? = nil, token: String, payload: [UInt8], validate: Bool, topic lineTopic: String? = nil,
        environment: String? = nil, _ batch: NotificationBatch
    ) {
        if let validator, validate {
            let problems = validator.validate(
                jsonBytes: payload, context: .init(pushType: pushType, priority: priority)
            ).diagnostics
            if let first = problems.first(where: { $0.severity == .error }) {
                return invalid(line: line, token: token, id: id, "\(first.path): \(first.message) [\(first.code)]")
            }
        }
        do {
            // The line alone is the whole origin: it travels with the notification. Else it is remembered.
            let travels = id == nil && environment == nil
            let notification = try notification(
                token: token, payload: payload, topic: lineTopic, apnsID: batch.newID(), inputLine: travels ? line : 0)
            input.read.add(1, ordering: .relaxed)
            if !travels {
                input.remember(notification.apnsID, SendInput.Origin(line: line, id: id, environment: environment))
            }
            batch.append(consume notification)  // moved: no copy of its token, payload and topic
        } catch {
            invalid(line: line, token: token, id: id, error.message)
        }
    }

    private func invalid(line: Int?, token: String?, id: String? = nil, _ message: String) {
        input.read.add(1, ordering: .relaxed)
        invalidCount.withLock { $0 += 1 }
        var object: [String: JSONValue] = ["status": "invalid", "error": .string(message)]
        if let line { object["line"] = .integer(Int64(line)) }
        if let id { object["id"] = .string(id) }
        if let token { object["token"] = .string(token) }
        console.print(String(decoding: JSONWriter.compact(.object(object)), as: UTF8.self))
    }
}
