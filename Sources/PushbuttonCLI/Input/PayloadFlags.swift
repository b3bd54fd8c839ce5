import Pushbutton

/// The flags that build a payload, shared by `pushbutton payload` and `pushbutton send`.
enum PayloadFlags {
    static let options: [ArgumentSpec.Option] = [
        .init("--category", value: "ID", help: "aps.category: whose buttons to show."),
        .init("--title", value: "TEXT", help: "The alert title."),
        .init("--subtitle", value: "TEXT", help: "The alert subtitle."),
        .init("--body", value: "TEXT", help: "The alert body."),
        .init("--badge", value: "N", help: "The badge number."),
        .init("--sound", value: "NAME", help: "A sound name, or 'default'."),
        .init("--thread-id", value: "ID", help: "Groups notifications."),
        .init("--interruption-level", value: "LEVEL", help: "passive, active, time-sensitive or critical."),
        .init("--relevance-score", value: "X", help: "From 0 to 1."),
        .init("--button", value: "ID=ACTION[:ARGS_JSON]", help: "An action for a button.", repeatable: true),
        .init(
            "--body-action", value: "ACTION[:ARGS_JSON]", help: "An action for a tap on the body.", repeatable: true
        ),
        .init(
            "--dismiss-action", value: "ACTION[:ARGS_JSON]", help: "An action for a dismissal.", repeatable: true),
        .init("--define", value: "ID=TITLE[:OPTIONS]", help: "A dynamic button.", repeatable: true),
        .init("--arg", value: "KEY=VALUE", help: "An action_args entry.", repeatable: true),
        .init("--custom", value: "KEY=JSON", help: "A custom top-level key.", repeatable: true),
    ]

    static let flags: [ArgumentSpec.Flag] = [
        .init("--content-available", help: "Set content-available: 1."),
        .init("--mutable-content", help: "Set mutable-content: 1."),
    ]

    /// Whether any payload flag was given.
    static func given(_ arguments: ParsedArguments) -> Bool {
        options.contains { arguments.options[$0.name] != nil } || flags.contains { arguments.has($0.name) }
    }

    /// The payload flags that were given, for messages.
    static func givenNames(_ arguments: ParsedArguments) -> [String] {
        options.map(\.name).filter { arguments.options[$0] != nil } + flags.map(\.name).filter { arguments.has($0) }
    }

    static func build(_ arguments: ParsedArguments) throws(UsageError) -> Payload {
        var payload = Payload()
        var alert = AlertContent()
        alert.title = arguments.value("--title")
        alert.subtitle = arguments.value("--subtitle")
        alert.body = arguments.value("--body")
        if alert != AlertContent() { payload.aps.alert = .content(alert) }
        payload.aps.category = arguments.value("--category")
        if let badge = arguments.value("--badge") { payload.aps.badge = try integer(badge, "--badge") }
        payload.aps.sound = arguments.value("--sound").map(Sound.named)
        payload.aps.threadID = arguments.value("--thread-id")
        payload.aps.interruptionLevel = arguments.value("--interruption-level").map(InterruptionLevel.init)
        if let score = try arguments.number("--relevance-score", in: 0...1) { payload.aps.relevanceScore = score }
        payload.aps.contentAvailable = arguments.has("--content-available")
        payload.aps.mutableContent = arguments.has("--mutable-content")
        for button in arguments.values("--button") {
            let (identifier, rest) = try split(button, "--button", "ID=ACTION[:ARGS_JSON]")
            payload.addAction(try spec(rest, "--button"), forButton: identifier)
        }
        for action in arguments.values("--body-action") { payload.addBodyAction(try spec(action, "--body-action")) }
        for action in arguments.values("--dismiss-action") {
            payload.addDismissAction(try spec(action, "--dismiss-action"))
        }
        let defined = try arguments.values("--define").map(dynamicButton)
        if !defined.isEmpty {
            let category = payload.aps.category
            payload.setDynamicButtons(defined)
            if let category, category != payload.aps.category {
                throw UsageError(
                    "--category cannot be combined with --define (the category is derived from the buttons)")
            }
        }
        for argument in arguments.values("--arg") {
            let (key, value) = try split(argument, "--arg", "KEY=VALUE")
            payload.actionArguments = payload.actionArguments ?? [:]
            payload.actionArguments?[key] = (try? JSONParser.parse(value)) ?? .string(value)
        }
        for custom in arguments.values("--custom") {
            let (key, value) = try split(custom, "--custom", "KEY=JSON")
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

    static func integer(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let value = Int(text) else { throw UsageError("\(option) '\(text)' is not a whole number") }
        return value
    }
}
