/// Compact JSON text of a value, for quoting it in messages.
enum JSONWriterText {
    static func compact(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.compact(value), as: UTF8.self)
    }
}
