/// A command that ran but could not do its job (a missing file, an invalid manifest). Exit status 1.
package struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
