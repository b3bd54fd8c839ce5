import Foundation

extension MockAPNsConfiguration {
    /// One of APNs' two environments, as a provider certificate's Apple extensions name them.
    public enum CertificateEnvironment: String, Sendable, Hashable, CaseIterable {
        /// Development, `api.sandbox.push.apple.com` (extension 1.2.840.113635.100.6.3.1).
        case sandbox
        /// Production, `api.push.apple.com` (extension 1.2.840.113635.100.6.3.2).
        case production

        /// The OID of the extension that names this environment on a certificate.
        var extensionOID: String {
            switch self {
            case .sandbox: "1.2.840.113635.100.6.3.1"
            case .production: "1.2.840.113635.100.6.3.2"
            }
        }
    }
}
