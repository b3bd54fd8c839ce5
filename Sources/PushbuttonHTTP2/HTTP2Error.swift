/// A failure of the shared HTTP/2 plumbing (a pipe, a socket), with a message that says what failed; the
/// sender turns it into an `APNsError`, the mock into a `MockAPNsError`.
package struct HTTP2Error: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
