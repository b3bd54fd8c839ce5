extension Payload {
    /// The top-level `mdm` key of an MDM push: the device's push magic string, which tells it to contact its
    /// MDM server.
    public var mdmPushMagic: String? {
        get { custom["mdm"]?.stringValue }
        set { custom["mdm"] = newValue.map(JSONValue.string) }
    }

    /// The payload of a Live Activity push: `Payload.liveActivity(.update(contentState: …, timestamp: now))`.
    public static func liveActivity(_ push: LiveActivityPush) -> Payload { push.payload }

    /// The payload of a widgets or controls push: `{"aps": {"content-changed": true}}`.
    public static func contentChanged() -> Payload {
        var payload = Payload()
        payload.aps.contentChanged = true
        return payload
    }

    /// The payload of an MDM push: `{"mdm": pushMagic}` (with the empty `aps` every written payload has).
    public static func mdm(pushMagic: String) -> Payload {
        var payload = Payload()
        payload.mdmPushMagic = pushMagic
        return payload
    }
}
