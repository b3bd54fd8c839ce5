import Foundation
import Pushbutton
import PushbuttonSupport

/// One request to the channel management API: its method, path, headers and body, and how its answer reads.
///
/// Create is `POST /1/apps/<bundle id>/channels` with `{"message-storage-policy": N, "push-type":
/// "LiveActivity"}`, answered 201 with the new id in `apns-channel-id`; read is `GET` of the same path with
/// `apns-channel-id` (200, the body describes the channel); delete is `DELETE` of it (204); list is
/// `GET /1/apps/<bundle id>/all-channels` (200, `{"channels": [...]}`). Every request carries an
/// `apns-request-id`, which APNs answers with.
public struct APNsChannelRequest: Sendable, Hashable {
    /// What the request does.
    public enum Operation: Sendable, Hashable {
        case create(APNsMessageStoragePolicy)
        case read(channelID: String)
        case list
        case delete(channelID: String)
    }

    /// The app whose channels the request is about (part of the path).
    public var bundleID: String
    /// Create, read, list or delete.
    public var operation: Operation
    /// `apns-request-id`: the same on every attempt.
    public var requestID: UUID

    /// A request for `operation` on `bundleID`'s channels.
    public init(bundleID: String, operation: Operation, requestID: UUID = APNsNotification.newID()) {
        self.bundleID = bundleID
        self.operation = operation
        self.requestID = requestID
    }

    /// `POST` to create, `GET` to read or list, `DELETE` to delete.
    public var method: String {
        switch operation {
        case .create: return "POST"
        case .read, .list: return "GET"
        case .delete: return "DELETE"
        }
    }

    /// `/1/apps/<bundle id>/channels`, or `…/all-channels` to list.
    public var path: String {
        if case .list = operation { return "/1/apps/\(bundleID)/all-channels" }
        return "/1/apps/\(bundleID)/channels"
    }

    /// The channel the request names, if any.
    public var channelID: String? {
        switch operation {
        case .read(let id), .delete(let id): return id
        case .create, .list: return nil
        }
    }

    /// Whether sending it twice does no harm: all but `create`, which is never resent after a lost stream.
    public var isIdempotent: Bool {
        if case .create = operation { return false }
        return true
    }

    /// The request headers, `authorization` first when a token is given.
    public func headers(token: ProviderToken?) -> [(name: String, value: String)] {
        var headers: [(String, String)] = []
        if let token { headers.append(("authorization", token.authorization)) }
        headers.append(("apns-request-id", UUIDText.lowercase(requestID)))
        if let channelID { headers.append(("apns-channel-id", channelID)) }
        if case .create = operation { headers.append(("content-type", "application/json")) }
        return headers
    }

    /// The JSON body of a create; empty for the others.
    public var body: [UInt8] {
        guard case .create(let policy) = operation else { return [] }
        return Array(#"{"message-storage-policy":\#(policy.rawValue),"push-type":"LiveActivity"}"#.utf8)
    }

    /// Why the request cannot be sent as it is, or nil.
    public var problem: String? {
        if let problem = Self.bundleIDProblem(bundleID) { return problem }
        if let channelID, let problem = Self.channelIDProblem(channelID) { return problem }
        if case .create(let policy) = operation, !APNsMessageStoragePolicy.known.contains(policy) {
            return "message storage policy \(policy.rawValue) is not one APNs documents: use 0 (no-message-stored) "
                + "or 1 (most-recent-message-stored)"
        }
        return nil
    }

    /// Why `bundleID` is not a bundle id (letters, digits, `-` and `.`), or nil.
    public static func bundleIDProblem(_ bundleID: String) -> String? {
        guard !bundleID.isEmpty else { return "the bundle id is empty: give the app's bundle id, e.g. com.example.app" }
        let allowed = bundleID.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E
        }
        guard allowed, bundleID.utf8.count <= 255 else {
            return
                "the bundle id '\(TerminalText.escaped(bundleID))' is not a bundle id: use letters, digits, '-' and '.'"
        }
        return nil
    }

    /// Why `channelID` cannot be a channel id (base64 text, as APNs issues them), or nil.
    public static func channelIDProblem(_ channelID: String) -> String? {
        guard !channelID.isEmpty else { return "the channel id is empty: give one that create returned" }
        let base64 = channelID.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2B || byte == 0x2F || byte == 0x3D
        }
        guard base64, channelID.utf8.count <= 1024 else {
            return "the channel id '\(TerminalText.escaped(channelID))' is not base64 text: "
                + "use the id exactly as create returned it"
        }
        return nil
    }

    func httpRequest(token: ProviderToken?, timeout: Duration) -> HTTPRequest {
        HTTPRequest(method: method, path: path, headers: headers(token: token), body: body, timeout: timeout)
    }
}
