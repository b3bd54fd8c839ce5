/// Exit statuses of the `pushbutton` command.
package enum ExitStatus {
    package static let success: Int32 = 0
    /// The command ran and found errors, or could not do its job.
    package static let failure: Int32 = 1
    /// The command line itself was wrong.
    package static let usage: Int32 = 2
    /// Stopped by Ctrl-C (128 + SIGINT, as shells report it) after finishing what was under way.
    package static let interrupted: Int32 = 130
}
