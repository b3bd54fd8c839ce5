/// A payload with `{{name}}` placeholders, validated once and rendered per recipient.
///
/// A campaign sends one structure to many people with a few personalized fields. Checking the structure
/// for every notification is wasted work, so a template is validated against the manifest once, when it
/// is made, and compiled to byte segments. Rendering only escapes the values into place, checks the size,
/// and re-checks the few things a value can change (a URL whose scheme or host comes from a placeholder).
///
/// Placeholders stand in string values: inline (`"https://api.example.com/messages/{{id}}/like"`, where
/// any scalar value is written as text) or as the whole string (`"{{id}}"`, where, inside `action_args`,
/// action arguments and custom keys, a value is written as JSON of its own type, e.g. a number). The
/// structure must be fixed: no placeholder in a key, `aps.category`, `aps.interruption-level`, an action
/// name or a dynamic button.
public struct PayloadTemplate: Sendable {
    /// One piece of the compiled payload.
    enum Segment: Sendable {
        /// JSON text written as is.
        case literal([UInt8])
        /// A value spliced into a string (its escaped text).
        case inline(Int)
        /// A whole string value; `anyJSON` lets it be any JSON value (free-form positions only).
        case whole(Int, anyJSON: Bool)
    }

    /// A URL that a placeholder can change, re-checked after each render.
    struct URLCheck: Sendable {
        /// The segments that make up the URL's text (without quotes).
        var segments: Range<Int>
        var path: JSONPath
        /// `pushbutton.open_url` and `pushbutton.share` need http(s); `pushbutton.callback` needs http(s) with a host.
        var needsWeb: Bool
        var needsHost: Bool
    }

    /// The placeholder names, in the order ``render(_:into:)`` takes their values: the order in which
    /// they first appear in the written payload (whose keys are sorted).
    public let placeholders: [String]
    /// What validating the template found (warnings and notes; a template with errors is not made).
    public let diagnostics: [Diagnostic]
    let segments: [Segment]
    let urlChecks: [URLCheck]
    let sizeLimit: Int

    /// Compiles `payload`, validating it with `validator` (when given) as sent in `context`.
    public init(
        _ payload: Payload, validator: PayloadValidator? = nil, context: PayloadValidator.Context = .init()
    ) throws(PayloadTemplateError) {
        var compiler = TemplateCompiler()
        compiler.compile(payload.jsonValue, at: .root)
        var diagnostics = compiler.diagnostics
        if let validator { diagnostics += validator.validate(payload, context: context) }
        guard !diagnostics.containsErrors else {
            throw PayloadTemplateError(diagnostics: diagnostics.sortedForDisplay())
        }
        placeholders = compiler.names
        segments = compiler.segments
        urlChecks = compiler.urlChecks
        sizeLimit = context.pushType.maximumPayloadSize
        self.diagnostics = diagnostics.sortedForDisplay()
    }

    /// Renders the payload for one recipient into `writer` (reset first), with `values` in the order of
    /// ``placeholders``. Throws when a value does not fit its place, a URL stops being valid, or the
    /// payload grows over APNs' limit.
    public func render(_ values: [JSONValue], into writer: inout JSONWriter) throws(PayloadTemplateError) {
        guard values.count == placeholders.count else {
            throw PayloadTemplateError(
                .wrongValueCount,
                "expected \(placeholders.count) values (\(placeholders.joined(separator: ", "))), got \(values.count)")
        }
        writer.reset()
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                writer.writeRaw(bytes)
            case .inline(let index):
                try writeInline(values[index], name: placeholders[index], into: &writer)
            case .whole(let index, let anyJSON):
                if anyJSON {
                    writer.write(values[index])
                } else {
                    writer.writeRaw(UInt8(ascii: "\""))
                    try writeInline(values[index], name: placeholders[index], into: &writer)
                    writer.writeRaw(UInt8(ascii: "\""))
                }
            }
        }
        if writer.bytes.count > sizeLimit {
            throw PayloadTemplateError(
                .payloadTooLarge,
                "the rendered payload is \(writer.bytes.count) bytes, \(writer.bytes.count - sizeLimit) over APNs' "
                    + "\(sizeLimit)-byte limit")
        }
        for check in urlChecks { try recheck(check, values) }
    }

    /// Orders values given by name for ``render(_:into:)``; a missing or unknown name is an error.
    public func values(_ named: [String: JSONValue]) throws(PayloadTemplateError) -> [JSONValue] {
        if let unknown = named.keys.sorted().first(where: { !placeholders.contains($0) }) {
            throw PayloadTemplateError(
                .unknownPlaceholder,
                "'\(unknown)' is not a placeholder of this template (\(placeholders.joined(separator: ", ")))")
        }
        var values: [JSONValue] = []
        for name in placeholders {
            guard let value = named[name] else { throw PayloadTemplateError(.missingValue, "no value for '\(name)'") }
            values.append(value)
        }
        return values
    }

    /// Renders into a new array (convenient; reuse a writer with ``render(_:into:)`` for bulk sends).
    public func render(_ values: [JSONValue]) throws(PayloadTemplateError) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512)
        try render(values, into: &writer)
        return writer.bytes
    }

    private func writeInline(_ value: JSONValue, name: String, into writer: inout JSONWriter)
        throws(PayloadTemplateError)
    {
        switch value {
        case .string(let text): writer.writeStringContents(text)
        case .integer(let integer): writer.write(integer)
        case .double(let double): writer.write(double)
        case .bool(let bool): bool ? writer.writeRaw("true") : writer.writeRaw("false")
        case .null, .array, .object:
            throw PayloadTemplateError(
                .wrongValueType,
                "'\(name)' stands inside a string, so it takes a string or a number, not \(value.typeDescription)")
        }
    }

    private func recheck(_ check: URLCheck, _ values: [JSONValue]) throws(PayloadTemplateError) {
        var writer = JSONWriter(reservingCapacity: 128)
        for segment in segments[check.segments] {
            switch segment {
            case .literal(let bytes): writer.writeRaw(bytes)
            case .inline(let index), .whole(let index, _):
                try writeInline(values[index], name: placeholders[index], into: &writer)
            }
        }
        // The segments hold escaped text; a URL never needs escapes, so reading it back as UTF-8 is exact.
        let text = String(decoding: writer.bytes, as: UTF8.self)
        let url = URLText(text)
        let web = url.scheme == .http || url.scheme == .https
        if url.scheme == nil || (check.needsWeb && !web) || (check.needsHost && url.host == .none) {
            throw PayloadTemplateError(
                .invalidValue, "\(check.path): the rendered URL '\(text)' is not valid for this action")
        }
    }
}
