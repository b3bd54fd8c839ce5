/// The dictionary form of `aps.alert`.
public struct AlertContent: Sendable, Hashable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    /// `launch-image`.
    public var launchImage: String?
    /// `title-loc-key` and `title-loc-args`.
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    /// `subtitle-loc-key` and `subtitle-loc-args`.
    public var subtitleLocKey: String?
    public var subtitleLocArgs: [String]?
    /// `loc-key` and `loc-args`: the localized body.
    public var locKey: String?
    public var locArgs: [String]?
    /// Any other alert key, kept as is.
    public var extra: [String: JSONValue]

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
