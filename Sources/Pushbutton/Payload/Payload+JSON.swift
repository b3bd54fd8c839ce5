extension Payload {
    /// The payload as a JSON value (the writer's fast path writes exactly the same bytes). A typed field
    /// wins over a custom key of the same name.
    public var jsonValue: JSONValue {
        var object = custom
        object["aps"] = aps.jsonValue
        if let actions { object[Self.actionsKey] = actions.jsonValue }
        if let actionArguments { object[Self.actionArgumentsKey] = .object(actionArguments) }
        return .object(object)
    }
}

extension APS {
    /// The `aps` dictionary as a JSON value.
    public var jsonValue: JSONValue {
        var object = extra
        if let alert { object["alert"] = alert.jsonValue }
        if let badge { object["badge"] = .integer(Int64(badge)) }
        if let sound { object["sound"] = sound.jsonValue }
        if let threadID { object["thread-id"] = .string(threadID) }
        if let category { object["category"] = .string(category) }
        if contentAvailable { object["content-available"] = 1 }
        if mutableContent { object["mutable-content"] = 1 }
        if let targetContentID { object["target-content-id"] = .string(targetContentID) }
        if let interruptionLevel { object["interruption-level"] = .string(interruptionLevel.rawValue) }
        if let relevanceScore { object["relevance-score"] = .double(relevanceScore) }
        if let filterCriteria { object["filter-criteria"] = .string(filterCriteria) }
        let live = liveActivity
        if let timestamp = live.timestamp { object["timestamp"] = .integer(timestamp) }
        if let event = live.event { object["event"] = .string(event) }
        if let contentState = live.contentState { object["content-state"] = contentState }
        if let staleDate = live.staleDate { object["stale-date"] = .integer(staleDate) }
        if let dismissalDate = live.dismissalDate { object["dismissal-date"] = .integer(dismissalDate) }
        if let attributesType = live.attributesType { object["attributes-type"] = .string(attributesType) }
        if let attributes = live.attributes { object["attributes"] = attributes }
        return .object(object)
    }
}

extension Alert {
    /// `aps.alert` as a JSON value.
    public var jsonValue: JSONValue {
        switch self {
        case .text(let text): return .string(text)
        case .content(let content): return content.jsonValue
        }
    }
}

extension AlertContent {
    /// The alert dictionary as a JSON value.
    public var jsonValue: JSONValue {
        var object = extra
        let strings: [(String, String?)] = [
            ("title", title), ("subtitle", subtitle), ("body", body), ("launch-image", launchImage),
            ("title-loc-key", titleLocKey), ("subtitle-loc-key", subtitleLocKey), ("loc-key", locKey),
        ]
        for (key, value) in strings { if let value { object[key] = .string(value) } }
        let lists: [(String, [String]?)] = [
            ("title-loc-args", titleLocArgs), ("subtitle-loc-args", subtitleLocArgs), ("loc-args", locArgs),
        ]
        for (key, value) in lists { if let value { object[key] = .array(value.map(JSONValue.string)) } }
        return .object(object)
    }
}

extension Sound {
    /// `aps.sound` as a JSON value.
    public var jsonValue: JSONValue {
        switch self {
        case .named(let name): return .string(name)
        case .critical(let name, let volume, let isCritical):
            var object: [String: JSONValue] = ["critical": .integer(isCritical ? 1 : 0), "name": .string(name)]
            if let volume { object["volume"] = .double(volume) }
            return .object(object)
        }
    }
}

extension PayloadActions {
    /// The `pushbutton` object as a JSON value.
    public var jsonValue: JSONValue {
        var object = extra
        object["v"] = .integer(Int64(version))
        if !buttons.isEmpty { object["buttons"] = .object(buttons.mapValues { .array($0.map(\.jsonValue)) }) }
        if !body.isEmpty { object["body"] = .array(body.map(\.jsonValue)) }
        if !dismiss.isEmpty { object["dismiss"] = .array(dismiss.map(\.jsonValue)) }
        if !dynamicButtons.isEmpty { object["define"] = .array(dynamicButtons.map(\.jsonValue)) }
        if let notificationID { object["id"] = .string(notificationID) }
        if let campaignID { object["campaign"] = .string(campaignID) }
        if let media { object["media"] = media.jsonValue }
        return .object(object)
    }
}

extension ActionSpec {
    /// `{"action": name, "args": {…}}` (`args` left out when empty).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["action": .string(name)]
        if !argumentValues.isEmpty { object["args"] = .object(arguments) }
        return .object(object)
    }
}

extension DynamicButton {
    /// `{"id": …, "title": …, "options": […]}` (`options` left out when empty).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["id": .string(identifier), "title": .string(title)]
        if !options.isEmpty { object["options"] = .array(options.nameList.map(JSONValue.string)) }
        return .object(object)
    }
}
