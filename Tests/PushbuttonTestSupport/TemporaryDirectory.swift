import Foundation

/// A fresh directory under the system's temporary directory, for one test; ``remove()`` deletes it.
package struct TemporaryDirectory: Sendable {
    package let url: URL

    /// Creates `<tmp>/<prefix>-<UUID>`.
    package init(prefix: String = "pushbutton-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package var path: String { url.path }

    /// Deletes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
