import Foundation
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

extension GatewayConfiguration {
    /// The effective configuration as `path = value` pairs, defaults included, for `serve --print-config`;
    /// every secret is `***` (the webhook's, and the password in the store's or the proxy's URL).
    public var printableSettings: [(path: String, value: String)] {
        var lines: [(String, String)] = [
            ("listen.host", listen.host), ("listen.port", "\(listen.port)"),
        ]
        if let tls = listen.tls {
            lines += [("listen.tls.certificate", tls.certificate), ("listen.tls.key", tls.key)]
        } else {
            lines.append(("listen.tls", "none (plain HTTP)"))
        }
        lines.append(("store", Self.redactingPassword(store)))
        switch proxy {
        case .environment: lines.append(("proxy", "HTTPS_PROXY from the environment, if set"))
        case .direct: lines.append(("proxy", "none"))
        case .through(let proxy): lines.append(("proxy", proxy.description))
        }
        lines += [
            ("shutdownSeconds", "\(Int(shutdownGrace.seconds))"),
            ("workers.count", "\(workers.count)"), ("workers.batchSize", "\(workers.batchSize)"),
            ("workers.leaseSeconds", "\(Int(workers.lease.seconds))"),
            ("workers.pollMilliseconds", "\(Int(workers.pollInterval.seconds * 1000))"),
            ("workers.maxAttempts", "\(workers.retryPolicy.maximumAttempts)"),
            ("workers.apnsTimeoutSeconds", "\(Int(workers.requestTimeout.seconds))"),
            ("limits.maxBodyBytes", "\(listen.maximumBodyBytes)"),
            ("limits.clientRequestTimeoutSeconds", "\(Int(listen.requestTimeout.seconds))"),
            ("limits.idleTimeoutSeconds", "\(Int(listen.idleTimeout.seconds))"),
            ("limits.maxRecipients", "\(maximumRecipients)"),
            ("limits.maxWaitSeconds", "\(maximumWaitSeconds)"), ("limits.maxWaiters", "\(maximumWaiters)"),
        ]
        if let webhook {
            lines += [("webhook.url", webhook.url), ("webhook.secret", "***")]
            if let events = webhook.events {
                lines += [
                    ("webhook.events.url", events.url ?? webhook.url),
                    ("webhook.events.types", events.types.map(\.rawValue).sorted().joined(separator: ",")),
                    ("webhook.events.batch", "\(events.batch)"),
                ]
            }
        } else {
            lines.append(("webhook", "none"))
        }
        for (index, app) in apps.enumerated() {
            let path = "apps[\(index)]"
            lines += [
                ("\(path).id", app.id), ("\(path).topic", app.topic), ("\(path).manifest", app.manifestPath),
                ("\(path).environment", app.environment.description),
            ]
            switch app.credentials {
            case .token(let keyFile, let keyID, let teamID):
                lines += [
                    ("\(path).auth.key", keyFile), ("\(path).auth.keyId", keyID), ("\(path).auth.teamId", teamID),
                ]
            case .certificate(let certificateFile, let keyFile):
                lines += [("\(path).auth.certificate", certificateFile), ("\(path).auth.certificateKey", keyFile)]
            case .pkcs12(let file, let passphraseFile):
                lines.append(("\(path).auth.pkcs12", file))
                if let passphraseFile { lines.append(("\(path).auth.passphraseFile", passphraseFile)) }
            }
            lines += [
                ("\(path).secretKeys", "\(app.secretKeyDigests.count) key digest(s)"),
                ("\(path).publishableKeys", "\(app.publishableKeyDigests.count) key digest(s)"),
                ("\(path).connections", "\(app.connections)"),
            ]
        }
        return lines
    }

    /// `url` with its password (and any `password=` parameter) as `***`.
    static func redactingPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.scheme != "sqlite" else { return url }
        let hasParameter = components.queryItems?.contains { ["password", "passfile"].contains($0.name) } ?? false
        guard components.password != nil || hasParameter else { return url }
        if components.password != nil { components.percentEncodedPassword = "***" }
        components.queryItems = components.queryItems?.map {
            ["password", "passfile"].contains($0.name) ? URLQueryItem(name: $0.name, value: "***") : $0
        }
        return components.string ?? "***"
    }
}
