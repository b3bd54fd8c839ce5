/// Whom a notification goes to: tokens given directly, or the active devices of a user, with a tag, or that a
/// segment reaches.
public enum Audience: Sendable, Hashable {
    case tokens([String])
    case user(String)
    case tag(String)
    /// The active devices a segment reaches (evaluated as of the call).
    case segment(Segment)
}
