/// Writes payloads as compact JSON bytes, fast.
///
/// Keys are written in sorted order, so the output is byte-for-byte what ``JSONWriter`` writes for
/// ``Payload/jsonValue``, but without building the intermediate value: known keys are written
/// straight from the typed fields. A writer keeps its buffer between payloads; reuse one per thread.
public struct PayloadWriter: Sendable {
    /// Written through a pointer (see `JSONByteBuffer`): the same bytes as ``JSONWriter``, at less cost.
    private var writer: JSONByteBuffer

    /// Creates a writer with a 4 KiB buffer, APNs' usual payload limit.
    public init() { writer = JSONByteBuffer(capacity: 4096) }

    private init(capacity: Int) { writer = JSONByteBuffer(capacity: capacity) }

    /// The bytes of the last payload written, in an array of their own (the writer reuses its buffer).
    public var bytes: [UInt8] { writer.bytes }

    /// How many bytes the last payload written has.
    public var count: Int { writer.count }

    /// Writes one payload; read it from ``bytes``.
    public mutating func write(_ payload: Payload) {
        // The members are read in place: through the accessors, the aps and the actions would be copied.
        let members = payload.members
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
        func flushCustom(before key: String?, _ writer: inout JSONByteBuffer, _ first: inout Bool) {
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
            writer.writeObject(arguments)
        }
        flushCustom(before: "aps", &writer, &first)
        Self.writeRawKey(#""aps":"#, &writer, &first)
        writeAPS(members)
        if payload.hasActions {
            flushCustom(before: Payload.actionsKey, &writer, &first)
            Self.writeRawKey(#""pushbutton":"#, &writer, &first)
            writeActions(members)
        }
        flushCustom(before: nil, &writer, &first)
        customKeys = []
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// Writes one payload into a new array.
    public static func encode(_ payload: Payload) -> [UInt8] {
        // Most payloads are far below APNs' 4 KiB; the buffer grows for the others.
        var writer = PayloadWriter(capacity: 1024)
        writer.write(payload)
        return writer.bytes
    }

    @inline(__always)  // the key is a constant where it is written: copied by moves, not `memcpy`
    private static func writeRawKey(_ key: StaticString, _ writer: inout JSONByteBuffer, _ first: inout Bool) {
        if !first { writer.writeRaw(UInt8(ascii: ",")) }
        first = false
        writer.writeRaw(key)
    }

    private static func writeKey(_ key: String, _ writer: inout JSONByteBuffer, _ first: inout Bool) {
        if !first { writer.writeRaw(UInt8(ascii: ",")) }
        first = false
        writer.write(key)
        writer.writeRaw(UInt8(ascii: ":"))
    }

    /// The `aps` dictionary, read field by field in place: a copy of the whole `APS` retains each member.
    private mutating func writeAPS(_ members: UnsafePointer<PayloadStorage.Members>) {
        guard members.pointee.aps.extra.isEmpty else {
            writer.write(members.pointee.aps.jsonValue)
            return
        }
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if let alert = members.pointee.aps.alert {
            Self.writeRawKey(#""alert":"#, &writer, &first)
            writeAlert(alert)
        }
        if let attributes = members.pointee.aps.liveActivity.attributes {
            Self.writeRawKey(#""attributes":"#, &writer, &first)
            writer.write(attributes)
        }
        if let attributesType = members.pointee.aps.liveActivity.attributesType {
            writeString(#""attributes-type":"#, attributesType, &first)
        }
        if let badge = members.pointee.aps.badge {
            Self.writeRawKey(#""badge":"#, &writer, &first)
            writer.write(Int64(badge))
        }
        if let category = members.pointee.aps.category { writeString(#""category":"#, category, &first) }
        if members.pointee.aps.contentAvailable { Self.writeRawKey(#""content-available":1"#, &writer, &first) }
        if let contentState = members.pointee.aps.liveActivity.contentState {
            Self.writeRawKey(#""content-state":"#, &writer, &first)
            writer.write(contentState)
        }
        if let dismissalDate = members.pointee.aps.liveActivity.dismissalDate {
            writeInteger(#""dismissal-date":"#, dismissalDate, &first)
        }
        if let event = members.pointee.aps.liveActivity.event { writeString(#""event":"#, event, &first) }
        if let filterCriteria = members.pointee.aps.filterCriteria {
            writeString(#""filter-criteria":"#, filterCriteria, &first)
        }
        if let level = members.pointee.aps.interruptionLevel {
            writeString(#""interruption-level":"#, level.rawValue, &first)
        }
        if members.pointee.aps.mutableContent { Self.writeRawKey(#""mutable-content":1"#, &writer, &first) }
        if let score = members.pointee.aps.relevanceScore {
            Self.writeRawKey(#""relevance-score":"#, &writer, &first)
            writer.write(score)
        }
        if let sound = members.pointee.aps.sound {
            Self.writeRawKey(#""sound":"#, &writer, &first)
            if case .named(let name) = sound { writer.write(name) } else { writer.write(sound.jsonValue) }
        }
        if let staleDate = members.pointee.aps.liveActivity.staleDate {
            writeInteger(#""stale-date":"#, staleDate, &first)
        }
        if let target = members.pointee.aps.targetContentID { writeString(#""target-content-id":"#, target, &first) }
        if let threadID = members.pointee.aps.threadID { writeString(#""thread-id":"#, threadID, &first) }
        if let timestamp = members.pointee.aps.liveActivity.timestamp {
            writeInteger(#""timestamp":"#, timestamp, &first)
        }
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

    /// The `pushbutton` actions (the payload has some), read field by field in place, not copied whole.
    private mutating func writeActions(_ members: UnsafePointer<PayloadStorage.Members>) {
        guard members.pointee.actions!.extra.isEmpty else {
            writer.write(members.pointee.actions!.jsonValue)
            return
        }
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if !members.pointee.actions!.body.isEmpty { writeSpecs(#""body":"#, members.pointee.actions!.body, &first) }
        if !members.pointee.actions!.buttons.isEmpty {
            Self.writeRawKey(#""buttons":"#, &writer, &first)
            writer.writeRaw(UInt8(ascii: "{"))
            if members.pointee.actions!.buttons.count == 1 {
                var iterator = members.pointee.actions!.buttons.makeIterator()
                let (button, specs) = iterator.next()!
                writer.write(button)
                writer.writeRaw(UInt8(ascii: ":"))
                writeSpecList(specs)
            } else {
                for (index, entry) in members.pointee.actions!.buttons.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                    writer.write(entry.key)
                    writer.writeRaw(UInt8(ascii: ":"))
                    writeSpecList(entry.value)
                }
            }
            writer.writeRaw(UInt8(ascii: "}"))
        }
        if let campaign = members.pointee.actions!.campaignID { writeString(#""campaign":"#, campaign, &first) }
        if !members.pointee.actions!.dynamicButtons.isEmpty {
            Self.writeRawKey(#""define":"#, &writer, &first)
            writer.write(.array(members.pointee.actions!.dynamicButtons.map(\.jsonValue)))
        }
        if !members.pointee.actions!.dismiss.isEmpty {
            writeSpecs(#""dismiss":"#, members.pointee.actions!.dismiss, &first)
        }
        if let id = members.pointee.actions!.notificationID { writeString(#""id":"#, id, &first) }
        if let media = members.pointee.actions!.media {
            Self.writeRawKey(#""media":"#, &writer, &first)
            writer.write(media.jsonValue)
        }
        Self.writeRawKey(#""v":"#, &writer, &first)
        writer.write(Int64(members.pointee.actions!.version))
        writer.writeRaw(UInt8(ascii: "}"))
    }

    @inline(__always)
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
            if !spec.argumentValues.isEmpty {
                writer.writeRaw(#","args":"#)
                writer.writeArguments(spec.argumentValues)
            }
            writer.writeRaw(UInt8(ascii: "}"))
        }
        writer.writeRaw(UInt8(ascii: "]"))
    }

    @inline(__always)
    private mutating func writeString(_ key: StaticString, _ value: String, _ first: inout Bool) {
        Self.writeRawKey(key, &writer, &first)
        writer.write(value)
    }

    @inline(__always)
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
