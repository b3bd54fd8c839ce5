/// Writes payloads as compact JSON bytes, fast.
///
/// Keys are written in sorted order, so the output is byte-for-byte what ``JSONWriter`` writes for
/// ``Payload/jsonValue``, but without building the intermediate value: known keys are written
/// straight from the typed fields. A writer keeps its buffer between payloads; reuse one per thread.
public struct PayloadWriter: Sendable {
    private var writer = JSONWriter(reservingCapacity: 4096)

    public init() {}

    /// The bytes of the last payload written.
    public var bytes: [UInt8] { writer.bytes }

    /// Writes one payload; read it from ``bytes``.
    public mutating func write(_ payload: Payload) {
        writer.reset()
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        // A typed field wins over a custom key of the same name, as in `Payload.jsonValue`.
        var customKeys =
            payload.custom.isEmpty
            ? []
            : payload.custom.keys.filter { key in
                key != "aps" && !(key == Payload.actionsKey && payload.actions != nil)
                    && !(key == Payload.actionArgumentsKey && payload.actionArguments != nil)
            }.sorted()
        var nextCustom = 0
        // Custom keys that sort before `key` are written first, so the whole object stays sorted.
        func flushCustom(before key: String?, _ writer: inout JSONWriter, _ first: inout Bool) {
            while nextCustom < customKeys.count, key.map({ customKeys[nextCustom] < $0 }) ?? true {
                let name = customKeys[nextCustom]
                Self.writeKey(name, &writer, &first)
                writer.write(payload.custom[name]!)
                nextCustom += 1
            }
        }
        if let arguments = payload.actionArguments {
            flushCustom(before: Payload.actionArgumentsKey, &writer, &first)
            Self.writeRawKey(#""action_args":"#, &writer, &first)
            writer.write(.object(arguments))
        }
        flushCustom(before: "aps", &writer, &first)
        Self.writeRawKey(#""aps":"#, &writer, &first)
        writeAPS(payload.aps)
        if let actions = payload.actions {
            flushCustom(before: Payload.actionsKey, &writer, &first)
            Self.writeRawKey(#""pushbutton":"#, &writer, &first)
            writeActions(actions)
        }
        flushCustom(before: nil, &writer, &first)
        customKeys = []
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// Writes one payload into a new array.
    public static func encode(_ payload: Payload) -> [UInt8] {
        var writer = PayloadWriter()
        writer.write(payload)
        return writer.bytes
    }

    private static func writeRawKey(_ key: StaticString, _ writer: inout JSONWriter, _ first: inout Bool) {
        if !first { writer.writeRaw(UInt8(ascii: ",")) }
        first = false
        writer.writeRaw(key)
    }

    private static func writeKey(_ key: String, _ writer: inout JSONWriter, _ first: inout Bool) {
        if !first { writer.writeRaw(UInt8(ascii: ",")) }
        first = false
        writer.write(key)
        writer.writeRaw(UInt8(ascii: ":"))
    }

    private mutating func writeAPS(_ aps: APS) {
        guard aps.extra.isEmpty else {
            writer.write(aps.jsonValue)
            return
        }
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        let live = aps.liveActivity
        if let alert = aps.alert {
            Self.writeRawKey(#""alert":"#, &writer, &first)
            writeAlert(alert)
        }
        if let attributes = live.attributes {
            Self.writeRawKey(#""attributes":"#, &writer, &first)
            writer.write(attributes)
        }
        if let attributesType = live.attributesType { writeString(#""attributes-type":"#, attributesType, &first) }
        if let badge = aps.badge {
            Self.writeRawKey(#""badge":"#, &writer, &first)
            writer.write(Int64(badge))
        }
        if let category = aps.category { writeString(#""category":"#, category, &first) }
        if aps.contentAvailable { Self.writeRawKey(#""content-available":1"#, &writer, &first) }
        if let contentState = live.contentState {
            Self.writeRawKey(#""content-state":"#, &writer, &first)
            writer.write(contentState)
        }
        if let dismissalDate = live.dismissalDate { writeInteger(#""dismissal-date":"#, dismissalDate, &first) }
        if let event = live.event { writeString(#""event":"#, event, &first) }
        if let filterCriteria = aps.filterCriteria { writeString(#""filter-criteria":"#, filterCriteria, &first) }
        if let level = aps.interruptionLevel { writeString(#""interruption-level":"#, level.rawValue, &first) }
        if aps.mutableContent { Self.writeRawKey(#""mutable-content":1"#, &writer, &first) }
        if let score = aps.relevanceScore {
            Self.writeRawKey(#""relevance-score":"#, &writer, &first)
            writer.write(score)
        }
        if let sound = aps.sound {
            Self.writeRawKey(#""sound":"#, &writer, &first)
            if case .named(let name) = sound { writer.write(name) } else { writer.write(sound.jsonValue) }
        }
        if let staleDate = live.staleDate { writeInteger(#""stale-date":"#, staleDate, &first) }
        if let target = aps.targetContentID { writeString(#""target-content-id":"#, target, &first) }
        if let threadID = aps.threadID { writeString(#""thread-id":"#, threadID, &first) }
        if let timestamp = live.timestamp { writeInteger(#""timestamp":"#, timestamp, &first) }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    private mutating func writeAlert(_ alert: Alert) {
        switch alert {
        case .text(let text):
            writer.write(text)
        case .content(let content) where !content.extra.isEmpty:
            writer.write(content.jsonValue)
        case .content(let content):
            writer.writeRaw(UInt8(ascii: "{"))
            var first = true
            if let body = content.body { writeString(#""body":"#, body, &first) }
            if let launchImage = content.launchImage { writeString(#""launch-image":"#, launchImage, &first) }
            if let locArgs = content.locArgs { writeStrings(#""loc-args":"#, locArgs, &first) }
            if let locKey = content.locKey { writeString(#""loc-key":"#, locKey, &first) }
            if let subtitle = content.subtitle { writeString(#""subtitle":"#, subtitle, &first) }
            if let args = content.subtitleLocArgs { writeStrings(#""subtitle-loc-args":"#, args, &first) }
            if let key = content.subtitleLocKey { writeString(#""subtitle-loc-key":"#, key, &first) }
            if let title = content.title { writeString(#""title":"#, title, &first) }
            if let args = content.titleLocArgs { writeStrings(#""title-loc-args":"#, args, &first) }
            if let key = content.titleLocKey { writeString(#""title-loc-key":"#, key, &first) }
            writer.writeRaw(UInt8(ascii: "}"))
        }
    }

    private mutating func writeActions(_ actions: PayloadActions) {
        guard actions.extra.isEmpty else {
            writer.write(actions.jsonValue)
            return
        }
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if !actions.body.isEmpty { writeSpecs(#""body":"#, actions.body, &first) }
        if !actions.buttons.isEmpty {
            Self.writeRawKey(#""buttons":"#, &writer, &first)
            writer.writeRaw(UInt8(ascii: "{"))
            if actions.buttons.count == 1, let (button, specs) = actions.buttons.first {
                writer.write(button)
                writer.writeRaw(UInt8(ascii: ":"))
                writeSpecList(specs)
            } else {
                for (index, entry) in actions.buttons.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                    writer.write(entry.key)
                    writer.writeRaw(UInt8(ascii: ":"))
                    writeSpecList(entry.value)
                }
            }
            writer.writeRaw(UInt8(ascii: "}"))
        }
        if let campaign = actions.campaignID { writeString(#""campaign":"#, campaign, &first) }
        if !actions.dynamicButtons.isEmpty {
            Self.writeRawKey(#""define":"#, &writer, &first)
            writer.write(.array(actions.dynamicButtons.map(\.jsonValue)))
        }
        if !actions.dismiss.isEmpty { writeSpecs(#""dismiss":"#, actions.dismiss, &first) }
        if let id = actions.notificationID { writeString(#""id":"#, id, &first) }
        Self.writeRawKey(#""v":"#, &writer, &first)
        writer.write(Int64(actions.version))
        writer.writeRaw(UInt8(ascii: "}"))
    }

    private mutating func writeSpecs(_ key: StaticString, _ specs: [ActionSpec], _ first: inout Bool) {
        Self.writeRawKey(key, &writer, &first)
        writeSpecList(specs)
    }

    /// `[{"action":…,"args":{…}},…]`, keys in sorted order as the generic writer has them.
    private mutating func writeSpecList(_ specs: [ActionSpec]) {
        writer.writeRaw(UInt8(ascii: "["))
        for (index, spec) in specs.enumerated() {
            if index > 0 { writer.writeRaw(UInt8(ascii: ",")) }
            writer.writeRaw(#"{"action":"#)
            writer.write(spec.name)
            if !spec.arguments.isEmpty {
                writer.writeRaw(#","args":"#)
                writer.write(.object(spec.arguments))
            }
            writer.writeRaw(UInt8(ascii: "}"))
        }
        writer.writeRaw(UInt8(ascii: "]"))
    }

    private mutating func writeString(_ key: StaticString, _ value: String, _ first: inout Bool) {
        Self.writeRawKey(key, &writer, &first)
        writer.write(value)
    }

    private mutating func writeInteger(_ key: StaticString, _ value: Int64, _ first: inout Bool) {
        Self.writeRawKey(key, &writer, &first)
        writer.write(value)
    }

    private mutating func writeStrings(_ key: StaticString, _ values: [String], _ first: inout Bool) {
        Self.writeRawKey(key, &writer, &first)
        writer.writeRaw(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { writer.writeRaw(UInt8(ascii: ",")) }
            writer.write(value)
        }
        writer.writeRaw(UInt8(ascii: "]"))
    }
}
