/// A command line that cannot be run as written. The CLI prints it on one line and exits with status 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
