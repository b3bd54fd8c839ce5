import Foundation
import Pushbutton

extension GatewayConfiguration {
    /// Reads the configuration from a file (optional) with the `PUSHBUTTON_…` environment variables laid
    /// over it (``EnvironmentSetting/all``), so a container can start with no file at all.
    ///
    /// Precedence, highest first: the command line (`--port`), a variable (`NAME`, or the file named by
    /// `NAME_FILE`; both at once is an error), the configuration file, the default. `PUSHBUTTON_APP_…`
    /// variables describe one app: the file's app with the id `PUSHBUTTON_APP_ID` names, or one more.
    /// Relative paths in variables are taken from `currentDirectory`, those in the file from its directory.
    /// A bad value from a variable gets the same diagnostic as in the file, with the variable as its source.
    public static func load(
        file: String?, bytes: [UInt8]?, environment: [String: String], currentDirectory: String,
        readFile: @escaping (String) -> [UInt8]? = { FileManager.default.contents(atPath: $0).map(Array.init) }
    ) -> LoadedConfiguration {
        var root: JSONValue = .object([:])
        var document: JSONDocument?
        var origins: [JSONPath: String] = [:]
        if let bytes, let file {
            do {
                document = try JSONParser.parseDocument(bytes, recordingLocations: true)
            } catch {
                return LoadedConfiguration(
                    configuration: nil,
                    diagnostics: [Diagnostic(.error, .jsonSyntax, at: .root, error.message, location: error.location)],
                    sources: [nil], origins: [:])
            }
            root = document?.value ?? root
            for leaf in leaves(of: root, at: .root) { origins[leaf] = file }
        }
        var overlay = EnvironmentOverlay(
            root: root, environment: environment, currentDirectory: currentDirectory, readFile: readFile)
        overlay.apply()
        // Outer members first: a member set whole replaces what the file had below it.
        for (path, source) in overlay.sources.sorted(by: { $0.key.components.count < $1.key.components.count }) {
            origins = origins.filter { !$0.key.isWithin(path) }
            origins[path] = source
        }
        var diagnostics = overlay.diagnostics
        let base = file.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        let configuration = read(
            overlay.root, baseDirectory: base.isEmpty ? currentDirectory : base, diagnostics: &diagnostics)
        var located: [(Diagnostic, String?)] = []
        for var diagnostic in diagnostics {
            let source = diagnostic.location == nil ? overlay.source(of: diagnostic.path) : nil
            if source == nil, diagnostic.location == nil, let document {
                diagnostic.location = document.location(of: diagnostic.path)
            }
            located.append((diagnostic, source ?? (file == nil ? "the environment (no configuration file)" : nil)))
        }
        located.sort { ($0.0.location?.line ?? 0, $0.0.path) < ($1.0.location?.line ?? 0, $1.0.path) }
        let errors = located.contains { $0.0.severity == .error }
        return LoadedConfiguration(
            configuration: errors ? nil : configuration, diagnostics: located.map(\.0), sources: located.map(\.1),
            origins: Dictionary(uniqueKeysWithValues: origins.map { ($0.key.description, $0.value) }))
    }

    /// The paths of `value`'s scalars and empty containers.
    static func leaves(of value: JSONValue, at path: JSONPath) -> [JSONPath] {
        switch value {
        case .object(let members) where !members.isEmpty:
            return members.flatMap { leaves(of: $0.value, at: path.appending($0.key)) }
        case .array(let elements) where !elements.isEmpty:
            return elements.indices.flatMap { leaves(of: elements[$0], at: path.appending($0)) }
        default:
            return [path]
        }
    }
}

extension JSONPath {
    /// `self` is `ancestor` or below it.
    func isWithin(_ ancestor: JSONPath) -> Bool {
        components.count >= ancestor.components.count
            && Array(components.prefix(ancestor.components.count)) == ancestor.components
    }
}
