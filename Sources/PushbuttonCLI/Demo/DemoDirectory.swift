import Foundation

/// The folder `pushbutton demo` writes into. Every run starts from fresh state: a folder that holds an
/// earlier run's files has exactly those files removed first (so its outbox and tap log count only this
/// run), and a folder with anything else in it is refused rather than mixed with the demo's files.
struct DemoDirectory {
    /// Marks a folder as the demo's, so a later `--keep` of the same folder may replace its files.
    static let marker = ".pushbutton-demo"
    /// What a run writes, relative to the folder (the outbox's SQLite journal files included).
    static let files = [
        marker, "README.txt", "manifest.json", "AuthKey_\(DemoContent.keyID).p8", "outbox.sqlite",
        "outbox.sqlite-wal", "outbox.sqlite-shm", "outbox.sqlite-journal", "outbox.sqlite.worker-lock", "tls/ca.pem",
        "tls/server.pem",
        "tls/server-key.pem",
    ]
    static let folders = ["payloads", "tls"]

    let path: String

    /// Creates `path` when it does not exist, or empties it of an earlier run's files.
    static func prepare(_ path: String) throws -> DemoDirectory {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw UsageError("--keep '\(path)' is a file; give a new or empty directory (or an earlier demo's)")
            }
            let contents = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            if !contents.isEmpty && !contents.contains(marker) && !writtenBeforeTheMarker(path) {
                throw UsageError(
                    "--keep '\(path)' is not empty and holds no earlier demo's files; give a new or empty directory "
                        + "(the demo replaces only its own files, in a directory it created)")
            }
            try removeEarlierRun(in: path)
        }
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data("written by pushbutton demo; its next run in this directory replaces its files\n".utf8)
                .write(to: URL(fileURLWithPath: path + "/" + marker))
        } catch {
            throw CommandFailure("cannot create '\(path)': \(error.localizedDescription)")
        }
        return DemoDirectory(path: path)
    }

    /// A folder kept by a demo from before the marker existed: its README.txt says so.
    private static func writtenBeforeTheMarker(_ path: String) -> Bool {
        guard let readme = try? String(contentsOfFile: path + "/README.txt", encoding: .utf8) else { return false }
        return readme.hasPrefix("Files from `pushbutton demo --keep ")
    }

    /// Removes the files an earlier run wrote, and their folders when nothing else is left in them.
    private static func removeEarlierRun(in path: String) throws(CommandFailure) {
        let manager = FileManager.default
        let payloads = DemoContent.notifications(backend: "http://127.0.0.1").map { "payloads/\($0.name).json" }
        for name in files + payloads where manager.fileExists(atPath: path + "/" + name) {
            do {
                try manager.removeItem(atPath: path + "/" + name)
            } catch {
                throw CommandFailure(
                    "cannot remove the earlier demo's '\(path)/\(name)': \(error.localizedDescription)")
            }
        }
        for folder in folders where (try? manager.contentsOfDirectory(atPath: path + "/" + folder))?.isEmpty == true {
            try? manager.removeItem(atPath: path + "/" + folder)
        }
    }
}
