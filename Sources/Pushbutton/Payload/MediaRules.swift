/// The checks of `pushbutton.media` (``PayloadMedia``) that ``PayloadValidator`` runs: a URL the service extension
/// can download (`https:`, with a host), a type that matches the file it names, and `mutable-content`, without
/// which no extension runs and no media is shown.
enum MediaRules {
    private static let path = JSONPath.root.appending(Payload.actionsKey).appending("media")

    /// Every problem of the payload's media; none when it has none.
    static func check(_ payload: Payload) -> [Diagnostic] {
        guard let media = payload.actions?.media else { return [] }
        var diagnostics: [Diagnostic] = []
        let url = URLText(media.url)
        switch url.scheme {
        case .https?:
            break
        case .http?:
            diagnostics.append(
                Diagnostic(
                    .warning, .media, at: path.appending("url"),
                    "'\(media.url)' is plain http: the extension downloads only https unless the app allows http "
                        + "(and App Transport Security blocks it by default)",
                    hint: "serve the media over https"))
        case .other?, nil:
            diagnostics.append(
                Diagnostic(
                    .error, .media, at: path.appending("url"),
                    "'\(media.url)' is not an https URL the extension can download", hint: "https://host/path.jpg"))
        }
        if url.scheme == .https || url.scheme == .http, url.host == .none {
            diagnostics.append(
                Diagnostic(.error, .media, at: path.appending("url"), "'\(media.url)' names no host"))
        }
        if let named = PayloadMedia.Kind.inferred(fromURL: media.url), named != media.kind,
            !(Set([named, media.kind]) == [.image, .gif])
        {
            diagnostics.append(
                Diagnostic(
                    .warning, .media, at: path.appending("type"),
                    "'type' is \(media.kind.rawValue) but the URL names a file of type \(named.rawValue); the "
                        + "extension checks the downloaded bytes and drops media of another type",
                    hint: "set \"type\": \"\(named.rawValue)\""))
        }
        if !payload.aps.mutableContent {
            diagnostics.append(
                Diagnostic(
                    .warning, .media, at: JSONPath.root.appending("aps").appending("mutable-content"),
                    "media without \"mutable-content\": 1: no Notification Service Extension runs, so nothing "
                        + "downloads or attaches it",
                    hint: "add \"mutable-content\": 1 (--mutable-content; --media sets it)"))
        }
        return diagnostics
    }
}
