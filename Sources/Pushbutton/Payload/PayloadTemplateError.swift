/// Why a template could not be made or rendered.
public struct PayloadTemplateError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the template, when it could not be made.
    public var diagnostics: [Diagnostic]
    /// What went wrong rendering, when it could not be rendered.
    public var message: String?

    init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
        message = nil
    }

    init(_ message: String) {
        diagnostics = []
        self.message = message
    }

    public var description: String {
        message ?? diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")
    }
}
