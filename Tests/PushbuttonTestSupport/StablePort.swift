import Foundation
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Ports for test servers that are stopped and started again on the same port (a crashed PostgreSQL, an APNs
/// outage), or whose port must stay refused once stopped: free ports below the kernel's ephemeral range.
///
/// A port from the ephemeral range (where port-0 binds land) can become the local port of any outgoing connection
/// once its server stops, and the tests open thousands: CI's runs saw a crashed PostgreSQL fail to start again
/// ("could not start server") and a stopped mock's port taken before the test could hold it (`EADDRINUSE`). Below
/// the range, a port is only ever taken by a bind that names it, and this process never hands one out twice.
package enum StablePort {
    /// The ports this process handed out: never twice, even after their server stopped.
    private static let handedOut = Locked(Set<Int>())

    /// A port no socket has now, below the ephemeral range, never handed out before by this process.
    package static func next() throws -> Int {
        let ephemeralStart = ephemeralRangeStart()
        let range = max(1024, ephemeralStart / 2)..<max(1025, ephemeralStart)
        for _ in 0..<1000 {
            let port = Int.random(in: range)
            let fresh = handedOut.withLock { ports in ports.insert(port).inserted }
            guard fresh else { continue }
            if isFree(port) { return port }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// The first port of `net.ipv4.ip_local_port_range` (32768 when it cannot be read).
    private static func ephemeralRangeStart() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
    }

    /// Whether 127.0.0.1:`port` can be bound now (nothing listens there nor uses it as a local port).
    private static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        } == 0
    }
}
