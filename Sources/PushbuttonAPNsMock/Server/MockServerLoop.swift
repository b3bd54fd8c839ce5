import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonHTTP2
import PushbuttonSupport

/// The server's one thread: `poll` over the listening socket, a wake-up pipe and every connection, plus
/// timers for delayed answers. Everything it owns is touched only on that thread; other threads reach it
/// through ``stop()``.
final class MockServerLoop: @unchecked Sendable {
    // `@unchecked Sendable`: connections, timers and the read buffer belong to the loop's thread; the
    // only shared state is `stopping`, behind a lock, and the wake-up pipe (`ownership` checks the rest in
    // debug builds).
    private struct Timer {
        var deadline: ContinuousClock.Instant
        var action: () -> Void
    }

    private let listener: Int32
    private let wakeUp: LoopWakeUp
    private let tls: TLSServerContext?
    private let service: MockAPNsService
    private var connections: [MockConnection] = []
    private var timers: [Timer] = []
    private var connectionCount = 0
    private let stopping = Locked(false)
    /// Set when `accept` ran out of descriptors: the listener is not polled until then, instead of
    /// spinning on a listener that stays readable.
    private var acceptPausedUntil: ContinuousClock.Instant?
    private let finished = ThreadExit()
    /// The loop's thread, checked in debug builds wherever loop-only state is touched.
    let ownership = ThreadOwnership()
    /// One read buffer for every connection: reads never overlap on the loop's thread.
    let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)

    init(listener: Int32, tls: TLSServerContext?, service: MockAPNsService) throws(MockAPNsError) {
        do {
            wakeUp = try LoopWakeUp()
        } catch {
            throw MockAPNsError(.eventLoop, error.message)
        }
        self.listener = listener
        self.tls = tls
        self.service = service
    }

    deinit {
        readBuffer.deallocate()
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "pushbutton.mock-apns"
        thread.start()
    }

    /// Stops accepting, closes every connection and waits for the thread to end.
    func stop() async {
        let first = stopping.withLock { stopping -> Bool in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        wakeUp.signal()
        await finished.wait()
    }

    /// Runs `action` on the loop's thread after `delay`.
    func schedule(after delay: Duration, _ action: @escaping () -> Void) {
        ownership.check("MockServerLoop")
        // Kept in deadline order: delayed answers mostly share one delay, so a new timer goes last, and the
        // loop reads the next deadline and the due timers from the front instead of scanning every timer.
        let timer = Timer(deadline: .now + delay, action: action)
        var index = timers.count
        while index > 0 && timers[index - 1].deadline > timer.deadline { index -= 1 }
        timers.insert(timer, at: index)
    }

    // MARK: The loop

    private func run() {
        ownership.claim()
        while !stopping.withLock({ $0 }) {
            let polled = connections  // accepting below adds connections that were not polled
            if let paused = acceptPausedUntil, ContinuousClock.now >= paused { acceptPausedUntil = nil }
            let listening = acceptPausedUntil == nil
            var descriptors = [pollfd(fd: listening ? listener : -1, events: Int16(POLLIN), revents: 0)]
            descriptors.append(pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0))
            for connection in polled {
                let events = POLLIN | (connection.wantsWrite ? POLLOUT : 0)
                descriptors.append(pollfd(fd: connection.socket, events: Int16(events), revents: 0))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
            if listening && descriptors[0].revents & Int16(POLLIN) != 0 { acceptConnections() }
            if descriptors[1].revents != 0 { wakeUp.drain() }
            for (index, connection) in polled.enumerated() {
                let events = descriptors[index + 2].revents
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { connection.readable() }
                if events & Int16(POLLOUT) != 0 { connection.writable() }
            }
            fireTimers()
            for connection in connections where connection.answeredByTimer { connection.flush() }
            let now = ContinuousClock.now
            for connection in connections {
                connection.checkDrainDeadline(now: now)
                _ = connection.closeIfExpired(now: now)
            }
            connections.removeAll { $0.isClosed }
        }
        for connection in connections { connection.close() }
        connections.removeAll()
        timers.removeAll()
        close(listener)
        finished.signal()
    }

    /// Milliseconds until the next timer (at most a second; a tenth while a connection drains or accepting
    /// is paused).
    private func pollTimeout() -> Int32 {
        if acceptPausedUntil != nil { return 100 }
        guard let next = timers.first?.deadline else {
            return connections.contains { if case .draining = $0.state { true } else { false } } ? 100 : 1000
        }
        // Rounded up: a timer due in 0.4 ms waits one millisecond rather than spinning on poll(0).
        let milliseconds = (ContinuousClock.now.duration(to: next) + .microseconds(999)).milliseconds
        return Int32(clamping: max(0, min(milliseconds, 1000)))
    }

    private func fireTimers() {
        guard !timers.isEmpty else { return }
        let now = ContinuousClock.now
        let dueCount = timers.firstIndex { $0.deadline > now } ?? timers.count
        guard dueCount > 0 else { return }
        let due = timers[..<dueCount]
        timers.removeFirst(dueCount)
        for timer in due { timer.action() }
    }

    private func acceptConnections() {
        while true {
            let socket = accept(listener, nil, nil)
            guard socket >= 0 else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Out of descriptors: make room by closing the connection idle the longest, and
                    // wait a little before accepting again rather than spinning on the listener.
                    closeLongestIdle()
                    acceptPausedUntil = .now + .milliseconds(100)
                }
                return
            }
            let open = connections.filter { !$0.isClosed }
            if open.count >= service.configuration.maximumConnections && !closeLongestIdle() {
                close(socket)  // every connection is busy: this one waits its turn on the client's side
                continue
            }
            SocketChannel.configure(socket)
            connectionCount += 1
            service.recorder.connectionOpened()
            do {
                let connection = try MockConnection(
                    number: connectionCount, socket: socket, tls: tls, loop: self, service: service)
                connections.append(connection)
                connection.flush()  // the server's SETTINGS (cleartext) or nothing until the handshake (TLS)
            } catch {
                close(socket)
            }
        }
    }

    /// Closes the open connection that has been idle the longest. Returns whether there was one.
    @discardableResult
    private func closeLongestIdle() -> Bool {
        let idle = connections.filter { !$0.isClosed && $0.isIdle }
        guard let oldest = idle.min(by: { $0.lastActivity < $1.lastActivity }) else { return false }
        oldest.close()
        return true
    }
}
