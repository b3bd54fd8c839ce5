import PushbuttonSupport

/// One drain of the outbox that ends when the outbox is drained, when ``budget`` passes, or when the system says
/// time is up, whichever comes first; a drain still under way then is cancelled (what it had in flight is sent
/// again later, under the same idempotency key). Shared by ``ImmediateDelivery`` (a tap's background window) and
/// ``OutboxRefresh`` (a scheduled background task).
struct BoundedDrain: Sendable {
    let outbox: Outbox
    let sender: any OutboxSender
    let budget: Duration
    let clock: AnyDurationClock

    /// Drains. `arm` is called once the drain has started, with a function that ends the attempt at once as
    /// ``ImmediateDelivery/Attempt/expired`` (hand it to the system's expiration handler).
    func run(arm: (@escaping @Sendable () -> Void) async -> Void) async -> ImmediateDelivery.Attempt {
        let drain = startDrain()
        let outcome = Locked<ImmediateDelivery.Attempt?>(nil)
        let waiter = Locked<CheckedContinuation<Void, Never>?>(nil)
        // The first outcome wins; the wait ends with it whether it came before or after the wait began.
        let finish: @Sendable (ImmediateDelivery.Attempt) -> Void = { value in
            let continuation = outcome.withLock { current -> CheckedContinuation<Void, Never>?? in
                guard current == nil else { return .none }
                current = value
                let waiting = waiter.withLock { waiting in
                    defer { waiting = nil }
                    return waiting
                }
                return .some(waiting)
            }
            if case .some(let waiting?) = continuation { waiting.resume() }
        }
        await arm { finish(.expired) }
        Task { finish(await drain.value) }
        let timer = Task { [clock, budget] in
            do {
                try await clock.sleep(for: budget)
                finish(.outOfTime)
            } catch {
                // Cancelled: another outcome came first.
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let decided = outcome.withLock { current -> Bool in
                if current == nil { waiter.withLock { $0 = continuation } }
                return current != nil
            }
            if decided { continuation.resume() }
        }
        timer.cancel()
        let result = outcome.withLock { $0 } ?? .outOfTime
        if case .drained = result {} else { drain.cancel() }
        return result
    }

    /// The drain itself, in a task of its own so it can be cancelled.
    private func startDrain() -> Task<ImmediateDelivery.Attempt, Never> {
        let outbox = outbox
        let sender = sender
        return Task {
            do {
                return .drained(try await outbox.drain(sender: sender))
            } catch let error as OutboxError where error.code == .workerBusy {
                return .workerBusy
            } catch {
                return .failed("\(error)")
            }
        }
    }
}
