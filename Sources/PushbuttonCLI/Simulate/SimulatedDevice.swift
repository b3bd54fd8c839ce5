import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport

/// The simulated device behind `pushbutton simulate`: a center, a registrar and a router whose
/// app-defined actions, backend and URL opener record what they are given.
struct SimulatedDevice {
    let manifest: Manifest
    let payload: Payload
    let center: SimulatedNotificationCenter
    let router: ResponseRouter
    let recorder = Recorder()

    /// Records what the stand-in handlers and system services received, for the story, and keeps the
    /// device's tags.
    final class Recorder: BackendDelivery, URLOpener, SystemServices, TagStore {
        let lines = Locked([String]())
        let reports = Locked([RoutingReport]())
        let deviceTags = Locked(Set<String>())

        func copy(_ text: String) async throws { say("copied “\(text)” to the pasteboard") }
        func requestReview() async throws { say("asked the system for the App Store rating prompt") }
        func openSettings(_ page: SettingsPage) async throws {
            say(page == .app ? "opened the app's page in Settings" : "opened the app's notification settings")
        }
        func share(_ content: ShareContent) async throws {
            say(
                "showed the share sheet with "
                    + [content.text.map { "“\($0)”" }, content.url].compactMap { $0 }
                    .joined(separator: " and "))
        }
        func tags() async throws -> Set<String> { deviceTags.withLock { $0 } }
        func apply(_ change: TagChange) async throws {
            let now = deviceTags.withLock { tags -> [String] in
                tags = change.applied(to: tags)
                return tags.sorted()
            }
            say("device tags now: " + (now.isEmpty ? "none" : now.joined(separator: ", ")))
        }

        private func say(_ line: String) { lines.withLock { $0.append(line) } }

        func deliver(_ request: BackendRequest) async throws {
            let body = request.body.map { " body " + String(decoding: JSONWriter.compact($0), as: UTF8.self) } ?? ""
            lines.withLock {
                $0.append(
                    "backend: \(request.method) \(request.url)\(body) (idempotency key \(request.idempotencyKey))")
            }
        }
        func open(_ url: String) async -> Bool {
            lines.withLock { $0.append("opened \(url)") }
            return true
        }
    }

    /// With an `outbox`, backend callbacks are committed to it (and also told in the story).
    init(locale: String, manifest: Manifest, payload: Payload, outbox: Outbox? = nil) {
        self.manifest = manifest
        self.payload = payload
        center = SimulatedNotificationCenter(locale: locale)
        let recorder = recorder
        let backend: any BackendDelivery
        if let outbox { backend = Committing(outbox: outbox, recorder: recorder) } else { backend = recorder }
        router = ResponseRouter(
            center: center, backend: backend, urlOpener: recorder, system: recorder, tagStore: recorder)
    }

    /// Commits to the outbox, then tells the story.
    struct Committing: BackendDelivery {
        let outbox: Outbox
        let recorder: Recorder
        func deliver(_ request: BackendRequest) async throws {
            try await outbox.deliver(request)
            recorder.lines.withLock { $0.append("committed to the outbox (durable) as \(request.idempotencyKey)") }
            try await recorder.deliver(request)
        }
    }

    func setUp(story: inout SimulationStory) async throws {
        _ = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        let report = await CategoryRegistrar(center: center).register(manifest)
        let builtins = report.registered.filter { $0.hasPrefix(SystemIdentifiers.reservedPrefix) }.count
        story.say(
            "Registered \(report.registered.count) categories (\(report.registered.count - builtins) from the manifest, "
                + "\(builtins) built-in) on a simulated device, merged with what was there")
        if let dynamic = await CategoryRegistrar(center: center).prepare(for: payload), !dynamic.registered.isEmpty {
            story.say("Registered \(dynamic.registered[0]) for the payload's own buttons")
        }
        for identifier in Set(manifestActionIdentifiers() + payloadActionNames())
        where !SystemIdentifiers.isReserved(identifier) {
            let recorder = recorder
            try router.registry.register(identifier) { context in
                let arguments = String(decoding: JSONWriter.compact(.object(context.arguments)), as: UTF8.self)
                let reply = context.replyText.map { ", reply \"\($0)\"" } ?? ""
                recorder.lines.withLock {
                    $0.append("app action '\(context.identifier)' ran (\(context.situation)) with \(arguments)\(reply)")
                }
            }
        }
        let recorder = recorder
        router.observe { report in recorder.reports.withLock { $0.append(report) } }
        await center.setResponseHandler(router)
    }

    private func manifestActionIdentifiers() -> [String] {
        manifest.categorySet().categories.flatMap(\.actions).map(\.identifier)
    }

    private func payloadActionNames() -> [String] {
        let actions = payload.actions
        return ((actions?.buttons.values.flatMap { $0 } ?? []) + (actions?.body ?? []) + (actions?.dismiss ?? [])).map(
            \.name)
    }

    func deliver(story: inout SimulationStory) async throws -> DisplayedNotification {
        // A fresh identifier per run, as the system gives (idempotency keys derive from it).
        let shown = await center.deliver(payload, identifier: "sim-" + UUID().uuidString.prefix(8).lowercased())
        let notification = shown.notification
        let heading = [notification.title, notification.body].filter { !$0.isEmpty }.joined(separator: " — ")
        story.say("Delivered “\(heading)” (category '\(notification.categoryIdentifier)')")
        if !shown.categoryIsRegistered {
            story.detail(
                "no buttons: category '\(notification.categoryIdentifier)' is not registered on the device (iOS shows no error)"
            )
        } else if shown.buttons.isEmpty {
            story.detail("no buttons: the category has no actions")
        }
        for button in shown.buttons { story.detail("[\(button.title)] " + Self.describe(button)) }
        if let placeholder = shown.hiddenPreviewsPlaceholder {
            story.detail("with previews hidden the body reads “\(placeholder)”")
        }
        return shown
    }

    static func describe(_ button: ShownButton) -> String {
        var traits = [button.identifier, button.opensApp ? "opens the app" : "runs in the background"]
        if button.isDestructive { traits.append("destructive (red)") }
        if button.requiresUnlock { traits.append("needs unlock 🔒") }
        if let field = button.textField {
            traits.append("text field “\(field.placeholder)”, send button “\(field.buttonTitle)”")
        }
        if let icon = button.icon { traits.append("icon \(icon)") }
        return traits.joined(separator: ", ")
    }

    func perform(
        tap: String, text: String?, on shown: DisplayedNotification, story: inout SimulationStory
    ) async throws -> ResponseDelivery? {
        let id = shown.notification.identifier
        do {
            switch tap {
            case "body":
                story.say("The user taps the notification")
                return try await center.tapBody(id)
            case "dismiss":
                story.say("The user dismisses the notification")
                guard let delivery = try await center.dismiss(id) else {
                    story.detail("not reported to the app: the category lacks customDismissAction")
                    return nil
                }
                return delivery
            default:
                if let text {
                    story.say("The user types “\(text)” into '\(tap)' and sends it")
                    return try await center.reply(id, action: tap, text: text)
                }
                story.say("The user taps '\(tap)'")
                return try await center.tapButton(id, action: tap)
            }
        } catch {
            throw CommandFailure("the tap is not possible on the device: \(error.message)")
        }
    }

    func tell(_ delivery: ResponseDelivery?, story: inout SimulationStory) async {
        guard let delivery else { return }
        if let report = recorder.reports.withLock({ $0.last }) {
            story.detail("routed as a \(report.situation)")
            for note in report.notes { story.detail("note: \(note)") }
            for line in recorder.lines.withLock({ $0 }) { story.detail("→ " + line) }
            for step in report.steps { if let line = Self.describe(step) { story.detail("→ " + line) } }
            if report.steps.isEmpty && report.notes.isEmpty { story.detail("nothing to run for this response") }
        }
        switch delivery.completion {
        case .called(let after):
            story.say(
                "Completion handler called \(await center.completionCallCount(delivery.number)) time(s), after \(after.millisecondsText) ms"
            )
        case .expired:
            story.say("Completion handler never called: iOS would have ended the app")
        case .noHandler:
            story.say("No response handler was installed")
        }
    }

    /// A step whose outcome the recorder's lines do not already tell.
    static func describe(_ step: RoutingReport.Step) -> String? {
        let name: String
        switch step.kind {
        case .builtin(let action), .payloadAction(let action), .matchingAction(let action): name = action
        case .responseHandler(let index): name = "response handler \(index)"
        }
        switch step.outcome {
        case .succeeded where step.kind == .builtin(ActionSpec.requestPermission):
            return "\(name): notifications allowed (iOS asks once; later requests get the answer already given)"
        case .succeeded: return nil
        case .failed(let reason): return "\(name) failed: \(reason)"
        case .refused(let reason): return "\(name) refused: \(reason)"
        case .unknownAction: return "\(name): no action is registered under that name"
        case .cutOff: return "\(name) was cut off by the deadline"
        }
    }
}
