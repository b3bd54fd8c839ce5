import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

/// `pushbutton send --apps FILE`: the apps one send may address, each with its environment and credentials,
/// read from a JSON file (relative paths are taken from the file's directory):
///
/// ```json
/// {"environments": {"local": {"host": "127.0.0.1", "port": 8443, "ca": "mock/ca.pem"}},
///  "apps": [
///    {"topic": "com.example.chat", "environment": "production",
///     "key": "AuthKey.p8", "key-id": "KEY1234567", "team-id": "TEAM123456"},
///    {"topic": "com.example.legacy", "environment": "sandbox",
///     "certificate": "legacy.p12", "passphrase-file": "legacy.pass"},
///    {"topic": "com.example.pem", "environment": "local",
///     "certificate": "pem.pem", "certificate-key": "pem-key.pem"}]}
/// ```
///
/// `production` and `sandbox` are APNs' own; `environments` names stand-ins. An NDJSON line picks its app with
/// `"topic"` (else `--topic`) and `"environment"` (else the topic's only one).
struct SendApps: Sendable {
    let apps: [APNsApp]
    /// Every environment name the file can use, with where it points.
    let environments: [String: APNsEnvironment]

    static func load(_ path: String, console: Console) throws -> SendApps {
        let bytes = try console.read(path)
        let root: [String: JSONValue]
        do {
            guard let object = try JSONParser.parse(bytes).objectValue else {
                throw CommandFailure("\(path): the apps file must be a JSON object with an \"apps\" array")
            }
            root = object
        } catch let error as JSONParseError {
            throw CommandFailure("\(path): not valid JSON: \(error.message) at line \(error.location.line)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        func file(_ value: String) -> String { value.hasPrefix("/") ? value : directory + "/" + value }
        var environments: [String: APNsEnvironment] = ["production": .production, "sandbox": .sandbox]
        for (name, value) in root["environments"]?.objectValue ?? [:] {
            let where_ = "\(path): environments.\(name)"
            guard let object = value.objectValue, let host = object["host"]?.stringValue, !host.isEmpty else {
                throw CommandFailure("\(where_): give an object with \"host\" (and \"port\", \"ca\", \"h2c\")")
            }
            let port = object["port"]?.integerValue.map(Int.init) ?? 443
            guard (1...65_535).contains(port) else { throw CommandFailure("\(where_).port: give 1 to 65535") }
            environments[name] = APNsEnvironment(
                host: host, port: port, caFile: object["ca"]?.stringValue.map(file),
                cleartext: object["h2c"]?.boolValue ?? false)
        }
        guard let list = root["apps"]?.arrayValue, !list.isEmpty else {
            throw CommandFailure("\(path): \"apps\" must be a non-empty array of apps")
        }
        var apps: [APNsApp] = []
        var warned = Set<String>()  // a key several apps share: one warning
        for (index, value) in list.enumerated() {
            let where_ = "\(path): apps[\(index)]"
            guard let app = value.objectValue else { throw CommandFailure("\(where_): must be an object") }
            func string(_ name: String) throws -> String? {
                guard let member = app[name] else { return nil }
                guard let text = member.stringValue, !text.isEmpty else {
                    throw CommandFailure("\(where_).\(name): must be a non-empty string")
                }
                return text
            }
            func required(_ name: String) throws -> String {
                guard let text = try string(name) else { throw CommandFailure("\(where_): \"\(name)\" is missing") }
                return text
            }
            let topic = try required("topic")
            let environmentName = try required("environment")
            guard let environment = environments[environmentName] else {
                throw CommandFailure(
                    "\(where_).environment: '\(environmentName)' is not production, sandbox or a name under "
                        + "\"environments\"")
            }
            let credentials: APNsApp.Credentials
            for (member, what) in [
                ("key", "the provider key"), ("certificate-key", "the certificate key"),
                ("passphrase-file", "the pass phrase file"),
            ] + (app["certificate-key"] == nil ? [("certificate", "the PKCS#12 bundle")] : []) {
                if let path = try string(member).map(file), warned.insert(path).inserted,
                    let warning = SecretFile.exposureWarning(path, holding: "\(where_).\(member): \(what)")
                {
                    console.printError("pushbutton: warning: \(warning)")
                }
            }
            if let certificate = try string("certificate") {
                guard app["key"] == nil else {
                    throw CommandFailure("\(where_): give \"key\" (token) or \"certificate\", not both")
                }
                if let key = try string("certificate-key") {
                    credentials = .certificate(.pem(certificate: file(certificate), key: file(key)))
                } else {
                    credentials = .certificate(
                        .pkcs12(file: file(certificate), passphraseFile: try string("passphrase-file").map(file)))
                }
            } else {
                let keyPath = file(try required("key"))
                do {
                    credentials = .token(
                        key: try P256PrivateKey(contentsOf: keyPath), keyID: try required("key-id"),
                        teamID: try required("team-id"))
                } catch let error as KeyError {
                    throw CommandFailure("\(where_).key: \(error.message)")
                }
            }
            apps.append(APNsApp(topic: topic, environment: environment, credentials: credentials))
        }
        return SendApps(apps: apps, environments: environments)
    }
}
