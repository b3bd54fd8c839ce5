import Foundation
import Glibc

/// Runs a body on a thread of its own whose stack is unmapped once the thread has ended. glibc keeps the
/// thread's own storage (`__thread` variables, such as h2o's socket buffer prototype) at the top of a stack
/// the caller gives it, so anything still pointing into that storage afterwards faults at once, instead of
/// reading a cached stack that happens to be intact.
enum UnmappedStackThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on the thread, waits for the thread to end, unmaps its stack, and returns what it returned.
    static func run<Value>(_ body: @escaping () throws -> Value) throws -> Value {
        let size = 1 << 20
        let stack = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let stack, stack != MAP_FAILED else { throw POSIXError(.ENOMEM) }
        defer { munmap(stack, size) }
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        pthread_attr_init(attributes)
        defer {
            pthread_attr_destroy(attributes)
            attributes.deallocate()
        }
        pthread_attr_setstack(attributes, stack, size)
        nonisolated(unsafe) var result: Result<Value, any Error>?
        let box = Unmanaged.passRetained(Body { result = Result { try body() } })
        var thread: pthread_t = 0
        let created = pthread_create(
            &thread, attributes,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                body.run()
                return nil
            }, box.toOpaque())
        guard created == 0 else {
            box.release()
            throw POSIXError(POSIXErrorCode(rawValue: created) ?? .EAGAIN)
        }
        pthread_join(thread, nil)
        return try result!.get()
    }
}
