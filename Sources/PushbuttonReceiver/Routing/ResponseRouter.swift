import Foundation
import Pushbutton
import PushbuttonSupport

/// Routes every notification response to the right code, and calls the completion handler exactly once.
///
/// For each response it runs, in order: the payload's per-button actions for the tapped button (or for
/// the body tap, or the dismissal), else the app-defined action whose identifier matches the button with
/// `action_args` as arguments; and, alongside, every general response handler the app installed. The body
/// tap and dismissal are never treated as custom actions. Unknown identifiers are reported, never a crash.
///
/// Built-in actions run through what the app installs: the URL opener (links), the backend delivery
/// (callbacks), the system services (pasteboard, rating prompt, Settings, share sheet), the notification
/// center (the permission prompt) and the tag store. An action that needs the screen is refused, with the
/// reason, on a background button or a dismissal; a `pushbutton.group` becomes its actions, in order.
///
/// The completion handler is called once every handler has finished, or when the deadline for the
/// situation passes (handlers still running are then cancelled and reported as cut off). A handler that
/// throws or hangs cannot prevent it; ``CompletionHandlerOnce`` makes a second call impossible.
public final class ResponseRouter: NotificationResponseHandler, Sendable {
    /// A general handler, in the style of the push SDKs' `onReceivedNotificationResponse` closures.
    public typealias ResponseHandler = @Sendable (NotificationResponse, Situation) async throws -> Void

    public let registry: ActionRegistry
    public let options: RouterOptions
    private let center: any UserNotificationCenter
    private let backend: (any BackendDelivery)?
    private let urlOpener: (any URLOpener)?
    private let system: (any SystemServices)?
    /// Where `pushbutton.add_tag` and `pushbutton.remove_tag` keep tags.
    public let tagStore: any TagStore
    private let clock: AnyDurationClock
    private let responseHandlers = Locked([ResponseHandler]())
    private let observers = Locked([@Sendable (RoutingReport) -> Void]())
    /// Responses handed to ``handle(_:completionHandler:)`` and still being routed, with the completion handlers
    /// of the same response handed over again meanwhile.
    private let inFlight = Locked([NotificationResponse: [SystemCompletionHandler]]())

    /// - Parameters:
    ///   - system: the pasteboard, rating prompt, Settings app and share sheet, for the built-in actions that use
    ///     them (without it they are refused and reported).
    ///   - tagStore: where the tag actions keep tags (default: ``DefaultTagStore``, local to the device).
    public init<C: Clock>(
        center: any UserNotificationCenter, registry: ActionRegistry = ActionRegistry(),
        backend: (any BackendDelivery)? = nil, urlOpener: (any URLOpener)? = nil,
        system: (any SystemServices)? = nil, tagStore: (any TagStore)? = nil,
        options: RouterOptions = RouterOptions(),
        clock: C
    ) where C.Duration == Duration, C: Sendable {
        self.center = center
        self.registry = registry
        self.backend = backend
        self.urlOpener = urlOpener
        self.system = system
        self.tagStore = tagStore ?? DefaultTagStore.make()
        self.options = options
        self.clock = AnyDurationClock(clock)
    }

    public convenience init(
        center: any UserNotificationCenter, registry: ActionRegistry = ActionRegistry(),
        backend: (any BackendDelivery)? = nil, urlOpener: (any URLOpener)? = nil,
        system: (any SystemServices)? = nil, tagStore: (any TagStore)? = nil,
        options: RouterOptions = RouterOptions()
    ) {
        self.init(
            center: center, registry: registry, backend: backend, urlOpener: urlOpener, system: system,
            tagStore: tagStore, options: options, clock: ContinuousClock())
    }

    /// Installs a general handler, run for every response alongside the actions.
    public func onResponse(_ handler: @escaping ResponseHandler) {
        responseHandlers.withLock { $0.append(handler) }
    }

    /// Calls `observer` with the report of every routed response, just before the completion handler (the
    /// tap log listens here). It runs synchronously on the routing task: keep it quick.
    public func observe(_ observer: @escaping @Sendable (RoutingReport) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// The delegate entry point: routes in a task and calls `completionHandler` exactly once. It takes the
    /// system's handler as it comes (not `@Sendable`), so a Swift 6 app delegate can pass it straight on.
    ///
    /// A response handed over again while it is being routed (an app that both installs Pushbutton's delegate
    /// and forwards from its own, which Pushbutton's delegate calls as the previous one) is routed once: the
    /// second hand-over only has its completion handler called, when the first routing finishes.
    public func handle(_ response: NotificationResponse, completionHandler: @escaping () -> Void) {
        let system = SystemCompletionHandler(completionHandler)
        guard Self.claim(response, in: inFlight, orWaitWith: system) else { return }
        Task {
            await route(response, completionHandler: { system() })
            let waiting = inFlight.withLock { $0.removeValue(forKey: response) ?? [] }
            for waiter in waiting { waiter() }
        }
    }

    /// Whether `response` is not being routed already (and is now marked as being routed); if it is, `waiter`
    /// is queued to be called when that routing finishes.
    static func claim(
        _ response: NotificationResponse, in inFlight: Locked<[NotificationResponse: [SystemCompletionHandler]]>,
        orWaitWith waiter: SystemCompletionHandler
    ) -> Bool {
        inFlight.withLock { routing in
            if routing[response] != nil {
                routing[response]?.append(waiter)
                return false
            }
            routing[response] = []
            return true
        }
    }

    /// Routes a response, calls `completionHandler` exactly once, and returns what happened.
    @discardableResult
    public func route(
        _ response: NotificationResponse, completionHandler: @escaping @Sendable () -> Void = {}
    ) async -> RoutingReport {
        let once = CompletionHandlerOnce(completionHandler)
        let elapsed = clock.stopwatch()
        let category = await registeredCategory(response.notification.categoryIdentifier)
        var notes: [String] = []
        let situation = Self.situation(of: response, in: category, notes: &notes)
        let plan = makePlan(response, situation: situation, notes: &notes)
        let handlers = responseHandlers.withLock { $0 }
        let steps = Locked(
            plan.map { RoutingReport.Step(kind: $0.kind, arguments: $0.spec.arguments, outcome: .cutOff) }
                + handlers.indices.map {
                    RoutingReport.Step(kind: .responseHandler($0), arguments: [:], outcome: .cutOff)
                })
        let work = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for (index, step) in plan.enumerated() {
                        if Task.isCancelled { return }
                        let outcome = await self.run(step, index: index, response: response, situation: situation)
                        steps.withLock { $0[index].outcome = outcome }
                    }
                }
                for (index, handler) in handlers.enumerated() {
                    group.addTask {
                        let outcome: RoutingReport.Step.Outcome
                        do {
                            try await handler(response, situation)
                            outcome = .succeeded
                        } catch {
                            outcome = .failed(RoutingFailure(.responseHandlerFailed, error: error))
                        }
                        steps.withLock { $0[plan.count + index].outcome = outcome }
                    }
                }
            }
        }
        let byDeadline = await firstOf(work, deadline: options.deadline(for: situation))
        if byDeadline { work.cancel() }
        let report = RoutingReport(
            response: response, situation: situation, categoryIdentifier: category?.identifier,
            steps: steps.withLock { $0 },
            notes: notes, completedAfter: elapsed(), completedByDeadline: byDeadline)
        // Observers hear of the response before the system does, so whoever sees the completion can rely on
        // the report being out. Observers are synchronous and must be quick.
        for observer in observers.withLock({ $0 }) { observer(report) }
        once.call()
        return report
    }

    /// Waits for `work` or the deadline, whichever comes first; returns whether the deadline won.
    /// A hung handler cannot hold this up: neither waiter is awaited once the other has resumed.
    private func firstOf(_ work: Task<Void, Never>, deadline: Duration) async -> Bool {
        let resumed = Locked(false)
        let timer = Locked<Task<Void, Never>?>(nil)
        let byDeadline = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let finish: @Sendable (Bool) -> Void = { value in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: value) }
            }
            Task {
                await work.value
                finish(false)
            }
            let sleeper = Task { [clock] in
                do {
                    try await clock.sleep(for: deadline)
                    finish(true)
                } catch {
                    // Cancelled because the work finished first.
                }
            }
            timer.withLock { $0 = sleeper }
        }
        timer.withLock { $0?.cancel() }
        return byDeadline
    }

    // MARK: Planning

    /// One action the router will run for a response.
    struct PlannedStep: Sendable {
        var kind: RoutingReport.Step.Kind
        var spec: ActionSpec
        /// Why the step cannot run, decided while planning (a group that cannot be read or nests too deep).
        var refusal: String?
    }

    /// The steps for `specs`: each action, with every `pushbutton.group` replaced by its actions, in order, so
    /// the report shows each one's outcome. A group that cannot be read, or nests deeper than
    /// `BuiltinAction.maximumGroupDepth`, stays one step that is refused.
    static func steps(for specs: [ActionSpec], depth: Int = 1) -> [PlannedStep] {
        specs.flatMap { spec -> [PlannedStep] in
            guard let builtin = spec.builtin else { return [PlannedStep(kind: .payloadAction(spec.name), spec: spec)] }
            guard builtin == .group else { return [PlannedStep(kind: .builtin(spec.name), spec: spec)] }
            let refusal: String
            do throws(ActionSpec.GroupError) {
                let members = try spec.groupMembers()
                if depth > BuiltinAction.maximumGroupDepth {
                    refusal = "groups nest at most \(BuiltinAction.maximumGroupDepth) deep"
                } else if members.count > BuiltinAction.maximumGroupSize {
                    refusal = "a group holds at most \(BuiltinAction.maximumGroupSize) actions, not \(members.count)"
                } else {
                    return steps(for: members, depth: depth + 1)
                }
            } catch {
                refusal = error.message
            }
            return [PlannedStep(kind: .builtin(spec.name), spec: spec, refusal: refusal)]
        }
    }

    private func registeredCategory(_ identifier: String) async -> Pushbutton.Category? {
        guard !identifier.isEmpty else { return nil }
        return await center.notificationCategories().first { $0.identifier == identifier }
    }

    /// The situation a response puts the app in.
    static func situation(
        of response: NotificationResponse, in category: Pushbutton.Category?, notes: inout [String]
    ) -> Situation {
        switch response.actionIdentifier {
        case SystemIdentifiers.defaultAction: return .bodyTap
        case SystemIdentifiers.dismissAction: return .dismiss
        default:
            guard let action = category?.action(response.actionIdentifier) else {
                notes.append(
                    "button '\(response.actionIdentifier)' is not in the registered category "
                        + "'\(response.notification.categoryIdentifier)'; treated as a background button")
                return .backgroundButton
            }
            return action.options.contains(.foreground) ? .foregroundButton : .backgroundButton
        }
    }

    func makePlan(_ response: NotificationResponse, situation: Situation, notes: inout [String]) -> [PlannedStep] {
        let parsed = Payload.parse(.object(response.notification.userInfo))
        if parsed.diagnostics.containsErrors {
            notes.append(
                "the payload has errors: "
                    + parsed.diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; "))
        }
        let payload = parsed.payload
        let specs: [ActionSpec]
        switch situation {
        case .bodyTap: specs = payload?.actions?.body ?? []
        case .dismiss: specs = payload?.actions?.dismiss ?? []
        case .foregroundButton, .backgroundButton, .manual:
            specs = payload?.actions?.buttons[response.actionIdentifier] ?? []
        }
        if !specs.isEmpty {
            return Self.steps(for: specs)
        }
        guard situation == .foregroundButton || situation == .backgroundButton else { return [] }
        let identifier = response.actionIdentifier
        guard registry.contains(identifier) else {
            notes.append("no action is registered as '\(identifier)' and the payload names none for it")
            return []
        }
        return [
            PlannedStep(
                kind: .matchingAction(identifier),
                spec: ActionSpec(identifier, arguments: payload?.actionArguments ?? [:]))
        ]
    }

    // MARK: Running

    private func run(
        _ step: PlannedStep, index: Int, response: NotificationResponse, situation: Situation
    ) async -> RoutingReport.Step.Outcome {
        if let refusal = step.refusal { return .refused(refusal) }
        if let builtin = step.spec.builtin, builtin.needsForeground, !situation.isForeground {
            return .refused("\(step.spec.name) needs the app in the foreground, but this is a \(situation)")
        }
        switch step.spec.builtin {
        case .deepLink?, .openURL?:
            return await open(step.spec, situation: situation)
        case .copy?, .rateApp?, .openSettings?, .share?:
            return await useSystem(step.spec)
        case .requestPermission?:
            return await requestPermission(step.spec)
        case .addTag?, .removeTag?:
            return await changeTags(step.spec, index: index, response: response)
        case .group?:
            // Expanded while planning; a group that reaches here could not be.
            return .refused("the group could not be read")
        case .dismiss?:
            await center.removeDeliveredNotifications(withIdentifiers: [response.notification.identifier])
            return .succeeded
        case .callback?:
            return await callBack(step.spec, index: index, response: response)
        case nil:
            guard let (identifier, handler) = registry.handler(for: step.spec.name) else { return .unknownAction }
            var context = ActionContext(
                identifier: identifier, arguments: step.spec.arguments, situation: situation,
                notification: response.notification, replyText: response.userText)
            context.backend = backend
            context.tapKey = Self.tapKey(response, index: index)
            do {
                try await handler(context)
                return .succeeded
            } catch {
                return .failed(RoutingFailure(.actionFailed, error: error))
            }
        }
    }

    private func open(_ spec: ActionSpec, situation: Situation) async -> RoutingReport.Step.Outcome {
        guard situation.isForeground else {
            return .refused("\(spec.name) needs the app in the foreground, but this is a \(situation)")
        }
        guard let url = spec.arguments["url"]?.stringValue, !url.isEmpty else { return .refused("no 'url' argument") }
        guard let urlOpener else { return .refused("no URL opener is installed") }
        return await urlOpener.open(url) ? .succeeded : .failed(RoutingFailure(.urlNotOpened, "could not open \(url)"))
    }

    private func useSystem(_ spec: ActionSpec) async -> RoutingReport.Step.Outcome {
        guard let system else { return .refused("no system services are installed (the router's `system`)") }
        do {
            switch spec.builtin {
            case .copy?:
                guard let text = spec.arguments["text"]?.stringValue, !text.isEmpty else {
                    return .refused("no 'text' argument")
                }
                try await system.copy(text)
            case .rateApp?:
                try await system.requestReview()
            case .openSettings?:
                let name = spec.arguments["page"]?.stringValue ?? SettingsPage.app.rawValue
                guard let page = SettingsPage(rawValue: name) else {
                    return .refused("'\(name)' is not a settings page")
                }
                try await system.openSettings(page)
            default:
                let content = ShareContent(
                    text: spec.arguments["text"]?.stringValue, url: spec.arguments["url"]?.stringValue)
                guard content.text?.isEmpty == false || content.url?.isEmpty == false else {
                    return .refused("nothing to share: no 'text' or 'url' argument")
                }
                try await system.share(content)
            }
            return .succeeded
        } catch {
            return .failed(RoutingFailure(.systemServiceFailed, error: error))
        }
    }

    /// The permission options an action names (Apple's `UNAuthorizationOptions`); alert, badge and sound by default.
    static func authorizationOptions(_ spec: ActionSpec) -> Result<AuthorizationOptions, SystemServiceError> {
        guard let value = spec.arguments["options"] else { return .success([.alert, .badge, .sound]) }
        let table: [String: AuthorizationOptions] = [
            "alert": .alert, "badge": .badge, "sound": .sound, "provisional": .provisional,
            "critical_alert": .criticalAlert, "car_play": .carPlay,
            "provides_app_notification_settings": .providesAppNotificationSettings,
        ]
        var options: AuthorizationOptions = []
        for element in value.arrayValue ?? [value] {
            guard let name = element.stringValue, let option = table[name] else {
                return .failure(
                    SystemServiceError(
                        .invalidArgument,
                        "'\(String(decoding: JSONWriter.compact(element), as: UTF8.self))' is not a permission option"))
            }
            options.insert(option)
        }
        return options.isEmpty
            ? .failure(SystemServiceError(.invalidArgument, "'options' is empty")) : .success(options)
    }

    private func requestPermission(_ spec: ActionSpec) async -> RoutingReport.Step.Outcome {
        let options: AuthorizationOptions
        switch Self.authorizationOptions(spec) {
        case .success(let value): options = value
        case .failure(let error): return .refused(error.message)
        }
        do {
            return try await center.requestAuthorization(options: options)
                ? .succeeded : .failed(RoutingFailure(.permissionDenied, "the user did not allow notifications"))
        } catch {
            return .failed(RoutingFailure(.permissionRequestFailed, error: error))
        }
    }

    private func changeTags(_ spec: ActionSpec, index: Int, response: NotificationResponse) async
        -> RoutingReport.Step.Outcome
    {
        let tags = spec.tags
        guard !tags.isEmpty else { return .refused("no 'tag' or 'tags' argument") }
        if let problem = tags.lazy.compactMap(BuiltinAction.tagProblem).first { return .refused(problem) }
        let adds = spec.builtin == .addTag
        let change = TagChange(
            added: adds ? tags : [], removed: adds ? [] : tags,
            idempotencyKey: Self.tapKey(response, index: index),
            notificationIdentifier: response.notification.identifier, actionIdentifier: response.actionIdentifier)
        do {
            try await tagStore.apply(change)
            return .succeeded
        } catch {
            return .failed(RoutingFailure(.tagStoreFailed, error: error))
        }
    }

    /// The idempotency key of what the action at `index` of a tap sends: the same for every routing of that tap.
    static func tapKey(_ response: NotificationResponse, index: Int) -> String {
        "\(response.notification.identifier):\(response.actionIdentifier):\(index)"
    }

    private func callBack(_ spec: ActionSpec, index: Int, response: NotificationResponse) async
        -> RoutingReport.Step.Outcome
    {
        guard let url = spec.arguments["url"]?.stringValue, !url.isEmpty else { return .refused("no 'url' argument") }
        guard let backend else { return .refused("no backend delivery is installed") }
        var body = spec.arguments["body"]
        if spec.arguments["include_reply"]?.boolValue == true {
            let reply = JSONValue.string(response.userText ?? "")
            if var object = body?.objectValue {
                object["reply"] = reply
                body = .object(object)
            } else {
                body = .object(["reply": reply, "data": body ?? .null])
            }
        }
        let request = BackendRequest(
            url: url, method: spec.arguments["method"]?.stringValue ?? "POST", body: body,
            idempotencyKey: Self.tapKey(response, index: index),
            notificationIdentifier: response.notification.identifier, actionIdentifier: response.actionIdentifier)
        do {
            try await backend.deliver(request)
            return .succeeded
        } catch {
            return .failed(RoutingFailure(.backendDeliveryFailed, error: error))
        }
    }
}
