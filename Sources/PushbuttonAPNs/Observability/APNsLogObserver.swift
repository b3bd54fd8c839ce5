import Foundation

/// A logger for the sender: each event at or above ``minimumLevel`` becomes one line, handed to `write`.
///
/// The lines are the events' ``APNsEvent/description``: device tokens appear redacted to their first
/// characters, and provider tokens and keys never appear, whatever `write` does with the line. Plug in your
/// own logging by passing a `write` that forwards to it (swift-log: `logger.log(level: …, "\(line)")`).
public struct APNsLogObserver: APNsObserver {
    /// Events below this level are not written.
    public let minimumLevel: APNsEvent.Level
    private let write: @Sendable (APNsEvent.Level, String) -> Void

    /// A logger that hands each line at or above `minimumLevel` to `write`.
    public init(
        minimumLevel: APNsEvent.Level = .info, write: @escaping @Sendable (APNsEvent.Level, String) -> Void
    ) {
        self.minimumLevel = minimumLevel
        self.write = write
    }

    /// Lines of the form `pushbutton: warning: rejected …` on standard error.
    public static func standardError(minimumLevel: APNsEvent.Level = .info) -> APNsLogObserver {
        APNsLogObserver(minimumLevel: minimumLevel) { level, line in
            FileHandle.standardError.write(Data("pushbutton: \(level): \(line)\n".utf8))
        }
    }

    /// Writes the event's line if its level is high enough.
    public func observe(_ event: APNsEvent) {
        let level = event.level
        guard level >= minimumLevel else { return }
        write(level, event.description)
    }
}
