import Pushbutton

/// The flags that build a payload, shared by `pushbutton payload` and `pushbutton send`.
enum PayloadFlags {
    static let category = Option<String>("--category", value: "ID", help: "aps.category: whose buttons to show.")
    static let title = Option<String>("--title", value: "TEXT", help: "The alert title.")
    static let subtitle = Option<String>("--subtitle", value: "TEXT", help: "The alert subtitle.")
    static let body = Option<String>("--body", value: "TEXT", help: "The alert body.")
    static let badge = Option<Int>("--badge", value: "N", help: "The badge number.") {
        text, option throws(UsageError) in
        guard let value = Int(text) else { throw UsageError("\(option) '\(text)' is not a whole number") }
        return value
    }
    static let sound = Option<String>("--sound", value: "NAME", help: "A sound name, or 'default'.")
    static let threadID = Option<String>("--thread-id", value: "ID", help: "Groups notifications.")
    static let interruptionLevel = Option<String>(
        "--interruption-level", value: "LEVEL", help: "passive, active, time-sensitive or critical.")
    /// A notification's score is from 0 to 1 (the validator says so); a Live Activity's orders the app's activities.
    static let relevanceScore = Option<Double>(
        "--relevance-score", value: "X", help: "From 0 to 1 (a Live Activity's: any number from 0).",
        range: 0...1_000_000)
    static let button = RepeatableOption<String>(
        "--button", value: "ID=ACTION[:ARGS_JSON]", help: "An action for a button.")
    static let bodyAction = RepeatableOption<String>(
        "--body-action", value: "ACTION[:ARGS_JSON]", help: "An action for a tap on the body.")
    static let dismissAction = RepeatableOption<String>(
        "--dismiss-action", value: "ACTION[:ARGS_JSON]", help: "An action for a dismissal.")
    static let define = RepeatableOption<String>("--define", value: "ID=TITLE[:OPTIONS]", help: "A dynamic button.")
    static let arg = RepeatableOption<String>("--arg", value: "KEY=VALUE", help: "An action_args entry.")
    static let custom = RepeatableOption<String>("--custom", value: "KEY=JSON", help: "A custom top-level key.")
    static let contentAvailable = Flag("--content-available", help: "Set content-available: 1.")
    static let mutableContent = Flag("--mutable-content", help: "Set mutable-content: 1.")
    static let media = Option<String>(
        "--media", value: "URL", help: "Media the service extension shows (sets mutable-content: 1).")
    static let mediaType = Option<String>(
        "--media-type", value: "TYPE", help: "image, gif, video or audio (default: from the URL's extension).")

    static let options: [any OptionDeclaration] =
        [
            category, title, subtitle, body, badge, sound, threadID, interruptionLevel, relevanceScore, button,
            bodyAction, dismissAction, define, arg, custom, media, mediaType,
        ] + AlertKeyFlags.options + LiveActivityFlags.options

    static let flags = [contentAvailable, mutableContent] + LiveActivityFlags.flags

    /// Whether any payload flag was given.
    static func given(_ arguments: ParsedArguments) -> Bool { !givenNames(arguments).isEmpty }

    /// The payload flags that were given, for messages.
    static func givenNames(_ arguments: ParsedArguments) -> [String] {
        options.filter(arguments.isGiven).map(\.name) + flags.filter { arguments[$0] }.map(\.name)
    }

    static func build(_ arguments: ParsedArguments) throws(UsageError) -> Payload {
        var payload = Payload()
        var alert = AlertContent()
        alert.title = try arguments[Self.title]
        alert.subtitle = try arguments[Self.subtitle]
        alert.body = try arguments[Self.body]
        if alert != AlertContent() { payload.aps.alert = .content(alert) }
        payload.aps.category = try arguments[Self.category]
        if let badge = try arguments[Self.badge] { payload.aps.badge = badge }
        payload.aps.sound = try arguments[Self.sound].map(Sound.named)
        payload.aps.threadID = try arguments[Self.threadID]
        payload.aps.interruptionLevel = try arguments[Self.interruptionLevel].map(InterruptionLevel.init)
        if let score = try arguments[Self.relevanceScore] { payload.aps.relevanceScore = score }
        payload.aps.contentAvailable = arguments[Self.contentAvailable]
        payload.aps.mutableContent = arguments[Self.mutableContent]
        try AlertKeyFlags.apply(arguments, to: &payload)
        try LiveActivityFlags.apply(arguments, to: &payload)
        for button in try arguments[Self.button] {
            let (identifier, rest) = try split(button, Self.button.name, "ID=ACTION[:ARGS_JSON]")
            payload.addAction(try spec(rest, Self.button.name), forButton: identifier)
        }
        for action in try arguments[Self.bodyAction] { payload.addBodyAction(try spec(action, Self.bodyAction.name)) }
        for action in try arguments[Self.dismissAction] {
            payload.addDismissAction(try spec(action, Self.dismissAction.name))
        }
        let defined = try arguments[Self.define].map(dynamicButton)
        if !defined.isEmpty {
            let category = payload.aps.category
            payload.setDynamicButtons(defined)
            if let category, category != payload.aps.category {
                throw UsageError(
                    "--category cannot be combined with --define (the category is derived from the buttons)")
            }
        }
        payload.setMedia(try builtMedia(arguments))
        for argument in try arguments[Self.arg] {
            let (key, value) = try split(argument, Self.arg.name, "KEY=VALUE")
            payload.actionArguments = payload.actionArguments ?? [:]
            payload.actionArguments?[key] = (try? JSONParser.parse(value)) ?? .string(value)
        }
        for custom in try arguments[Self.custom] {
            let (key, value) = try split(custom, Self.custom.name, "KEY=JSON")
            guard key != "aps", key != Payload.actionsKey, key != Payload.actionArgumentsKey else {
                throw UsageError("--custom cannot set '\(key)'; use the dedicated options")
            }
            do {
                payload.custom[key] = try JSONParser.parse(value)
            } catch {
                throw UsageError("--custom \(key): \(error.message) (strings need quotes: \(key)='\"text\"')")
            }
        }
        return payload
    }

    /// `--media URL [--media-type TYPE]`, the type from the URL's extension when not given.
    static func builtMedia(_ arguments: ParsedArguments) throws(UsageError) -> PayloadMedia? {
        let type = try arguments[Self.mediaType]
        guard let url = try arguments[Self.media] else {
            if type != nil { throw UsageError("--media-type needs --media URL") }
            return nil
        }
        let names = PayloadMedia.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        if let type {
            guard let kind = PayloadMedia.Kind(rawValue: type) else {
                throw UsageError("--media-type '\(type)' is not one of \(names)")
            }
            return PayloadMedia(url: url, kind: kind)
        }
        guard let kind = PayloadMedia.Kind.inferred(fromURL: url) else {
            throw UsageError("--media '\(url)': the URL names no known file type; add --media-type (\(names))")
        }
        return PayloadMedia(url: url, kind: kind)
    }

    static func split(_ text: String, _ option: String, _ form: String) throws(UsageError) -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw UsageError("\(option) '\(text)' is not of the form \(form)")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `ACTION` or `ACTION:ARGS_JSON`.
    static func spec(_ text: String, _ option: String) throws(UsageError) -> ActionSpec {
        guard let colon = text.firstIndex(of: ":") else {
            guard !text.isEmpty else { throw UsageError("\(option) needs an action name") }
            return ActionSpec(text)
        }
        let name = String(text[..<colon])
        let json = String(text[text.index(after: colon)...])
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw UsageError("\(option) \(name): the arguments are not JSON (\(error.message))")
        }
        guard let arguments = value.objectValue else {
            throw UsageError("\(option) \(name): the arguments must be a JSON object, not \(value.typeDescription)")
        }
        return ActionSpec(name, arguments: arguments)
    }

    static func dynamicButton(_ text: String) throws(UsageError) -> DynamicButton {
        let (identifier, rest) = try split(text, "--define", "ID=TITLE[:OPTIONS]")
        var title = rest
        var options: ActionOptions = []
        // A suffix of letters and commas after the last colon lists options; anything else is part of the title.
        if let colon = rest.lastIndex(of: ":"),
            rest[rest.index(after: colon)...].allSatisfy({ $0.isLetter || $0 == "," }),
            colon < rest.index(before: rest.endIndex)
        {
            title = String(rest[..<colon])
            for name in rest[rest.index(after: colon)...].split(separator: ",") {
                guard let option = ActionOptions.names.first(where: { $0.name == name })?.option else {
                    throw UsageError(
                        "--define \(identifier): '\(name)' is not an action option (foreground, destructive, "
                            + "authenticationRequired)")
                }
                options.insert(option)
            }
        }
        return DynamicButton(identifier, title: title, options: options)
    }
}
