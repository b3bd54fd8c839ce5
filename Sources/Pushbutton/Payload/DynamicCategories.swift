/// The rules for categories derived from a payload's dynamic buttons.
///
/// - The identifier is `pushbutton.dyn.` followed by 16 hex digits of a 64-bit FNV-1a hash over the
///   buttons in order (identifier, title, option bits, each length-prefixed), so the same set always
///   gives the same category and a different order or title gives another one.
/// - A payload may define at most ``maximumButtons`` buttons (more are never shown in a banner's
///   expanded view worth having, and the set travels in every payload).
/// - A device keeps at most ``maximumRegistered`` dynamic categories; registering one more evicts
///   the least recently used dynamic category (never a category from any other source).
public enum DynamicCategories {
    /// The identifier prefix of derived categories.
    public static let prefix = SystemIdentifiers.reservedPrefix + "dyn."
    /// The most buttons one payload may define.
    public static let maximumButtons = 4
    /// The most dynamic categories a device keeps registered at once.
    public static let maximumRegistered = 32

    /// The derived category identifier for a button set.
    public static func identifier(for buttons: [DynamicButton]) -> String {
        var hasher = FNV1a()
        func mixField(_ text: String) {
            hasher.combine(withUnsafeBytes(of: UInt32(text.utf8.count).littleEndian) { Array($0) })
            hasher.combine(text.utf8)
        }
        for button in buttons {
            mixField(button.identifier)
            mixField(button.title)
            hasher.combine(
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: button.options.rawValue).littleEndian) { Array($0) })
        }
        let hash = hasher.value
        let hex = String(hash, radix: 16)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The category the device registers for a button set.
    public static func category(for buttons: [DynamicButton]) -> Category {
        Category(identifier(for: buttons), actions: buttons.map(\.action))
    }

    /// Whether an identifier names a derived category.
    public static func isDynamic(_ identifier: String) -> Bool { identifier.hasPrefix(prefix) }
}
