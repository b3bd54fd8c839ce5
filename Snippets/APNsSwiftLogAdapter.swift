// The sender's events as swift-log lines, redaction kept (the lines are the events' descriptions).
// snippet.hide
// swift-log is not a dependency of this package: the `Logger` below has swift-log's shape, so this file checks
// the Pushbutton side (APNsLogObserver, its levels) and the article shows `import Logging` as the reader writes it.
import PushbuttonAPNs

/// swift-log's `Logger`, as far as this snippet uses it.
struct Logger: Sendable {
    init(label: String) {}
    func debug(_ message: @autoclosure () -> String) {}
    func info(_ message: @autoclosure () -> String) {}
    func warning(_ message: @autoclosure () -> String) {}
    func error(_ message: @autoclosure () -> String) {}
}
func logObserver() -> APNsLogObserver {
    // snippet.show
    // import Logging (swift-log)
    let logger = Logger(label: "apns")
    let observer = APNsLogObserver(minimumLevel: .info) { level, line in
        switch level {
        case .debug: logger.debug("\(line)")
        case .info: logger.info("\(line)")
        case .warning: logger.warning("\(line)")
        case .error: logger.error("\(line)")
        }
    }
    // snippet.hide
    return observer
}
