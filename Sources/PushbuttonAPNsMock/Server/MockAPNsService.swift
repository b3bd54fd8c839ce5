import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

/// The mock's behaviour, apart from the network: validation, fault injection, recording, forwarding.
/// `decide` and `goawayAfterAnswer` run only on the server's thread, which owns the fault generator.
final class MockAPNsService: @unchecked Sendable {
    let configuration: MockAPNsConfiguration
    let validator: RequestValidator
    let recorder: NotificationRecorder
    let forwarder = NotificationForwarder()
    /// Broadcast channels and the broadcasts accepted on them.
    let channels: MockChannelRegistry
    private var channelEndpoints: ChannelEndpoints { ChannelEndpoints(validator: validator, registry: channels) }
    let observer = AnswerObserver()
    private var faults: FaultInjector
    /// Generated `apns-id`s and `apns-unique-id`s: random-looking and unique, without a system call each.
    private var identifiers = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))

    init(configuration: MockAPNsConfiguration, verifier: ProviderTokenVerifier, registry: DeviceRegistry) {
        self.configuration = configuration
        validator = RequestValidator(
            verifier: verifier, registry: registry, tokenUpdateInterval: configuration.tokenUpdateInterval,
            requiresProviderToken: configuration.requiresProviderToken,
            certificateEnvironment: configuration.certificateEnvironment)
        recorder = NotificationRecorder(limit: configuration.recordingLimit, trackingLimit: configuration.trackingLimit)
        faults = FaultInjector(plan: configuration.faults)
        channels = MockChannelRegistry(
            limitPerBundleID: configuration.channelsPerBundleID, recordingLimit: configuration.recordingLimit)
    }

    func decide(_ request: MockRequest, auth: inout ConnectionAuthState, connection: Int) -> MockDecision {
        if ChannelEndpoints.handles(request.path) { return decideChannel(request, auth: &auth, connection: connection) }
        let apnsID = request.header("apns-id")
        recorder.request(apnsID: apnsID)
        let answerID = apnsID ?? makeIdentifier()
        let now = configuration.now()
        let verdict = validator.validate(request, auth: &auth, now: now)
        guard verdict.status == 200 else { return .respond(verdict, apnsID: answerID, accepted: nil) }
        let fault = faults.draw()
        switch fault {
        case .status(let response)?:
            recorder.fault(String(response.status))
            return .respond(response, apnsID: answerID, accepted: nil)
        case .refuseStream?:
            recorder.fault("refuse")
            return .refuse
        case .dropConnection?:
            recorder.fault("drop")
            return .drop
        case .silence?:
            recorder.fault("silence")
            return .silence
        case .delay(let delay)?:
            recorder.fault("delay")
            return .respondLater(
                delay, .accepted, apnsID: answerID,
                accepted: record(request, apnsID: answerID, connection: connection, at: now))
        case nil:
            return .respond(
                .accepted, apnsID: answerID,
                accepted: record(request, apnsID: answerID, connection: connection, at: now))
        }
    }

    /// Called once an answer was handed to HTTP/2: counts it, records an acceptance and forwards it.
    func answered(
        _ response: MockResponse, apnsID: String, accepted: RecordedNotification?, path: String, connection: Int
    ) {
        if ChannelEndpoints.handles(path) { return }
        if let observe = observer.current {
            let token = String(path.dropFirst("/3/device/".count))
            observe(
                MockAnswer(
                    apnsID: apnsID, redactedToken: DeviceToken.redact(token), status: response.status,
                    reason: response.reason, connection: connection))
        }
        if let accepted {
            recorder.accepted(accepted)
            forwarder.forward(accepted)
        } else {
            recorder.rejected(response, apnsID: apnsID)
        }
    }

    /// A channel management request or a broadcast: answered at once (no faults), reported to the observer
    /// here since ``answered(_:apnsID:accepted:path:connection:)`` leaves these to it.
    private func decideChannel(_ request: MockRequest, auth: inout ConnectionAuthState, connection: Int)
        -> MockDecision
    {
        recorder.request(apnsID: nil)
        let requestID = request.header("apns-request-id").flatMap { UUIDText.parse($0) == nil ? nil : $0 }
        let handled = channelEndpoints.handle(
            request, auth: &auth, connection: connection, now: configuration.now(),
            requestID: requestID ?? makeIdentifier())
        if let observe = observer.current {
            observe(
                MockAnswer(
                    apnsID: handled.requestID, redactedToken: "", status: handled.response.status,
                    reason: handled.response.reason, connection: connection, operation: handled.operation,
                    bundleID: handled.bundleID, channelID: handled.channelID))
        }
        return .respond(handled.response, apnsID: handled.requestID, accepted: nil)
    }

    func goawayAfterAnswer(answered: Int) -> Bool {
        let goaway = faults.goawayAfterAnswer(answered: answered)
        if goaway { recorder.fault("goaway") }
        return goaway
    }

    /// A version-4 UUID in lowercase text.
    private func makeIdentifier() -> String { UUIDText.lowercase(identifiers.nextUUID()) }

    private func record(_ request: MockRequest, apnsID: String, connection: Int, at now: Date) -> RecordedNotification {
        RecordedNotification(
            apnsID: apnsID, uniqueID: makeIdentifier(),
            deviceToken: String(request.path.dropFirst("/3/device/".count)).lowercased(),
            topic: request.header("apns-topic") ?? "", pushType: request.header("apns-push-type"),
            priority: request.header("apns-priority").flatMap { Int($0) },
            expiration: request.header("apns-expiration").flatMap { Int64($0) },
            collapseID: request.header("apns-collapse-id"), payload: request.body, connection: connection,
            receivedAt: now)
    }
}
