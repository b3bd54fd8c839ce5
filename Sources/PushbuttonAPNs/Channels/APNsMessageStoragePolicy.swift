/// A channel's `message-storage-policy`: whether APNs keeps the latest broadcast for devices that are
/// offline when it is sent.
///
/// Fixed when the channel is created (Apple, "Sending channel management requests to APNs"). Extensible,
/// as ``APNsPriority`` is: APNs documents 0 and 1 today.
public struct APNsMessageStoragePolicy: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The body field's number.
    public var rawValue: Int
    /// The policy whose number is `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: nothing is stored; a device offline at the time misses the broadcast (a higher publishing budget).
    public static let noMessageStored = APNsMessageStoragePolicy(rawValue: 0)
    /// 1: the most recent broadcast is stored and delivered when the device comes back.
    public static let mostRecentMessageStored = APNsMessageStoragePolicy(rawValue: 1)

    /// The policies APNs documents.
    public static let known: [APNsMessageStoragePolicy] = [.noMessageStored, .mostRecentMessageStored]

    /// `no-message-stored` or `most-recent-message-stored` for the documented ones, else the number.
    public var name: String {
        switch self {
        case .noMessageStored: return "no-message-stored"
        case .mostRecentMessageStored: return "most-recent-message-stored"
        default: return String(rawValue)
        }
    }

    /// The policy named `name` (as ``name`` writes it), or given as its number.
    public init?(name: String) {
        if let known = Self.known.first(where: { $0.name == name }) {
            self = known
        } else if let number = Int(name), Self.known.contains(APNsMessageStoragePolicy(rawValue: number)) {
            self.init(rawValue: number)
        } else {
            return nil
        }
    }

    /// The policy's name.
    public var description: String { name }
}
