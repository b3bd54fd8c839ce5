#if !canImport(CryptoKit)
    internal import COpenSSL

    /// OpenSSL's error queue and memory BIOs, made readable.
    package enum OpenSSLErrors {
        /// The most recent error on this thread's queue, as text (and clears the queue).
        package static func last() -> String {
            let code = ERR_get_error()
            ERR_clear_error()
            guard code != 0 else { return "unknown OpenSSL error" }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Text written by `write` into a memory BIO (PEM output).
        package static func pem(_ write: (OpaquePointer) -> Int32) -> String {
            guard let bio = BIO_new(BIO_s_mem()) else { return "" }
            defer { BIO_free(bio) }
            guard write(bio) == 1 else { return "" }
            var data: UnsafeMutablePointer<CChar>?
            let length = pushbutton_bio_get_mem_data(bio, &data)
            guard length > 0, let data else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        }
    }
#endif
