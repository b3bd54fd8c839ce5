/// What `pushbutton.share` hands the share sheet.
public struct ShareContent: Sendable, Hashable {
    public var text: String?
    /// An http(s) link.
    public var url: String?

    public init(text: String? = nil, url: String? = nil) {
        self.text = text
        self.url = url
    }
}
