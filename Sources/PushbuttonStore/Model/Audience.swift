/// Whom a notification goes to: tokens given directly, or the active devices of a user or with a tag.
public enum Audience: Sendable, Hashable {
    case tokens([String])
    case user(String)
    case tag(String)
}
