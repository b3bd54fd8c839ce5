import Foundation
import Synchronization

/// The one thread an event loop and its connections belong to, checked in debug builds (as NIO's
/// `assertInEventLoop`): the classes that are `@unchecked Sendable` because only their thread touches
/// them call ``check(_:file:line:)`` where that matters, so a call from another thread traps in tests
/// instead of racing silently. Release builds keep no owner and check nothing.
package final class ThreadOwnership: Sendable {
    #if DEBUG
        /// The owner's pthread id, 0 until claimed: an atomic, so a check costs no lock.
        private let owner = Atomic<UInt>(0)
    #endif

    package init() {}

    /// The calling thread's pthread id.
    package static func currentThreadID() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Makes the calling thread the owner: the loop's thread calls it first.
    package func claim() {
        #if DEBUG
            owner.store(Self.currentThreadID(), ordering: .relaxed)
        #endif
    }

    /// Whether the calling thread may use the owned objects: it is the owner, or none was claimed yet (the
    /// thread that builds a loop sets it up before starting it). Always true in release builds.
    package var isOwnerOrUnclaimed: Bool {
        #if DEBUG
            let owner = owner.load(ordering: .relaxed)
            return owner == 0 || owner == Self.currentThreadID()
        #else
            return true
        #endif
    }

    /// Traps in debug builds when called off the owning thread.
    package func check(_ what: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            assert(isOwnerOrUnclaimed, "\(what) used off its event loop's thread", file: file, line: line)
        #endif
    }
}
