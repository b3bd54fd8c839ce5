import Foundation
import Pushbutton

extension Manifest {
    /// The manifest the app bundles (`notifications.json` by default), read at run time: the app registers
    /// from the same file the server validates with, and no code generation step is needed.
    ///
    /// - Throws: ``ManifestLoadError`` when the file is missing from the bundle (add it to the target's "Copy
    ///   Bundle Resources"), cannot be read, or has errors (its diagnostics say where and how to fix them).
    public static func bundled(named name: String = "notifications", in bundle: Bundle = .main)
        throws(ManifestLoadError) -> Manifest
    {
        guard let url = bundle.url(forResource: name, withExtension: "json") else {
            throw ManifestLoadError(
                file: "\(name).json",
                problem: "is not in the bundle at \(bundle.bundleURL.path): add it to the app target's resources")
        }
        return try load(contentsOf: url)
    }

    /// The manifest in the file at `url`; refused when it has errors (warnings are kept in the error's
    /// diagnostics only when it is refused).
    public static func load(contentsOf url: URL) throws(ManifestLoadError) -> Manifest {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ManifestLoadError(file: url.path, problem: "cannot be read (\(error))")
        }
        let result = Manifest.parse(Array(data))
        guard let manifest = result.manifest, result.isUsable else {
            throw ManifestLoadError(
                file: url.path, problem: "has errors; run `pushbutton lint` on it",
                diagnostics: result.diagnostics.map { "\($0)" })
        }
        return manifest
    }
}

/// A bundled manifest that could not be used: which file, what is wrong, and the manifest's diagnostics.
public struct ManifestLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name or path.
    public var file: String
    /// What is wrong, and how to fix it.
    public var problem: String
    /// The manifest's own diagnostics, one per line, when it was read.
    public var diagnostics: [String]

    /// An error about `file`: `problem` says what is wrong and how to fix it.
    public init(file: String, problem: String, diagnostics: [String] = []) {
        self.file = file
        self.problem = problem
        self.diagnostics = diagnostics
    }

    /// The file, the problem and the diagnostics, one per line.
    public var description: String {
        (["\(file) \(problem)"] + diagnostics).joined(separator: "\n")
    }
}
