/// `aps.alert`: a plain string, or a dictionary with a title, subtitle, body and localization keys.
public enum Alert: Sendable, Hashable {
    case text(String)
    case content(AlertContent)

    /// The body text, whichever form the alert has.
    public var body: String? {
        switch self {
        case .text(let text): return text
        case .content(let content): return content.body
        }
    }
}
