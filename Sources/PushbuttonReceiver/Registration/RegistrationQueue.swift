import PushbuttonSupport

/// Runs category registrations on one notification center one after another, in the order they were asked.
///
/// `setNotificationCategories` replaces the whole set, so a registration is a read, a merge and a write; two
/// that interleave (the app's, a second registrar's, a payload's dynamic category) each write a union that
/// lacks the other's categories. Every ``CategoryRegistrar`` on the same store of categories shares one queue
/// (see ``UserNotificationCenter/categoryStore``; by default, the same center object).
actor RegistrationQueue {
    private var tail: Task<Void, Never>?

    /// Runs `operation` after every operation queued before it has finished.
    func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        let previous = tail
        let task = Task {
            await previous?.value
            return await operation()
        }
        tail = Task { _ = await task.value }
        return await task.value
    }

    private static let queues = Locked([ObjectIdentifier: RegistrationQueue]())

    /// The queue of `center`'s store: shared when the store is known or the center is an object (as both of
    /// Pushbutton's centers are), else its own.
    static func queue(for center: any UserNotificationCenter) -> RegistrationQueue {
        let key: ObjectIdentifier
        if let store = center.categoryStore {
            key = store
        } else if type(of: center) is AnyClass {
            key = ObjectIdentifier(center as AnyObject)
        } else {
            return RegistrationQueue()
        }
        return queues.withLock { queues in
            if let queue = queues[key] { return queue }
            let queue = RegistrationQueue()
            queues[key] = queue
            return queue
        }
    }
}
