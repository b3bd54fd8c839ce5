/// The dictionary form of `aps.alert`.
public struct AlertContent: Sendable, Hashable {
    /// `title`: the bold first line.
    public var title: String?
    /// `subtitle`: the line under the title (iOS 10 and later).
    public var subtitle: String?
    /// `body`: the message text.
    public var body: String?
    /// `launch-image`.
    public var launchImage: String?
    /// `title-loc-key` and `title-loc-args`.
    public var titleLocKey: String?
    /// Strings that replace the `%@` placeholders of the `title-loc-key` text, in order.
    public var titleLocArgs: [String]?
    /// `subtitle-loc-key` and `subtitle-loc-args`.
    public var subtitleLocKey: String?
    /// Strings that replace the `%@` placeholders of the `subtitle-loc-key` text, in order.
    public var subtitleLocArgs: [String]?
    /// `loc-key` and `loc-args`: the localized body.
    public var locKey: String?
    /// Strings that replace the `%@` placeholders of the `loc-key` text, in order.
    public var locArgs: [String]?
    /// Any other alert key, kept as is.
    public var extra: [String: JSONValue]

    /// Creates an alert dictionary; every key is absent unless given.
    public init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, launchImage: String? = nil,
        titleLocKey: String? = nil, titleLocArgs: [String]? = nil, subtitleLocKey: String? = nil,
        subtitleLocArgs: [String]? = nil, locKey: String? = nil, locArgs: [String]? = nil,
        extra: [String: JSONValue] = [:]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.launchImage = launchImage
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.subtitleLocKey = subtitleLocKey
        self.subtitleLocArgs = subtitleLocArgs
        self.locKey = locKey
        self.locArgs = locArgs
        self.extra = extra
    }
}
