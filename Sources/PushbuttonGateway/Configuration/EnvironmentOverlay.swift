import Foundation
import Pushbutton

/// Lays the `PUSHBUTTON_…` variables over a configuration's JSON, remembering which variable set which member
/// so that the reader's diagnostics can name it.
struct EnvironmentOverlay {
    var root: JSONValue
    let environment: [String: String]
    let currentDirectory: String
    let readFile: (String) -> [UInt8]?
    /// The variable (as `NAME` or `NAME_FILE`) behind each member it set.
    private(set) var sources: [JSONPath: String] = [:]
    /// Problems with the variables themselves (both `NAME` and `NAME_FILE`, an unreadable file).
    private(set) var diagnostics: [Diagnostic] = []

    init(
        root: JSONValue, environment: [String: String], currentDirectory: String,
        readFile: @escaping (String) -> [UInt8]?
    ) {
        self.root = root
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.readFile = readFile
    }

    /// The variable behind `path` or the nearest of its ancestors.
    func source(of path: JSONPath) -> String? {
        var current = path
        while true {
            if let source = sources[current] { return source }
            if current.components.isEmpty { return nil }
            current = current.parent
        }
    }

    mutating func apply() {
        let appPath = appIndex().map { JSONPath.root.appending("apps").appending($0) }
        for setting in EnvironmentSetting.all {
            var base = JSONPath.root
            if setting.isApp {
                guard let appPath else { continue }
                base = appPath
            }
            let path = setting.path.reduce(base) { $0.appending($1) }
            guard let (text, source) = value(of: setting, at: path) else { continue }
            if case .listen = setting.kind {
                let (host, port) = Self.splitListen(text)
                if let host { set(.string(host), at: path.appending("host"), source: source) }
                set(Self.integer(port), at: path.appending("port"), source: source)
            } else {
                set(convert(text, setting.kind), at: path, source: source)
            }
        }
    }

    /// The index of the app `PUSHBUTTON_APP_…` describes: the file's app with `PUSHBUTTON_APP_ID`, or one more.
    private mutating func appIndex() -> Int? {
        let named = EnvironmentSetting.all.filter { $0.isApp }.map(\.name).filter {
            environment[$0] != nil || environment[$0 + "_FILE"] != nil
        }
        guard let first = named.first else { return nil }
        let idSetting = EnvironmentSetting.all.first { $0.name == "PUSHBUTTON_APP_ID" }!
        guard let id = value(of: idSetting, at: .root.appending("apps"))?.text else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: .root.appending("apps"),
                    "\(first) is set but PUSHBUTTON_APP_ID is not: the app's variables need its id",
                    hint: "set PUSHBUTTON_APP_ID=chat (letters, digits, '-', '_', '.')"))
            sources[.root.appending("apps")] = first
            return nil
        }
        let apps = root.objectValue?["apps"]?.arrayValue ?? []
        if let index = apps.firstIndex(where: { $0.objectValue?["id"]?.stringValue == id }) { return index }
        let path = JSONPath.root.appending("apps").appending(apps.count)
        set(.object([:]), at: path, source: "PUSHBUTTON_APP_ID (app '\(id)' from the environment)")
        return apps.count
    }

    /// The variable's text, from `NAME` or from the file `NAME_FILE` names (its final line break dropped).
    private mutating func value(of setting: EnvironmentSetting, at path: JSONPath) -> (text: String, source: String)? {
        let direct = environment[setting.name]
        let fileName = setting.name + "_FILE"
        let file = setting.acceptsFile ? environment[fileName] : nil
        if direct != nil, file != nil {
            diagnostics.append(
                Diagnostic(
                    .error, .duplicateKey, at: path, "both \(setting.name) and \(fileName) are set",
                    hint: "set one: \(fileName) names a file holding the value (a mounted secret)"))
            sources[path] = fileName
            return nil
        }
        if let direct { return (direct, setting.name) }
        guard let file else { return nil }
        let absolute = resolve(file)
        guard let bytes = readFile(absolute) else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: path, "cannot read '\(absolute)', which \(fileName) names",
                    hint: "mount the secret there, or make it readable by this user"))
            sources[path] = fileName
            return nil
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return (text, fileName)
    }

    private func convert(_ text: String, _ kind: EnvironmentSetting.Kind) -> JSONValue {
        switch kind {
        case .string, .listen: return .string(text)
        case .integer: return Self.integer(text)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes": return .bool(true)
            case "false", "0", "no": return .bool(false)
            default: return .string(text)
            }
        case .list:
            return .array(
                text.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) }.filter {
                    $0 != .string("")
                })
        case .path: return .string(text.isEmpty ? text : resolve(text))
        case .store:
            guard text.hasPrefix("sqlite:") else { return .string(text) }
            return .string("sqlite:" + resolve(String(text.dropFirst("sqlite:".count))))
        case .proxy:
            return ["false", "none", "off"].contains(text.lowercased()) ? .bool(false) : .string(text)
        }
    }

    /// A decimal integer, or the text (which the reader then reports as not an integer).
    private static func integer(_ text: String) -> JSONValue {
        Int64(text).map(JSONValue.integer) ?? .string(text)
    }

    /// `HOST:PORT`, `:PORT` or `PORT`.
    static func splitListen(_ text: String) -> (host: String?, port: String) {
        guard let colon = text.lastIndex(of: ":") else { return (nil, text) }
        let host = String(text[..<colon])
        return (host.isEmpty ? nil : host, String(text[text.index(after: colon)...]))
    }

    private func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: currentDirectory).appendingPathComponent(path).path
    }

    private mutating func set(_ value: JSONValue, at path: JSONPath, source: String) {
        root = Self.setting(value, in: root, at: path.components[...])
        sources = sources.filter { !$0.key.isWithin(path) || $0.key == path }
        sources[path] = source
    }

    /// `container` with `value` at `path`, creating objects (and one more array element) on the way.
    private static func setting(_ value: JSONValue, in container: JSONValue, at path: ArraySlice<JSONPath.Component>)
        -> JSONValue
    {
        guard let first = path.first else { return value }
        switch first {
        case .key(let key):
            var members = container.objectValue ?? [:]
            members[key] = setting(value, in: members[key] ?? .null, at: path.dropFirst())
            return .object(members)
        case .index(let index):
            var elements = container.arrayValue ?? []
            if index >= elements.count { elements.append(.null) }
            elements[min(index, elements.count - 1)] = setting(
                value, in: elements[min(index, elements.count - 1)], at: path.dropFirst())
            return .array(elements)
        }
    }
}
