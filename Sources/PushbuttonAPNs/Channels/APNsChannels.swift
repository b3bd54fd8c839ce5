import Foundation
import Pushbutton
import PushbuttonSupport

/// The channel management API of broadcast push (iOS 18): create, read, list and delete the channels of a
/// bundle id, on APNs' management host (``APNsEnvironment/channelManagement``).
///
/// ```swift
/// let channels = try APNsChannels(environment: .production, keyFile: keyFile, keyID: keyID, teamID: teamID)
/// let channel = try await channels.create(bundleID: "com.example.scores", messageStoragePolicy: .mostRecentMessageStored)
/// ```
///
/// Requests go over the same HTTP/2 transport as notifications, with the same shared provider token. Read,
/// list and delete are retried like notifications (429, 500, 503, lost streams); a create whose stream was
/// lost is not sent again (it could make a second channel): it fails, and ``list(bundleID:requestID:)`` tells
/// whether it was made. Each answer's `apns-request-id` is kept on what comes back, and on the error.
public final class APNsChannels: Sendable {
    /// The HTTP/2 transport to the management host.
    public let transport: any APNsTransport
    /// The provider token source (nil: certificate authentication).
    public let tokens: TokenProvider?
    /// How 429, 500, 503 and lost streams are retried.
    public let retryPolicy: RetryPolicy
    /// How long one attempt may wait for its answer.
    public let requestTimeout: Duration
    /// Hears each request's answers and retries (nil: nothing is reported).
    public let observer: (any APNsObserver)?
    private let attempts: RequestAttempts

    /// - Parameters:
    ///   - transport: connected to the management host (``APNsEnvironment/channelManagementProduction``,
    ///     ``APNsEnvironment/channelManagementSandbox``, or a stand-in).
    ///   - tokens: the provider token source (share the one of your ``APNsClient``), or nil for certificates.
    public convenience init(
        transport: any APNsTransport, tokens: TokenProvider?, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(30),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        observer: (any APNsObserver)? = nil
    ) {
        self.init(
            transport: transport, tokens: tokens, retryPolicy: retryPolicy, requestTimeout: requestTimeout,
            jitter: jitter, observer: observer, clock: .continuous)
    }

    /// As the public initializer, with the clock the retries' backoffs sleep on (a `ManualClock` in tests).
    package init(
        transport: any APNsTransport, tokens: TokenProvider?, retryPolicy: RetryPolicy, requestTimeout: Duration,
        jitter: @escaping @Sendable () -> Double, observer: (any APNsObserver)?, clock: AnyDurationClock
    ) {
        self.transport = transport
        self.tokens = tokens
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.observer = observer
        attempts = RequestAttempts(
            transport: transport, tokens: tokens, policy: retryPolicy, timeout: requestTimeout, jitter: jitter,
            observer: observer, clock: clock)
        if let observer {
            (transport as? any ObservableTransport)?.attach(observer)
            tokens?.observers.attach(observer)
        }
    }

    /// Creates a channel for `bundleID`; APNs assigns its id.
    public func create(
        bundleID: String, messageStoragePolicy: APNsMessageStoragePolicy = .noMessageStored,
        requestID: UUID = APNsNotification.newID()
    ) async throws(APNsChannelError) -> APNsChannel {
        let request = APNsChannelRequest(
            bundleID: bundleID, operation: .create(messageStoragePolicy), requestID: requestID)
        let response = try await send(request)
        guard let id = response.headers["apns-channel-id"], !id.isEmpty else {
            throw .failed(
                APNsError(.transport, "APNs answered \(response.status) without an apns-channel-id header"),
                attempts: 1)
        }
        return APNsChannel(
            id: TerminalText.escaped(id), bundleID: bundleID, messageStoragePolicy: messageStoragePolicy,
            requestID: Self.requestID(of: response, sent: request))
    }

    /// Describes one channel of `bundleID`.
    public func read(
        bundleID: String, channelID: String, requestID: UUID = APNsNotification.newID()
    ) async throws(APNsChannelError) -> APNsChannel {
        let request = APNsChannelRequest(
            bundleID: bundleID, operation: .read(channelID: channelID), requestID: requestID)
        let response = try await send(request)
        let json = try? JSONParser.parse(response.body)
        guard let policy = json?["message-storage-policy"]?.doubleValue.flatMap({ Int(exactly: $0) }) else {
            throw .failed(
                APNsError(.transport, "APNs answered \(response.status) without a message-storage-policy"), attempts: 1)
        }
        return APNsChannel(
            id: channelID, bundleID: bundleID, messageStoragePolicy: APNsMessageStoragePolicy(rawValue: policy),
            pushType: json?["push-type"]?.stringValue.map(TerminalText.escaped) ?? APNsChannel.liveActivityPushType,
            requestID: Self.requestID(of: response, sent: request))
    }

    /// Every channel of `bundleID` in this environment.
    public func list(
        bundleID: String, requestID: UUID = APNsNotification.newID()
    ) async throws(APNsChannelError) -> APNsChannelList {
        let request = APNsChannelRequest(bundleID: bundleID, operation: .list, requestID: requestID)
        let response = try await send(request)
        guard let ids = (try? JSONParser.parse(response.body))?["channels"]?.arrayValue else {
            throw .failed(
                APNsError(.transport, "APNs answered \(response.status) without a channels list"), attempts: 1)
        }
        return APNsChannelList(
            bundleID: bundleID, channelIDs: ids.compactMap { $0.stringValue.map(TerminalText.escaped) },
            requestID: Self.requestID(of: response, sent: request))
    }

    /// Deletes a channel: its subscribers get no more broadcasts, and the id is never given out again.
    public func delete(
        bundleID: String, channelID: String, requestID: UUID = APNsNotification.newID()
    ) async throws(APNsChannelError) -> APNsChannelDeletion {
        let request = APNsChannelRequest(
            bundleID: bundleID, operation: .delete(channelID: channelID), requestID: requestID)
        let response = try await send(request)
        return APNsChannelDeletion(
            bundleID: bundleID, channelID: channelID, requestID: Self.requestID(of: response, sent: request))
    }

    /// Finishes what is in flight, then closes the connections.
    public func shutdown() async {
        await transport.shutdown()
    }

    /// Sends `request` by the client's rules; returns a 2xx answer, or throws APNs' refusal or the cause.
    private func send(_ request: APNsChannelRequest) async throws(APNsChannelError) -> HTTPResponse {
        if let problem = request.problem { throw .failed(APNsError(.invalidRequest, problem), attempts: 0) }
        let timeout = requestTimeout
        let (outcome, count) = await attempts.send(idempotent: request.isIdempotent, kind: .channelManagement) {
            request.httpRequest(token: $0, timeout: timeout)
        }
        switch outcome {
        case .failure(let error):
            throw .failed(error, attempts: count)
        case .success(let response) where (200..<300).contains(response.status):
            return response
        case .success(let response):
            let answer = APNsResponse(status: response.status, headers: response.headers, body: response.body)
            throw .rejected(
                status: response.status, reason: answer.reason ?? APNsReason(rawValue: "HTTP\(response.status)"),
                requestID: Self.requestID(of: response, sent: request))
        }
    }

    /// The `apns-request-id` APNs answered with, else the one sent.
    private static func requestID(of response: HTTPResponse, sent request: APNsChannelRequest) -> String {
        response.headers["apns-request-id"].map(TerminalText.escaped) ?? UUIDText.lowercase(request.requestID)
    }
}

#if canImport(CNGHTTP2) && canImport(COpenSSL)
    extension APNsChannels {
        /// Channel management for apps sending to `environment`, authenticating with the provider key in
        /// `keyFile`: ``APNsEnvironment/production`` and ``APNsEnvironment/sandbox`` are mapped to their
        /// management hosts (``APNsEnvironment/channelManagement``); a stand-in is used as it is.
        ///
        /// - Throws: ``KeyError`` when the key cannot be read, ``APNsError`` when the transport cannot start.
        public convenience init(
            environment: APNsEnvironment, keyFile: String, keyID: String, teamID: String,
            observer: (any APNsObserver)? = nil
        ) throws {
            let key = try P256PrivateKey(contentsOf: keyFile)
            let transport = try NGHTTP2Transport(TransportConfiguration(environment: environment.channelManagement))
            self.init(
                transport: transport, tokens: TokenProvider(key: key, keyID: keyID, teamID: teamID), observer: observer)
        }
    }
#endif
