/// The ranges shared by several commands.
package enum ArgumentRange {
    /// A TCP port to connect to.
    package static let port = 1...65535
    /// A TCP port to listen on (0 picks a free one).
    package static let listeningPort = 0...65535
    /// A duration flag in seconds: up to a year.
    package static let seconds = 0.0...31_536_000.0
    /// An APNs priority (APNs accepts 1, 5 and 10; validation says which fits the push type).
    package static let priority = 0...10
}
