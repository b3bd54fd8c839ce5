import Foundation

/// The fields of a posted form, `application/x-www-form-urlencoded` or `multipart/form-data` (the compose
/// form, which may carry a recipient list file). A repeated name keeps its last value.
struct FormFields: Sendable {
    /// One uploaded file.
    struct File: Sendable {
        var filename: String
        var bytes: [UInt8]
    }

    var values: [String: String] = [:]
    var files: [String: File] = [:]

    subscript(_ name: String) -> String? { values[name] }

    /// The trimmed value, or nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// Why a body could not be read as a form.
    struct Malformed: Error, Sendable {
        var message: String
    }

    /// Reads `body` as the form its `content-type` header names.
    static func parse(contentType: String?, body: [UInt8]) throws(Malformed) -> FormFields {
        let type = (contentType ?? "").lowercased()
        if type.hasPrefix("multipart/form-data") {
            guard let boundary = parameter("boundary", of: contentType ?? "") else {
                throw Malformed(message: "a multipart form without a boundary")
            }
            return try multipart(body, boundary: boundary)
        }
        if type.isEmpty || type.hasPrefix("application/x-www-form-urlencoded") {
            return urlEncoded(String(decoding: body, as: UTF8.self))
        }
        throw Malformed(message: "a form must be sent as application/x-www-form-urlencoded or multipart/form-data")
    }

    static func urlEncoded(_ text: String) -> FormFields {
        var form = FormFields()
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            form.values[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return form
    }

    /// A `name=value` parameter of a header value (`multipart/form-data; boundary=…`), quotes removed.
    static func parameter(_ name: String, of header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    /// The parts between `--boundary` lines (RFC 7578): each a header block, a blank line and its content.
    static func multipart(_ body: [UInt8], boundary: String) throws(Malformed) -> FormFields {
        var form = FormFields()
        let delimiter = Array("--\(boundary)".utf8)
        var starts = ranges(of: delimiter, in: body)
        guard !starts.isEmpty else { throw Malformed(message: "the multipart body has no part") }
        starts.append(body.count)
        for index in 0..<(starts.count - 1) {
            var part = Array(body[(starts[index] + delimiter.count)..<starts[index + 1]])
            if part.starts(with: Array("--".utf8)) { break }  // the closing delimiter
            if part.starts(with: [0x0D, 0x0A]) { part.removeFirst(2) }
            if part.suffix(2) == [0x0D, 0x0A] { part.removeLast(2) }
            guard let split = ranges(of: [0x0D, 0x0A, 0x0D, 0x0A], in: part).first else {
                throw Malformed(message: "a part of the multipart body has no blank line after its headers")
            }
            let headers = String(decoding: part[..<split], as: UTF8.self)
            let content = Array(part[(split + 4)...])
            var disposition = ""
            for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
                disposition = String(line)
            }
            guard let name = parameter("name", of: disposition) else {
                throw Malformed(message: "a part of the multipart body has no name")
            }
            if let filename = parameter("filename", of: disposition) {
                form.files[name] = File(filename: filename, bytes: content)
            } else {
                form.values[name] = String(decoding: content, as: UTF8.self)
            }
        }
        return form
    }

    /// Where `needle` starts in `haystack`, left to right, without overlaps.
    private static func ranges(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        var found: [Int] = []
        var index = 0
        let first = needle[0]
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                found.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }
}
