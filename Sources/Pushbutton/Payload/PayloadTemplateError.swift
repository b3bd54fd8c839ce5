/// Why a template could not be made or rendered: a ``code`` to branch on, and what to fix.
public struct PayloadTemplateError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Extensible: compare with the static members, keep a default case.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The template is not a valid payload (see ``PayloadTemplateError/diagnostics``).
        public static let invalidTemplate = Code(rawValue: "invalid-template")
        /// Rendering was given more or fewer values than the template has placeholders.
        public static let wrongValueCount = Code(rawValue: "wrong-value-count")
        /// A named value is not a placeholder of the template.
        public static let unknownPlaceholder = Code(rawValue: "unknown-placeholder")
        /// A placeholder has no value.
        public static let missingValue = Code(rawValue: "missing-value")
        /// A value's type does not fit where its placeholder stands.
        public static let wrongValueType = Code(rawValue: "wrong-value-type")
        /// A rendered value is not valid where it stands (a URL for a URL action).
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// The rendered payload is over APNs' size limit.
        public static let payloadTooLarge = Code(rawValue: "payload-too-large")
    }

    /// What went wrong, to branch on.
    public var code: Code
    /// What is wrong with the template, when it could not be made.
    public var diagnostics: [Diagnostic]
    /// What went wrong rendering, when it could not be rendered.
    public var message: String?

    init(diagnostics: [Diagnostic]) {
        code = .invalidTemplate
        self.diagnostics = diagnostics
        message = nil
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        diagnostics = []
        self.message = message
    }

    /// The message, or the errors among the diagnostics.
    public var description: String {
        message ?? diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")
    }
}
