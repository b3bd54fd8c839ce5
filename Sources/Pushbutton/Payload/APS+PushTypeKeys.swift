extension APS {
    /// `content-changed: true`: the widgets or controls push that asks WidgetKit to reload them.
    ///
    /// Kept among the extra keys (APNs' value is the JSON `true`, where other flags are the number 1), so a
    /// payload that has it writes and reads back exactly.
    public var contentChanged: Bool {
        // An empty dictionary would still hash the key: the usual payload has no extra keys.
        get { !extra.isEmpty && extra["content-changed"] == .bool(true) }
        set { extra["content-changed"] = newValue ? .bool(true) : nil }
    }

    /// `input-push-token: 1` on a Live Activity start: the system gives the new activity its own push token
    /// for updates (iOS 18).
    public var inputPushToken: Bool {
        get { extra["input-push-token"]?.integerValue == 1 }
        set { extra["input-push-token"] = newValue ? .integer(1) : nil }
    }

    /// `input-push-channel` on a Live Activity start: the broadcast channel the new activity subscribes to
    /// (iOS 18), instead of a push token of its own.
    public var inputPushChannel: String? {
        get { extra["input-push-channel"]?.stringValue }
        set { extra["input-push-channel"] = newValue.map(JSONValue.string) }
    }
}
