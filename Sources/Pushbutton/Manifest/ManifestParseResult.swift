/// What reading a manifest produced: the manifest (when the text was JSON with an object at its
/// root) and every diagnostic, located in the source text when it was parsed from text.
public struct ManifestParseResult: Sendable {
    /// The manifest as read. It may be partial when ``diagnostics`` contain errors.
    public var manifest: Manifest?
    /// Everything found, in display order.
    public var diagnostics: [Diagnostic]

    /// Whether the manifest can be used: it was read and no diagnostic is an error.
    public var isUsable: Bool { manifest != nil && !diagnostics.containsErrors }
}

extension Manifest {
    /// Reads and lints a manifest from UTF-8 JSON text. Never traps: all problems are diagnostics.
    public static func parse(_ bytes: [UInt8]) -> ManifestParseResult {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(bytes, recordingLocations: true)
        } catch {
            let diagnostic = Diagnostic(
                .error, .jsonSyntax, at: .root, "malformed JSON: \(error.message)",
                hint: "fix the JSON syntax at this position", location: error.location)
            return ManifestParseResult(manifest: nil, diagnostics: [diagnostic])
        }
        var result = parse(document.value)
        for (path, location) in document.duplicateKeys {
            result.diagnostics.append(
                Diagnostic(
                    .warning, .duplicateKey, at: path,
                    "member '\(path.components.last.map(String.init) ?? "")' "
                        + "appears more than once; only the last one counts", hint: "remove the earlier occurrence",
                    location: location))
        }
        result.diagnostics = document.locating(result.diagnostics)
        return result
    }

    /// Reads and lints a manifest from UTF-8 JSON text.
    public static func parse(_ text: String) -> ManifestParseResult {
        parse(Array(text.utf8))
    }

    /// Reads and lints a manifest from a parsed JSON value.
    public static func parse(_ value: JSONValue) -> ManifestParseResult {
        var reader = ManifestReader()
        guard let read = reader.readManifest(value) else {
            return ManifestParseResult(manifest: nil, diagnostics: reader.diagnostics.sortedForDisplay())
        }
        let lint = ManifestLinter(
            manifest: read.manifest, categoryPaths: read.categoryPaths, legacyPaths: read.legacyPaths,
            builtinPaths: read.builtinPaths
        ).run()
        return ManifestParseResult(manifest: read.manifest, diagnostics: (reader.diagnostics + lint).sortedForDisplay())
    }
}

extension JSONPath.Component: CustomStringConvertible {
    /// The member name, or the index in brackets (`[2]`).
    public var description: String {
        switch self {
        case .key(let key): return key
        case .index(let index): return "[\(index)]"
        }
    }
}
