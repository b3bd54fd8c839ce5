/// Who contributed a category to a ``CategorySet``, and how much its definitions weigh in a collision.
public struct CategorySource: Sendable, Hashable, CustomStringConvertible {
    /// A readable name: `built-ins`, `manifest.json`, `the app`, `AcmeSDK`.
    public var name: String
    /// Higher wins a collision; on a tie the category already in the set stays.
    public var precedence: Int

    /// A source named `name`; see the constants for the precedences Pushbutton uses (0 to 50).
    public init(name: String, precedence: Int) {
        self.name = name
        self.precedence = precedence
    }

    /// Pushbutton's built-in categories: the lowest precedence.
    public static let builtins = CategorySource(name: "built-ins", precedence: 0)
    /// Categories found already registered with the system (another library, an older build).
    public static let registered = CategorySource(name: "already registered", precedence: 10)
    /// Generated on the fly from a payload's dynamic buttons.
    public static let dynamic = CategorySource(name: "payload buttons", precedence: 20)
    /// Another library's categories.
    public static func library(_ name: String) -> CategorySource { CategorySource(name: name, precedence: 30) }
    /// A manifest's categories.
    public static func manifest(_ name: String = "manifest") -> CategorySource {
        CategorySource(name: name, precedence: 40)
    }
    /// Categories the app declares in code: the highest precedence.
    public static let app = CategorySource(name: "the app", precedence: 50)

    /// The source's ``name``.
    public var description: String { name }
}
