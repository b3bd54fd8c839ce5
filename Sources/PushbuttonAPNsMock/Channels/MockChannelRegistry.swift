import Foundation
import PushbuttonSupport

/// The mock's broadcast channels, per bundle id, and the broadcasts it accepted on them.
///
/// In memory, as the mock's device registry is: a mock started again starts without channels (add them
/// with ``add(bundleID:messageStoragePolicy:)`` when a test needs some to exist).
public final class MockChannelRegistry: Sendable {
    /// The most channels one bundle id may have; APNs allows 10,000 per environment.
    public let limitPerBundleID: Int
    /// How many accepted broadcasts are kept for inspection.
    public let recordingLimit: Int

    private struct State {
        /// Per bundle id, in creation order.
        var channels: [String: [MockChannel]] = [:]
        var broadcasts: [RecordedBroadcast] = []
        var nextNumber: UInt64 = 1
    }

    private let state = Locked(State())
    private let seed = UInt64.random(in: 0...UInt64.max)

    /// An empty registry with these limits.
    public init(limitPerBundleID: Int = 10_000, recordingLimit: Int = 100_000) {
        self.limitPerBundleID = limitPerBundleID
        self.recordingLimit = recordingLimit
    }

    /// Creates a channel as a create request would; nil when the bundle id has ``limitPerBundleID``.
    @discardableResult
    public func add(bundleID: String, messageStoragePolicy: Int = 0, at date: Date = Date()) -> MockChannel? {
        state.withLock { state in
            guard state.channels[bundleID, default: []].count < limitPerBundleID else { return nil }
            let number = state.nextNumber
            state.nextNumber += 1
            let channel = MockChannel(
                id: Self.channelID(number: number, seed: seed), bundleID: bundleID,
                messageStoragePolicy: messageStoragePolicy, createdAt: date)
            state.channels[bundleID, default: []].append(channel)
            return channel
        }
    }

    /// The channel `id` of `bundleID`, if it exists.
    public func channel(bundleID: String, id: String) -> MockChannel? {
        state.withLock { $0.channels[bundleID]?.first { $0.id == id } }
    }

    /// Every channel of `bundleID`, in creation order.
    public func channels(bundleID: String) -> [MockChannel] {
        state.withLock { $0.channels[bundleID] ?? [] }
    }

    /// Deletes a channel; false if there was none.
    @discardableResult
    public func remove(bundleID: String, id: String) -> Bool {
        state.withLock { state in
            guard let index = state.channels[bundleID]?.firstIndex(where: { $0.id == id }) else { return false }
            state.channels[bundleID]?.remove(at: index)
            return true
        }
    }

    /// Every broadcast accepted so far, in order (up to ``recordingLimit``).
    public var broadcasts: [RecordedBroadcast] { state.withLock { $0.broadcasts } }

    func record(_ broadcast: RecordedBroadcast) {
        state.withLock { state in
            if state.broadcasts.count < recordingLimit { state.broadcasts.append(broadcast) }
        }
    }

    /// Forgets the recorded broadcasts (the channels stay).
    public func resetRecording() { state.withLock { $0.broadcasts = [] } }

    /// 16 bytes, base64: unique per registry (a counter) and unlike another run's (a random seed).
    private static func channelID(number: UInt64, seed: UInt64) -> String {
        var generator = SplitMix64(seed: seed ^ number)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: number.bigEndian) { bytes += $0 }
        withUnsafeBytes(of: generator.next()) { bytes += $0 }
        return Data(bytes).base64EncodedString()
    }
}
