/// Runs category registrations on one notification center one after another, in the order they were asked.
///
/// `setNotificationCategories` replaces the whole set, so a registration is a read, a merge and a write; two
/// that interleave (the app's, a second registrar's, a payload's dynamic category) each write a union that
/// lacks the other's categories. Every ``CategoryRegistrar`` on the same center (same object) shares one queue.
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

    /// The queue of `center`: shared when the center is an object (as both of Pushbutton's are), else its own.
    static func queue(for center: any UserNotificationCenter) -> RegistrationQueue {
        guard type(of: center) is AnyClass else { return RegistrationQueue() }
        let key = ObjectIdentifier(center as AnyObject)
        return queues.withLock { queues in
            if let queue = queues[key] { return queue }
            let queue = RegistrationQueue()
            queues[key] = queue
            return queue
        }
    }
}
