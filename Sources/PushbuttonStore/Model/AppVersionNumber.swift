/// An app version (`CFBundleShortVersionString`: `2`, `2.1`, `2.10.3`) as one number that sorts as semantic
/// versions do: major × 10¹², minor × 10⁶, patch (each part 0 to 999999; missing parts are 0, so `2.1` equals
/// `2.1.0`). Devices keep it beside the text (`devices.version_number`), so `app_version` segments compare and
/// index it in SQL; a version that is not of this form is kept as ``unparsed`` and matches no comparison.
public enum AppVersionNumber {
    /// What a device whose version is not one to compare keeps (never matched by an `app_version` leaf).
    public static let unparsed: Int64 = -1

    /// The number of `text`, or nil when it is not one to three dot-separated parts of 1 to 6 digits.
    public static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var number: Int64 = 0
        for index in 0..<3 {
            var value: Int64 = 0
            if index < parts.count {
                let part = parts[index]
                guard (1...6).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let parsed = Int64(part)
                else { return nil }
                value = parsed
            }
            number = number * 1_000_000 + value
        }
        return number
    }

    /// The number a device with `version` keeps: its ``parse(_:)`` or ``unparsed`` (also for no version).
    public static func stored(_ version: String?) -> Int64 {
        version.flatMap(parse) ?? unparsed
    }
}
