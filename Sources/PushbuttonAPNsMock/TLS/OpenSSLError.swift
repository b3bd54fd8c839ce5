internal import COpenSSL

/// The reason OpenSSL gave for its most recent failure, emptying its error queue.
enum OpenSSLError {
    static func last() -> String {
        var text = ""
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            text +=
                (text.isEmpty ? "" : "; ") + String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
        }
        return text.isEmpty ? "no detail from OpenSSL" : text
    }
}
