import Foundation

/// Client certificates shaped like APNs provider certificates, made with the `openssl` command at test time
/// (never committed) in a directory of the test's own: a CA, and certificates it signs with a subject UID
/// (the bundle id) and, when asked, Apple's topic extension (1.2.840.113635.100.6.3.6) listing topics.
package struct TestCertificates: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// One client certificate's files.
    package struct Client: Sendable {
        package var certificate: String
        package var key: String
        /// The PKCS#12 bundle (certificate, key, CA), protected by the pass phrase in ``passphraseFile``.
        package var pkcs12: String
        package var passphraseFile: String
    }

    package let directory: String
    package var caFile: String { directory + "/client-ca.pem" }
    private var caKey: String { directory + "/client-ca-key.pem" }

    /// Creates the CA in `directory`.
    package init(directory: String) async throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await Self.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", caKey,
                "-out", caFile, "-subj", "/CN=Pushbutton test client CA", "-days", "2",
            ], in: directory)
    }

    /// A certificate for `bundleID` (its subject UID), valid for `days` (a negative number makes one that
    /// expired), with `topics` in Apple's topic extension when given, and Apple's environment extensions
    /// (`"sandbox"`: 1.2.840.113635.100.6.3.1, `"production"`: …6.3.2) for `environments`; `passphrase`
    /// protects its `.p12`.
    package func client(
        _ name: String, bundleID: String, topics: [String]? = nil, environments: [String] = [], days: Int = 2,
        passphrase: String = "open sesame"
    ) async throws -> Client {
        let base = directory + "/" + name
        var config = """
            [ext]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = clientAuth

            """
        for environment in environments {
            let oid = environment == "sandbox" ? "1.2.840.113635.100.6.3.1" : "1.2.840.113635.100.6.3.2"
            config = config.replacingOccurrences(of: "clientAuth\n", with: "clientAuth\n\(oid) = ASN1:NULL\n")
        }
        if let topics {
            config += "1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:topics\n\n[topics]\n"
            for (index, topic) in topics.enumerated() {
                config += "topic\(index) = UTF8:\(topic)\ntypes\(index) = SEQUENCE:types\(index)\n"
            }
            for (index, topic) in topics.enumerated() {
                let type =
                    topic.hasSuffix(".voip") ? "voip" : topic.hasSuffix(".complication") ? "complication" : "app"
                config += "\n[types\(index)]\ntype = UTF8:\(type)\n"
            }
        }
        try config.write(toFile: base + ".cnf", atomically: true, encoding: .utf8)
        try await Self.openssl(
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                base + "-key.pem", "-out", base + ".csr", "-subj",
                "/UID=\(bundleID)/CN=Apple Push Services: \(bundleID)/OU=TEAM123456",
            ], in: directory)
        try await Self.openssl(
            [
                "x509", "-req", "-in", base + ".csr", "-CA", caFile, "-CAkey", caKey, "-CAcreateserial", "-days",
                String(days), "-extfile", base + ".cnf", "-extensions", "ext", "-out", base + ".pem",
            ], in: directory)
        try (passphrase + "\n").write(toFile: base + ".pass", atomically: true, encoding: .utf8)
        try await Self.openssl(
            [
                "pkcs12", "-export", "-in", base + ".pem", "-inkey", base + "-key.pem", "-certfile", caFile,
                "-passout", "file:" + base + ".pass", "-out", base + ".p12",
            ], in: directory)
        return Client(
            certificate: base + ".pem", key: base + "-key.pem", pkcs12: base + ".p12", passphraseFile: base + ".pass")
    }

    /// A `.p12` holding only `client`'s certificate, no key.
    package func certificateOnlyPKCS12(_ client: Client) async throws -> String {
        let path = client.pkcs12.replacingOccurrences(of: ".p12", with: "-nokey.p12")
        try await Self.openssl(
            [
                "pkcs12", "-export", "-nokeys", "-in", client.certificate, "-passout", "file:" + client.passphraseFile,
                "-out", path,
            ], in: directory)
        return path
    }

    private static func openssl(_ arguments: [String], in directory: String) async throws {
        let result = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"), arguments, in: URL(fileURLWithPath: directory))
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result.stderr)")
        }
    }
}
