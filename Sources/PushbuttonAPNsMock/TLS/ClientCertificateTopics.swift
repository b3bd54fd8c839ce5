internal import COpenSSL
import Foundation

/// The topics an APNs provider certificate covers, as APNs reads them: the subject's UID (the bundle id the
/// certificate was made for) and the strings of Apple's topic extension (OID 1.2.840.113635.100.6.3.6, a
/// sequence of topics, each followed by the sequence of its push types: `app`, `voip`, `complication`…),
/// which a "Sandbox & Production" certificate carries for the app, its VoIP and complication topics —
/// and the environments it is for (``MockAPNsConfiguration/CertificateEnvironment``), empty when it names none.
struct ClientCertificateTopics: Sendable, Hashable {
    /// The subject's UID, if any.
    var subjectUID: String?
    /// Every topic the certificate covers (the UID included).
    var topics: Set<String>
    /// The environments Apple's extensions on it name: one for a development or production certificate,
    /// both for "Sandbox & Production", none for a certificate made elsewhere.
    var environments: Set<MockAPNsConfiguration.CertificateEnvironment> = []

    static let topicExtensionOID = "1.2.840.113635.100.6.3.6"

    /// Reads a DER certificate; nil when it is not one.
    init?(der: [UInt8]) {
        let certificate = der.withUnsafeBufferPointer { bytes -> OpaquePointer? in
            var pointer = bytes.baseAddress
            return d2i_X509(nil, &pointer, bytes.count)
        }
        guard let certificate else {
            ERR_clear_error()
            return nil
        }
        defer { X509_free(certificate) }
        var topics = Set<String>()
        let name = X509_get_subject_name(certificate)
        let index = X509_NAME_get_index_by_NID(name, NID_userId, -1)
        if index >= 0, let entry = X509_NAME_get_entry(name, index) {
            var output: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&output, X509_NAME_ENTRY_get_data(entry))
            if length > 0, let output {
                subjectUID = String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
                pushbutton_openssl_free(output)
            }
        }
        if let subjectUID { topics.insert(subjectUID) }
        if let object = OBJ_txt2obj(Self.topicExtensionOID, 1) {
            defer { ASN1_OBJECT_free(object) }
            let position = X509_get_ext_by_OBJ(certificate, object, -1)
            if position >= 0, let ext = X509_get_ext(certificate, position), let data = X509_EXTENSION_get_data(ext) {
                let bytes = Array(
                    UnsafeBufferPointer(start: ASN1_STRING_get0_data(data), count: Int(ASN1_STRING_length(data))))
                topics.formUnion(Self.topicStrings(bytes))
            }
        }
        for environment in MockAPNsConfiguration.CertificateEnvironment.allCases {
            guard let object = OBJ_txt2obj(environment.extensionOID, 1) else { continue }
            if X509_get_ext_by_OBJ(certificate, object, -1) >= 0 { environments.insert(environment) }
            ASN1_OBJECT_free(object)
        }
        ERR_clear_error()
        self.topics = topics
    }

    /// The UTF8Strings directly inside the extension's outer SEQUENCE (the nested push-type sequences are
    /// skipped). Malformed DER yields what was read before it.
    static func topicStrings(_ der: [UInt8]) -> [String] {
        guard let outer = element(der, at: 0), outer.tag == 0x30 else { return [] }
        var strings: [String] = []
        var position = outer.contentStart
        while position < outer.end, let inner = element(der, at: position), inner.end <= outer.end {
            if inner.tag == 0x0C {
                strings.append(String(decoding: der[inner.contentStart..<inner.end], as: UTF8.self))
            }
            position = inner.end
        }
        return strings
    }

    /// One DER element at `offset`: its tag, where its content starts, where it ends.
    private static func element(_ der: [UInt8], at offset: Int) -> (tag: UInt8, contentStart: Int, end: Int)? {
        guard offset + 2 <= der.count else { return nil }
        let tag = der[offset]
        var length = Int(der[offset + 1])
        var start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...3).contains(count), start + count <= der.count else { return nil }
            length = der[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard start + length <= der.count else { return nil }
        return (tag, start, start + length)
    }
}
