import Pushbutton

/// `pushbutton payload`: builds an interactive payload from flags, validates it, prints it.
struct PayloadCommand: Command {
    let name = "payload"
    let summary = "Build an interactive APNs payload from flags and print it."
    let discussion = """
        --button ID=ACTION[:ARGS_JSON] says what tapping button ID does, e.g.
          --button like=pushbutton.callback:'{"url":"https://api.example.com/like"}'
          --button open=pushbutton.deeplink:'{"url":"chatter://message/42"}'
          --button copy=pushbutton.copy:'{"text":"918273"}'
          --button follow=pushbutton.add_tag:'{"tag":"team:lions"}'
        Built-in actions (`pushbutton builtins --actions` lists their arguments): pushbutton.deeplink,
        pushbutton.open_url, pushbutton.dismiss, pushbutton.callback, pushbutton.copy, pushbutton.rate_app,
        pushbutton.open_settings, pushbutton.request_permission, pushbutton.share, pushbutton.add_tag,
        pushbutton.remove_tag, pushbutton.group; any other name is an app-defined action.
        --arg KEY=VALUE adds to action_args (VALUE is JSON, or else taken as a string).
        --define ID=TITLE[:OPTION,OPTION] adds a dynamic button.
        A Live Activity push: --push-type liveactivity --event start|update|end --content-state JSON (and for a
        start --attributes-type NAME --attributes JSON --title/--body --input-push-token); --timestamp defaults
        to now. A widgets or controls reload: --push-type widgets --content-changed.
        The payload is always checked (size for the push type, value ranges, built-in actions and their
        arguments, URLs, dynamic buttons); --manifest adds the checks of its categories and buttons.
        Errors and warnings go to stderr; with an error nothing is printed and the exit status is 1.
        """
    static let manifest = Option<String>("--manifest", value: "FILE", help: "Validate against this manifest.")
    static let pushType = Option<String>(
        "--push-type", value: "TYPE", help: "The push type to validate for (default alert).")
    static let priority = Option<Int>(
        "--priority", value: "N", help: "The apns-priority to validate for (10, 5 or 1).", range: ArgumentRange.priority
    )
    static let topic = Option<String>(
        "--topic", value: "TOPIC", help: "The apns-topic to validate for (its push-type suffix).")
    static let pretty = Flag("--pretty", help: "Print indented JSON.")
    static let truncate = Flag(
        "--truncate", help: "Shorten the alert body (at a character boundary) if the payload is too big.")
    let arguments = ArgumentSpec(
        options: PayloadFlags.options + [Self.manifest, Self.pushType, Self.priority, Self.topic],
        flags: PayloadFlags.flags + [Self.pretty, Self.truncate])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        var payload = try PayloadFlags.build(arguments)
        let context = PayloadValidator.Context(
            pushType: PushType(rawValue: try arguments[Self.pushType] ?? "alert"),
            priority: try arguments[Self.priority], topic: try arguments[Self.topic])
        if arguments[Self.truncate] {
            let limit = context.pushType.maximumPayloadSize
            guard let shortened = payload.truncatingAlertBody(toFit: limit) else {
                throw CommandFailure("the payload cannot fit in \(limit) bytes even with an empty alert body")
            }
            payload = shortened
        }
        let manifestPath = try arguments[Self.manifest]
        let validator = try manifestPath.map {
            PayloadValidator(manifest: try ManifestLoading.load($0, console: console))
        }
        let diagnostics = (validator ?? PayloadValidator()).validate(payload, context: context)
        for diagnostic in diagnostics where diagnostic.severity >= .warning {
            console.printError(DiagnosticPrinter.human(diagnostic, file: "payload"))
        }
        if diagnostics.containsErrors {
            throw CommandFailure(
                "the payload does not pass validation" + (manifestPath.map { " against \($0)" } ?? "") + " (see above)")
        }
        if arguments[Self.pretty] {
            console.write(JSONWriter.pretty(payload.jsonValue))
        } else {
            console.print(String(decoding: PayloadWriter.encode(payload), as: UTF8.self))
        }
        return ExitStatus.success
    }
}
