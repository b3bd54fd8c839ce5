import Pushbutton

/// `pushbutton payload`: builds an interactive payload from flags, validates it, prints it.
struct PayloadCommand: Command {
    let name = "payload"
    let summary = "Build an interactive APNs payload from flags and print it."
    let discussion = """
        --button ID=ACTION[:ARGS_JSON] says what tapping button ID does, e.g.
          --button like=pushbutton.callback:'{"url":"https://api.example.com/like"}'
          --button open=pushbutton.deeplink:'{"url":"chatter://message/42"}'
        Built-in actions: pushbutton.deeplink, pushbutton.open_url, pushbutton.dismiss, pushbutton.callback;
        any other name is an app-defined action. --arg KEY=VALUE adds to action_args (VALUE is JSON, or
        else taken as a string). --define ID=TITLE[:OPTION,OPTION] adds a dynamic button.
        With --manifest the payload is validated first: errors are printed to stderr and exit with 1.
        """
    let arguments = ArgumentSpec(
        options: [
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
            .init("--manifest", value: "FILE", help: "Validate against this manifest."),
            .init("--push-type", value: "TYPE", help: "The push type to validate for (default alert)."),
            .init("--priority", value: "N", help: "The apns-priority to validate for (10, 5 or 1)."),
        ],
        flags: [
            .init("--content-available", help: "Set content-available: 1."),
            .init("--mutable-content", help: "Set mutable-content: 1."),
            .init("--pretty", help: "Print indented JSON."),
            .init("--truncate", help: "Shorten the alert body (at a character boundary) if the payload is too big."),
        ])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        var payload = try build(arguments)
        let context = PayloadValidator.Context(
            pushType: PushType(rawValue: arguments.value("--push-type") ?? "alert"),
            priority: try arguments.value("--priority").map { text throws(UsageError) in try integer(text, "--priority")
            })
        if arguments.has("--truncate") {
            let limit = context.pushType.maximumPayloadSize
            guard let shortened = payload.truncatingAlertBody(toFit: limit) else {
                throw CommandFailure("the payload cannot fit in \(limit) bytes even with an empty alert body")
            }
            payload = shortened
        }
        if let manifestPath = arguments.value("--manifest") {
            let manifest = try ManifestLoading.load(manifestPath, console: console)
            let diagnostics = PayloadValidator(manifest: manifest).validate(payload, context: context)
            for diagnostic in diagnostics where diagnostic.severity >= .warning {
                console.printError(DiagnosticPrinter.human(diagnostic, file: "payload"))
            }
            if diagnostics.containsErrors {
                throw CommandFailure("the payload does not pass validation against \(manifestPath) (see above)")
            }
        }
        if arguments.has("--pretty") {
            console.write(JSONWriter.pretty(payload.jsonValue))
        } else {
            console.print(String(decoding: PayloadWriter.encode(payload), as: UTF8.self))
        }
        return ExitStatus.success
    }

    private func build(_ arguments: ParsedArguments) throws(UsageError) -> Payload {
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
        if let score = arguments.value("--relevance-score") {
            guard let value = Double(score) else { throw UsageError("--relevance-score '\(score)' is not a number") }
            payload.aps.relevanceScore = value
        }
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

    private func split(_ text: String, _ option: String, _ form: String) throws(UsageError) -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw UsageError("\(option) '\(text)' is not of the form \(form)")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `ACTION` or `ACTION:ARGS_JSON`.
    private func spec(_ text: String, _ option: String) throws(UsageError) -> ActionSpec {
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

    private func dynamicButton(_ text: String) throws(UsageError) -> DynamicButton {
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

    private func integer(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let value = Int(text) else { throw UsageError("\(option) '\(text)' is not a whole number") }
        return value
    }
}
