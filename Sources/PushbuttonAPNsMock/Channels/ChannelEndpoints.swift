import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

/// The mock's channel management API (`/1/apps/<bundle id>/channels`, `…/all-channels`) and broadcast
/// endpoint (`/4/broadcasts/apps/<bundle id>`), validated as APNs documents them. The mock serves them on
/// its one port; APNs serves management on its own hosts (2195, 2196).
///
/// Provider tokens are checked as for notifications. Faults are not injected here: the fault plan's
/// sequence stays the notifications'.
struct ChannelEndpoints: Sendable {
    let validator: RequestValidator
    let registry: MockChannelRegistry

    static let managementPrefix = "/1/apps/"
    static let broadcastPrefix = "/4/broadcasts/apps/"
    /// The largest broadcast payload APNs accepts.
    static let maximumBroadcastPayload = 5120

    /// What the request was, for the mock's log line.
    struct Handled {
        var response: MockResponse
        var operation: String
        var bundleID: String
        var channelID: String?
        var requestID: String
    }

    /// Whether `path` is one of these endpoints' (else the request is a notification's).
    static func handles(_ path: String) -> Bool {
        path.hasPrefix(managementPrefix) || path.hasPrefix(broadcastPrefix)
    }

    func handle(
        _ request: MockRequest, auth: inout ConnectionAuthState, connection: Int, now: Date, requestID: String
    ) -> Handled {
        let isBroadcast = request.path.hasPrefix(Self.broadcastPrefix)
        let (bundleID, resource) = Self.split(request.path, broadcast: isBroadcast)
        let operation = Self.operation(method: request.method, resource: resource, broadcast: isBroadcast)
        var handled = Handled(
            response: MockResponse(status: 200), operation: operation ?? "unknown", bundleID: bundleID,
            channelID: request.header("apns-channel-id"), requestID: requestID)
        if let problem = check(
            request, operation: operation, bundleID: bundleID, resource: resource, auth: &auth, now: now)
        {
            handled.response = problem
        } else if let operation {
            handled.response = perform(
                operation, request, bundleID: bundleID, connection: connection, now: now, requestID: requestID)
        }
        if handled.response.status == 201, let id = handled.response.headers["apns-channel-id"] {
            handled.channelID = id
        }
        handled.response.headers["apns-request-id"] = requestID
        return handled
    }

    /// `(bundle id, what follows it)`: `channels` or `all-channels` for management, empty for a broadcast.
    private static func split(_ path: String, broadcast: Bool) -> (String, String) {
        let rest = path.dropFirst((broadcast ? broadcastPrefix : managementPrefix).count)
        guard let slash = rest.firstIndex(of: "/") else { return (String(rest), "") }
        return (String(rest[..<slash]), String(rest[rest.index(after: slash)...]))
    }

    private static func operation(method: String, resource: String, broadcast: Bool) -> String? {
        switch (broadcast, resource, method) {
        case (true, "", "POST"): return "broadcast"
        case (false, "channels", "POST"): return "create"
        case (false, "channels", "GET"): return "read"
        case (false, "channels", "DELETE"): return "delete"
        case (false, "all-channels", "GET"): return "list"
        default: return nil
        }
    }

    /// The first problem APNs would answer, or nil.
    private func check(
        _ request: MockRequest, operation: String?, bundleID: String, resource: String,
        auth: inout ConnectionAuthState, now: Date
    ) -> MockResponse? {
        let knownResource =
            request.path.hasPrefix(Self.broadcastPrefix)
            ? resource.isEmpty
            : resource == "channels" || resource == "all-channels"
        guard !bundleID.isEmpty, knownResource else { return MockResponse(status: 404, reason: "BadPath") }
        guard operation != nil else { return MockResponse(status: 405, reason: "MethodNotAllowed") }
        var seen = Set<String>()
        for header in request.headers
        where [
            "authorization", "apns-channel-id", "apns-request-id", "apns-push-type", "apns-priority",
            "apns-expiration",
        ].contains(header.name) {
            guard seen.insert(header.name).inserted else {
                return MockResponse(status: 400, reason: "DuplicateHeaders")
            }
        }
        if validator.requiresProviderToken {
            switch validator.checkProviderToken(request, auth: &auth, now: now) {
            case .failure(let problem): return problem
            case .success(let topics?) where !topics.contains(bundleID):
                return MockResponse(status: 400, reason: "TopicDisallowed")
            case .success: break
            }
        }
        switch operation {
        case "create": return checkCreate(request, bundleID: bundleID)
        case "read", "delete": return checkChannel(request, bundleID: bundleID)
        case "broadcast": return checkBroadcast(request, bundleID: bundleID)
        default: return nil
        }
    }

    private func checkCreate(_ request: MockRequest, bundleID: String) -> MockResponse? {
        guard JSONSyntax.isObject(request.body), let body = try? JSONParser.parse(request.body) else {
            // Apple names no reason for a body that is not a JSON object; the mock answers 400 BadPayload, as
            // it does for notifications.
            return MockResponse(status: 400, reason: "BadPayload")
        }
        guard let pushType = body["push-type"] else { return MockResponse(status: 400, reason: "MissingPushType") }
        guard pushType.stringValue == APNsChannel.liveActivityPushType else {
            return MockResponse(status: 400, reason: "InvalidPushType")
        }
        // Apple's documentation (as far as it could be read here) names no reason for a missing or unknown
        // storage policy: the mock answers 400 BadMessageStoragePolicy, its own name, like BadPayload.
        guard let policy = body["message-storage-policy"]?.doubleValue, policy == 0 || policy == 1 else {
            return MockResponse(status: 400, reason: "BadMessageStoragePolicy")
        }
        if registry.channels(bundleID: bundleID).count >= registry.limitPerBundleID {
            return MockResponse(status: 400, reason: "CannotCreateChannelConfig")
        }
        return nil
    }

    /// For read, delete and broadcast: the channel header names a channel of this bundle id.
    private func checkChannel(_ request: MockRequest, bundleID: String) -> MockResponse? {
        guard let id = request.header("apns-channel-id"), !id.isEmpty else {
            return MockResponse(status: 400, reason: "MissingChannelId")
        }
        guard Data(base64Encoded: id) != nil else { return MockResponse(status: 400, reason: "BadChannelId") }
        return registry.channel(bundleID: bundleID, id: id) == nil
            ? MockResponse(status: 410, reason: "ChannelNotRegistered") : nil
    }

    /// APNs' order: the channel header, the push type, expiration, priority, the channel itself, the payload.
    private func checkBroadcast(_ request: MockRequest, bundleID: String) -> MockResponse? {
        guard let id = request.header("apns-channel-id"), !id.isEmpty else {
            return MockResponse(status: 400, reason: "MissingChannelId")
        }
        guard let pushType = request.header("apns-push-type") else {
            return MockResponse(status: 400, reason: "MissingPushType")
        }
        guard pushType == PushType.liveactivity.rawValue else {
            return MockResponse(status: 400, reason: "InvalidPushType")
        }
        if let expiration = request.header("apns-expiration") {
            guard let seconds = Int64(expiration), seconds >= 0 else {
                return MockResponse(status: 400, reason: "BadExpirationDate")
            }
        }
        if let priority = request.header("apns-priority"), !["1", "5", "10"].contains(priority) {
            return MockResponse(status: 400, reason: "BadPriority")
        }
        guard Data(base64Encoded: id) != nil else { return MockResponse(status: 400, reason: "BadChannelId") }
        guard registry.channel(bundleID: bundleID, id: id) != nil else {
            return MockResponse(status: 410, reason: "ChannelNotRegistered")
        }
        guard !request.body.isEmpty else { return MockResponse(status: 400, reason: "PayloadEmpty") }
        guard request.body.count <= Self.maximumBroadcastPayload else {
            return MockResponse(status: 413, reason: "PayloadTooLarge")
        }
        guard JSONSyntax.isObject(request.body) else { return MockResponse(status: 400, reason: "BadPayload") }
        return nil
    }

    private func perform(
        _ operation: String, _ request: MockRequest, bundleID: String, connection: Int, now: Date, requestID: String
    ) -> MockResponse {
        let channelID = request.header("apns-channel-id") ?? ""
        switch operation {
        case "create":
            let policy = Int((try? JSONParser.parse(request.body))?["message-storage-policy"]?.doubleValue ?? 0)
            guard let channel = registry.add(bundleID: bundleID, messageStoragePolicy: policy, at: now) else {
                return MockResponse(status: 400, reason: "CannotCreateChannelConfig")
            }
            return MockResponse(status: 201, headers: ["apns-channel-id": channel.id])
        case "read":
            let channel = registry.channel(bundleID: bundleID, id: channelID)
            let body = #"{"message-storage-policy":\#(channel?.messageStoragePolicy ?? 0),"push-type":"LiveActivity"}"#
            return MockResponse(status: 200, content: Array(body.utf8))
        case "delete":
            return registry.remove(bundleID: bundleID, id: channelID)
                ? MockResponse(status: 204) : MockResponse(status: 410, reason: "ChannelNotRegistered")
        case "list":
            let ids = registry.channels(bundleID: bundleID).map { #""\#($0.id)""# }.joined(separator: ",")
            return MockResponse(status: 200, content: Array(#"{"channels":[\#(ids)]}"#.utf8))
        default:  // broadcast
            registry.record(
                RecordedBroadcast(
                    requestID: requestID, bundleID: bundleID, channelID: channelID,
                    priority: request.header("apns-priority").flatMap { Int($0) },
                    expiration: request.header("apns-expiration").flatMap { Int64($0) }, payload: request.body,
                    connection: connection, receivedAt: now))
            return MockResponse(status: 200)
        }
    }
}
