import Foundation
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

extension GatewayConfiguration {
    /// One line per file holding this configuration's secrets that other users of the machine may read:
    /// each app's provider key, certificate key, PKCS#12 bundle and pass phrase file, and the configuration
    /// file itself when it holds a secret (the webhook's, or a password in the store's or the proxy's URL).
    /// A file two apps share is named once; `configurationFile` is nil when there is none (the environment).
    /// `pushbutton serve` prints them as warnings and starts.
    public func openSecretWarnings(configurationFile: String?) -> [String] {
        var files: [(path: String, what: String)] = []
        for app in apps {
            switch app.credentials {
            case .token(let keyFile, _, _): files.append((keyFile, "app '\(app.id)': the provider key"))
            case .certificate(_, let keyFile): files.append((keyFile, "app '\(app.id)': the certificate key"))
            case .pkcs12(let file, let passphraseFile):
                files.append((file, "app '\(app.id)': the PKCS#12 bundle"))
                if let passphraseFile { files.append((passphraseFile, "app '\(app.id)': the pass phrase file")) }
            }
        }
        var held: [String] = []
        if webhook != nil { held.append("the webhook secret") }
        if StoreLocation.redacted(store) != store { held.append("the store's password") }
        if case .through(let proxy) = proxy, proxy.password != nil { held.append("the proxy's password") }
        if let configurationFile, !held.isEmpty {
            files.append((configurationFile, "the configuration (it holds \(held.joined(separator: " and ")))"))
        }
        var seen = Set<String>()  // a key two apps share: one warning
        return files.filter { seen.insert($0.path).inserted }.compactMap {
            SecretFile.exposureWarning($0.path, holding: $0.what)
        }
    }
}
