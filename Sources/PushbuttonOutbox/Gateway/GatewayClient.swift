import Foundation
import Pushbutton
import PushbuttonReceiver

/// The device's side of Pushbutton's gateway: registers the APNs device token (again whenever the token,
/// locale, app version, user or tags change) and reports every routed response as a ``TapEvent``, all through
/// the durable ``Outbox``: an offline or killed app loses nothing, and a retried delivery is dropped by the
/// gateway as a duplicate (the outbox's idempotency key, the event's id).
///
/// ```swift
/// let client = try GatewayClient(connection: connection, outbox: outbox)
/// client.attach(to: router)                       // every response becomes a tap event, durably
/// try await client.register(deviceToken: token)   // from didRegisterForRemoteNotificationsWithDeviceToken
/// try await outbox.run(sender: client.sender())   // delivers, with the publishable key, until cancelled
/// ```
public actor GatewayClient {
    /// The gateway, the app and its publishable key.
    public nonisolated let connection: GatewayConnection
    /// The durable outbox every registration and tap goes through.
    public nonisolated let outbox: Outbox
    /// Where the last registration is kept (mode 0600).
    public nonisolated let statePath: String
    private let now: @Sendable () -> Date
    private var registration: DeviceRegistrationRequest?

    /// - Parameter statePath: the registration state file; by default beside the outbox's database.
    public init(
        connection: GatewayConnection, outbox: Outbox, statePath: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(GatewayClientError) {
        self.connection = connection
        self.outbox = outbox
        self.statePath = statePath ?? outbox.path + ".gateway.json"
        self.now = now
        registration = try Self.load(self.statePath)
    }

    /// The device token last registered, lowercase hex.
    public var deviceToken: String? { registration?.token }

    /// The sender the outbox's worker should use: it adds the publishable key to the gateway's requests.
    public nonisolated func sender(over base: any OutboxSender = URLSessionSender()) -> GatewayAuthorizingSender {
        GatewayAuthorizingSender(connection: connection, over: base)
    }

    // MARK: Registration

    /// Registers the token APNs gave the app (`didRegisterForRemoteNotificationsWithDeviceToken`).
    @discardableResult
    public func register(
        deviceToken: Data, locale: String? = GatewayClient.currentLocale,
        appVersion: String? = GatewayClient.appVersion,
        userID: String? = nil, tags: [String] = [], timeZone: String? = GatewayClient.currentTimeZone
    ) async throws(GatewayClientError) -> Bool {
        try await register(
            token: deviceToken.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined(),
            locale: locale, appVersion: appVersion, userID: userID, tags: tags, timeZone: timeZone)
    }

    /// Queues `PUT /v1/apps/{app}/devices/{token}` when anything differs from the last registration, or when the
    /// gateway refused the last one for good (it is in the outbox's dead letters); returns whether it did. The registration time goes with it, so the gateway revives a token it saw die only for
    /// a registration made after that.
    @discardableResult
    public func register(
        token: String, locale: String? = GatewayClient.currentLocale, appVersion: String? = GatewayClient.appVersion,
        userID: String? = nil, tags: [String] = [], timeZone: String? = GatewayClient.currentTimeZone
    ) async throws(GatewayClientError) -> Bool {
        let hex = token.lowercased()
        guard !hex.isEmpty, hex.count.isMultiple(of: 2),
            hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { throw .invalidToken("expected hexadecimal bytes, got \(hex.count) characters") }
        let next = DeviceRegistrationRequest(
            token: hex, environment: connection.environment, locale: locale, appVersion: appVersion, userID: userID,
            tags: Array(Set(tags)).sorted(), registeredAt: now(), timeZone: timeZone)
        if let registration, registration.matches(next) {
            // Unchanged, unless the gateway refused it for good (a wrong key, say): then it is queued again.
            guard let dead = try await deadLetter(registration.idempotencyKey) else { return false }
            do { try await outbox.purgeDeadLetters(ids: [dead]) } catch { throw .outbox(error) }
        }
        // Taken before the outbox is awaited, so a second call meanwhile sees it and queues nothing twice.
        let previous = registration
        registration = next
        do {
            try await enqueue(
                BackendRequest(
                    url: connection.deviceURL(hex), method: "PUT", body: next.bodyJSON,
                    idempotencyKey: next.idempotencyKey, notificationIdentifier: "",
                    actionIdentifier: "register"))
            try Self.save(next, to: statePath)
        } catch {
            registration = previous
            throw error
        }
        return true
    }

    /// A tag store whose changes reach the gateway (`POST /v1/apps/{app}/devices/{token}/tags`) through the
    /// outbox, for the router's `pushbutton.add_tag` and `pushbutton.remove_tag`; `nil` before a registration.
    public func tagStore(local: any TagStore = DefaultTagStore.make()) -> BackendTagStore? {
        guard let token = registration?.token else { return nil }
        return BackendTagStore(local: local, url: connection.deviceURL(token) + "/tags", backend: outbox)
    }

    // MARK: Taps

    /// Queues the response as a tap event; returns it, or `nil` when its notification carries no gateway id.
    @discardableResult
    public func report(_ response: NotificationResponse, situation: Situation) async throws(GatewayClientError)
        -> TapEvent?
    {
        guard response.notification.payload?.actions?.notificationID != nil else { return nil }
        guard let token = registration?.token else { throw .notRegistered }
        guard
            let event = TapEvent(
                response: response, situation: situation, token: token, respondedAt: now(),
                includeReply: connection.reportsReplies)
        else { return nil }
        try await enqueue(
            BackendRequest(
                url: connection.tapsURL, method: "POST", body: ["taps": [event.jsonValue]],
                idempotencyKey: "tap:" + event.eventID, notificationIdentifier: response.notification.identifier,
                actionIdentifier: response.actionIdentifier))
        return event
    }

    /// Reports every response `router` routes from now on. The event is committed to the outbox before the
    /// router calls the system's completion handler: the report runs as one of its response handlers.
    public nonisolated func attach(to router: ResponseRouter) {
        router.onResponse { response, situation in
            try await self.report(response, situation: situation)
        }
    }

    /// The id of the dead-lettered entry with this idempotency key, if there is one.
    private func deadLetter(_ key: String) async throws(GatewayClientError) -> Int64? {
        do {
            return try await outbox.entries(.dead, limit: 10_000).first { $0.idempotencyKey == key }?.id
        } catch {
            throw .outbox(error)
        }
    }

    private func enqueue(_ request: BackendRequest) async throws(GatewayClientError) {
        do {
            try await outbox.enqueue(request)
        } catch {
            throw .outbox(error)
        }
    }

    // MARK: Defaults and state

    /// The device's language and region as a BCP 47 tag (`fr-FR`).
    public static var currentLocale: String? { Locale.current.identifier.replacingOccurrences(of: "_", with: "-") }

    /// The device's IANA time zone (`TimeZone.current.identifier`), for the gateway's local-time sends: a device
    /// that moves to another zone registers again.
    public static var currentTimeZone: String? { TimeZone.current.identifier }

    /// `CFBundleShortVersionString` of the app, when it has one.
    public static var appVersion: String? { Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String }

    private static func load(_ path: String) throws(GatewayClientError) -> DeviceRegistrationRequest? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .state(path: path, message: "cannot be read")
        }
        // An unreadable file is a registration to redo, not an error the app can act on.
        return (try? JSONParser.parse(Array(data))).flatMap(DeviceRegistrationRequest.init(stateJSON:))
    }

    private static func save(_ registration: DeviceRegistrationRequest, to path: String) throws(GatewayClientError) {
        let temporary = path + ".tmp"
        let bytes = JSONWriter.compact(registration.stateJSON)
        let descriptor = open(temporary, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .state(path: path, message: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            throw .state(path: path, message: String(cString: strerror(errno)))
        }
    }
}
