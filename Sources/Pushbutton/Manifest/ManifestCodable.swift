/// A value that reads from and writes to Pushbutton's manifest JSON format.
///
/// `Codable` conformance comes from this protocol, so `JSONDecoder` and the manifest reader accept exactly
/// the same documents and report the same problems: decoding throws when the reader finds an error.
public protocol ManifestCodable: Codable {
    /// Reads a value from manifest JSON, with the diagnostics found (paths relative to `path`).
    static func read(manifestJSON: JSONValue, at path: JSONPath) -> (value: Self?, diagnostics: [Diagnostic])
    /// The value in manifest JSON.
    var manifestJSON: JSONValue { get }
}

extension ManifestCodable {
    /// Decodes through ``read(manifestJSON:at:)``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` listing every error the reader found, with its path.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        let (value, diagnostics) = Self.read(manifestJSON: json, at: .root)
        let errors = diagnostics.filter { $0.severity == .error }
        guard let value, errors.isEmpty else {
            let reasons = errors.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "invalid \(Self.self): \(reasons)"))
        }
        self = value
    }

    /// Encodes ``manifestJSON``.
    public func encode(to encoder: any Encoder) throws {
        try manifestJSON.encode(to: encoder)
    }
}

extension Manifest: ManifestCodable {
    /// Reads a whole manifest, with the reader's and the linter's diagnostics.
    public static func read(manifestJSON: JSONValue, at path: JSONPath) -> (value: Manifest?, diagnostics: [Diagnostic])
    {
        let result = parse(manifestJSON)
        return (result.manifest, result.diagnostics)
    }

    /// The manifest as a document: defaults (no locales, no built-ins, authentication required) are left out.
    public var manifestJSON: JSONValue {
        var object: [String: JSONValue] = [
            "version": .integer(Int64(version)),
            "defaultLocale": .string(defaultLocale),
            "categories": .array(categories.map(\.manifestJSON)),
        ]
        if !locales.isEmpty { object["locales"] = .array(locales.map(JSONValue.string)) }
        if !builtins.isEmpty { object["builtins"] = .array(builtins.map(JSONValue.string)) }
        if !backgroundActionsRequireAuthentication {
            object["options"] = ["backgroundActionsRequireAuthentication": false]
        }
        if !legacyCategories.isEmpty { object["legacyCategories"] = .array(legacyCategories.map(\.manifestJSON)) }
        return .object(object)
    }
}

extension Category: ManifestCodable {
    /// Reads one category object, as found in the manifest's `categories`.
    public static func read(manifestJSON: JSONValue, at path: JSONPath) -> (value: Category?, diagnostics: [Diagnostic])
    {
        var reader = ManifestReader()
        let category = reader.readCategory(manifestJSON, at: path)
        return (category, reader.diagnostics)
    }

    /// The category object; empty lists and absent texts are left out.
    public var manifestJSON: JSONValue {
        var object: [String: JSONValue] = [
            "identifier": .string(identifier), "actions": .array(actions.map(\.manifestJSON)),
        ]
        if !intentIdentifiers.isEmpty { object["intentIdentifiers"] = .array(intentIdentifiers.map(JSONValue.string)) }
        if let hiddenPreviewsBodyPlaceholder {
            object["hiddenPreviewsBodyPlaceholder"] = hiddenPreviewsBodyPlaceholder.manifestJSON
        }
        if let summaryFormat { object["summaryFormat"] = summaryFormat.manifestJSON }
        if !options.isEmpty { object["options"] = .array(options.nameList.map(JSONValue.string)) }
        return .object(object)
    }
}

extension Action: ManifestCodable {
    /// Reads one action object, as found in a category's `actions`.
    public static func read(manifestJSON: JSONValue, at path: JSONPath) -> (value: Action?, diagnostics: [Diagnostic]) {
        var reader = ManifestReader()
        let action = reader.readAction(manifestJSON, at: path)
        return (action, reader.diagnostics)
    }

    /// The action object; empty options and an absent icon or text input are left out.
    public var manifestJSON: JSONValue {
        var object: [String: JSONValue] = ["identifier": .string(identifier), "title": title.manifestJSON]
        if !options.isEmpty { object["options"] = .array(options.nameList.map(JSONValue.string)) }
        switch icon {
        case .system(let name)?: object["icon"] = ["systemImage": .string(name)]
        case .template(let name)?: object["icon"] = ["templateImage": .string(name)]
        case nil: break
        }
        if let textInput {
            object["textInput"] = [
                "buttonTitle": textInput.buttonTitle.manifestJSON, "placeholder": textInput.placeholder.manifestJSON,
            ]
        }
        return .object(object)
    }
}

extension LegacyCategory: ManifestCodable {
    /// Reads one legacy category object, as found in the manifest's `legacyCategories`.
    public static func read(manifestJSON: JSONValue, at path: JSONPath) -> (
        value: LegacyCategory?, diagnostics: [Diagnostic]
    ) {
        var reader = ManifestReader()
        let category = reader.readLegacyCategory(manifestJSON, at: path)
        return (category, reader.diagnostics)
    }

    /// The legacy category object; empty action lists are left out.
    public var manifestJSON: JSONValue {
        var object: [String: JSONValue] = ["identifier": .string(identifier)]
        if !defaultActions.isEmpty { object["defaultActions"] = .array(defaultActions.map(\.manifestJSON)) }
        if !minimalActions.isEmpty { object["minimalActions"] = .array(minimalActions.map(\.manifestJSON)) }
        return .object(object)
    }
}

extension LegacyAction: ManifestCodable {
    /// Reads one legacy action object, as found in a legacy category's action lists.
    public static func read(manifestJSON: JSONValue, at path: JSONPath) -> (
        value: LegacyAction?, diagnostics: [Diagnostic]
    ) {
        var reader = ManifestReader()
        let action = reader.readLegacyAction(manifestJSON, at: path)
        return (action, reader.diagnostics)
    }

    /// The legacy action object; `false` flags, the default behavior and empty parameters are left out.
    public var manifestJSON: JSONValue {
        var object: [String: JSONValue] = [
            "identifier": .string(identifier), "title": title.manifestJSON,
            "activationMode": .string(activationMode.rawValue),
        ]
        if isDestructive { object["destructive"] = true }
        if isAuthenticationRequired { object["authenticationRequired"] = true }
        if behavior != .default { object["behavior"] = .string(behavior.rawValue) }
        if !parameters.isEmpty { object["parameters"] = .object(parameters.mapValues(JSONValue.string)) }
        return .object(object)
    }
}

extension LocalizedText {
    /// The text in manifest JSON: a string, or `{"key": …, "values": {…}}`.
    public var manifestJSON: JSONValue {
        switch self {
        case .literal(let text): return .string(text)
        case .localized(let key, let values):
            return ["key": .string(key), "values": .object(values.mapValues(JSONValue.string))]
        }
    }
}
