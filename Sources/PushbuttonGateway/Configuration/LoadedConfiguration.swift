import Pushbutton

/// The configuration read from a file and the environment together (``GatewayConfiguration/load(file:bytes:environment:currentDirectory:readFile:)``):
/// the configuration when nothing is wrong, every diagnostic with where it came from, and where each member's
/// value came from (for `serve --print-config`).
public struct LoadedConfiguration: Sendable {
    /// `nil` when a diagnostic is an error.
    public var configuration: GatewayConfiguration?
    /// Every problem found, in display order; those from the file carry their line and column.
    public var diagnostics: [Diagnostic]
    /// For each diagnostic, the variable it came from (`PUSHBUTTON_WORKERS`), or `nil` for the file's.
    public var sources: [String?]
    /// Where each member came from, by its path (`workers.count`): a variable, or the file's path. Members
    /// absent here have their default.
    public var origins: [String: String]

    /// Where `path`'s value came from: a variable, the file, or "default". A member given in parts
    /// (`environment.host`, `secretKeys[0]`) takes the source of its first part.
    public func origin(of path: String) -> String {
        if let origin = origins[path] { return origin }
        let parts = origins.filter { $0.key.hasPrefix(path + ".") || $0.key.hasPrefix(path + "[") }
        return parts.min { $0.key < $1.key }?.value ?? "default"
    }
}
