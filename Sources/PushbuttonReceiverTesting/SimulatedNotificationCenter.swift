import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSupport

/// A notification center that behaves like iOS's where it matters, for tests and the command line.
///
/// - `setNotificationCategories` replaces the whole set, so merging bugs show up.
/// - A notification whose category is not registered shows no buttons (and no error).
/// - Nothing is shown until authorization is requested and granted. The user is asked once; later requests get
///   the answer already given, except a request for full permission after provisional permission.
/// - The user can tap the body, tap a button, type a reply, or dismiss (reported only with `customDismissAction`).
/// - The app must call the completion handler within the system's window; the simulator records when it did,
///   how many times, or that it never did.
/// - Local notifications fire with their category, after their delay or when told to.
public actor SimulatedNotificationCenter: UserNotificationCenter {
    /// What the simulated user answers when asked for permission.
    public enum AuthorizationAnswer: Sendable {
        case grant
        case deny
    }

    /// The device's language, for button titles.
    public let locale: String?
    private let answer: AuthorizationAnswer
    private let systemWindow: Duration
    private let clock: AnyDurationClock
    private var categories: [Pushbutton.Category] = []
    private var handler: (any NotificationResponseHandler)?
    private var pending: [LocalNotificationRequest] = []
    private var displayed: [DisplayedNotification] = []
    private var completionCounters: [Locked<Int>] = []
    private var nextIdentifier = 0

    /// Whether the user granted permission (`nil` until asked).
    public private(set) var isAuthorized: Bool?
    /// The options of every permission request, in order.
    public private(set) var authorizationRequests: [AuthorizationOptions] = []
    /// How many times the permission prompt was on screen. As on iOS, a request asks the user only once; later
    /// ones get the answer already given. A provisional request asks nobody and is granted quietly; a request
    /// for full permission after it shows the prompt.
    public private(set) var permissionPromptCount = 0
    /// Whether the permission is provisional (quiet delivery, granted without asking).
    public private(set) var isProvisional = false
    /// How many times `setNotificationCategories` was called.
    public private(set) var setCategoriesCallCount = 0
    /// The URLs and identifiers of notifications removed by the app.
    public private(set) var removedDeliveredIdentifiers: [String] = []

    public init<C: Clock>(
        locale: String? = "en", authorization: AuthorizationAnswer = .grant, systemWindow: Duration = .seconds(30),
        clock: C
    ) where C.Duration == Duration, C: Sendable {
        self.locale = locale
        answer = authorization
        self.systemWindow = systemWindow
        self.clock = AnyDurationClock(clock)
    }

    public init(
        locale: String? = "en", authorization: AuthorizationAnswer = .grant, systemWindow: Duration = .seconds(30)
    ) {
        self.init(locale: locale, authorization: authorization, systemWindow: systemWindow, clock: ContinuousClock())
    }

    // MARK: UserNotificationCenter

    public func requestAuthorization(options: AuthorizationOptions) async throws -> Bool {
        authorizationRequests.append(options)
        if let isAuthorized, !(isProvisional && !options.contains(.provisional)) { return isAuthorized }
        if options.contains(.provisional) {
            isAuthorized = true
            isProvisional = true
            return true
        }
        permissionPromptCount += 1
        isProvisional = false
        isAuthorized = answer == .grant
        return answer == .grant
    }

    public func notificationCategories() async -> [Pushbutton.Category] { categories }

    public func setNotificationCategories(_ categories: [Pushbutton.Category]) async {
        setCategoriesCallCount += 1
        self.categories = categories
    }

    public func add(_ request: LocalNotificationRequest) async throws {
        pending.removeAll { $0.identifier == request.identifier }
        pending.append(request)
        guard let delay = request.delay else { return }
        let clock = clock
        Task {
            try await clock.sleep(for: delay)
            _ = try? self.fire(request.identifier)
        }
    }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async {
        pending.removeAll { identifiers.contains($0.identifier) }
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
        removedDeliveredIdentifiers += identifiers
        displayed.removeAll { identifiers.contains($0.notification.identifier) }
    }

    public func setResponseHandler(_ handler: (any NotificationResponseHandler)?) async {
        self.handler = handler
    }

    // MARK: The simulated device

    /// The scheduled local notifications.
    public var pendingRequests: [LocalNotificationRequest] { pending }
    /// The notifications in the notification center now.
    public var deliveredNotifications: [DisplayedNotification] { displayed }
    /// The registered category identifiers, sorted.
    public var registeredCategoryIdentifiers: [String] { categories.map(\.identifier).sorted() }

    /// Delivers a remote notification carrying `payload`.
    @discardableResult
    public func deliver(_ payload: Payload, identifier: String? = nil) -> DisplayedNotification {
        deliver(DeliveredNotification(identifier: identifier ?? makeIdentifier(), date: Date(), payload: payload))
    }

    /// Fires a scheduled local notification now.
    @discardableResult
    public func fire(_ requestIdentifier: String) throws(SimulatorError) -> DisplayedNotification {
        guard let index = pending.firstIndex(where: { $0.identifier == requestIdentifier }) else {
            throw SimulatorError(.notScheduled, "no local notification '\(requestIdentifier)' is scheduled")
        }
        let request = pending.remove(at: index)
        return deliver(
            DeliveredNotification(
                identifier: request.identifier, date: Date(), userInfo: request.userInfo,
                categoryIdentifier: request.categoryIdentifier, title: request.title, body: request.body,
                isRemote: false))
    }

    private func deliver(_ notification: DeliveredNotification) -> DisplayedNotification {
        let category = categories.first { $0.identifier == notification.categoryIdentifier }
        let shown = DisplayedNotification(
            notification: notification, isShown: isAuthorized == true, categoryIsRegistered: category != nil,
            buttons: category?.actions.map(button) ?? [],
            reportsDismissal: category?.options.contains(.customDismissAction) ?? false,
            hiddenPreviewsPlaceholder: category?.hiddenPreviewsBodyPlaceholder?.resolved(for: locale))
        if shown.isShown { displayed.append(shown) }
        return shown
    }

    private func button(_ action: Pushbutton.Action) -> ShownButton {
        ShownButton(
            identifier: action.identifier, title: action.title.resolved(for: locale),
            isDestructive: action.options.contains(.destructive), opensApp: action.options.contains(.foreground),
            requiresUnlock: action.options.contains(.authenticationRequired),
            textField: action.textInput.map {
                ($0.buttonTitle.resolved(for: locale), $0.placeholder.resolved(for: locale))
            },
            icon: action.icon?.name)
    }

    private func makeIdentifier() -> String {
        nextIdentifier += 1
        return "notification-\(nextIdentifier)"
    }

    /// The user taps the notification's body.
    public func tapBody(_ identifier: String) async throws(SimulatorError) -> ResponseDelivery {
        let shown = try find(identifier)
        remove(identifier)
        return await respond(
            NotificationResponse(notification: shown.notification, actionIdentifier: SystemIdentifiers.defaultAction))
    }

    /// The user taps a button. A text-input button needs ``reply(_:action:text:)`` instead.
    public func tapButton(_ identifier: String, action: String) async throws(SimulatorError) -> ResponseDelivery {
        let button = try shownButton(identifier, action)
        if button.textField != nil {
            throw SimulatorError(
                .needsTextInput, "'\(action)' opens a text field; the user replies with text (use reply)")
        }
        let shown = try find(identifier)
        remove(identifier)
        return await respond(NotificationResponse(notification: shown.notification, actionIdentifier: action))
    }

    /// The user types `text` into a text-input button's field and sends it.
    public func reply(_ identifier: String, action: String, text: String) async throws(SimulatorError)
        -> ResponseDelivery
    {
        let button = try shownButton(identifier, action)
        guard button.textField != nil else {
            throw SimulatorError(.notTextInput, "'\(action)' is not a text-input button")
        }
        let shown = try find(identifier)
        remove(identifier)
        return await respond(
            NotificationResponse(notification: shown.notification, actionIdentifier: action, userText: text))
    }

    /// The user dismisses the notification. Returns `nil` when the category does not report dismissals.
    public func dismiss(_ identifier: String) async throws(SimulatorError) -> ResponseDelivery? {
        let shown = try find(identifier)
        remove(identifier)
        guard shown.reportsDismissal else { return nil }
        return await respond(
            NotificationResponse(notification: shown.notification, actionIdentifier: SystemIdentifiers.dismissAction))
    }

    /// How many times the app called the completion handler of delivery `number` so far.
    public func completionCallCount(_ number: Int) -> Int {
        completionCounters[number].withLock { $0 }
    }

    private func find(_ identifier: String) throws(SimulatorError) -> DisplayedNotification {
        guard let shown = displayed.first(where: { $0.notification.identifier == identifier }) else {
            throw SimulatorError(
                .notInCenter,
                "notification '\(identifier)' is not in the notification center (never shown, or already handled)")
        }
        return shown
    }

    private func shownButton(_ identifier: String, _ action: String) throws(SimulatorError) -> ShownButton {
        let shown = try find(identifier)
        guard let button = shown.buttons.first(where: { $0.identifier == action }) else {
            let available = shown.buttons.map(\.identifier)
            throw SimulatorError(
                .noSuchButton,
                "notification '\(identifier)' shows no button '\(action)'"
                    + (available.isEmpty
                        ? (shown.categoryIsRegistered
                            ? ""
                            : ": its category '\(shown.notification.categoryIdentifier)' is not registered, so it shows no buttons")
                        : "; it shows \(available.joined(separator: ", "))"))
        }
        return button
    }

    private func remove(_ identifier: String) {
        displayed.removeAll { $0.notification.identifier == identifier }
    }

    /// Hands the response to the app and waits for its completion handler, or for the system's window to end.
    private func respond(_ response: NotificationResponse) async -> ResponseDelivery {
        let counter = Locked(0)
        completionCounters.append(counter)
        let number = completionCounters.count - 1
        guard let handler else { return ResponseDelivery(number: number, response: response, completion: .noHandler) }
        let elapsed = clock.stopwatch()
        let resumed = Locked(false)
        let clock = clock
        let window = systemWindow
        let timer = Locked<Task<Void, Never>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        let completion = await withCheckedContinuation {
            (continuation: CheckedContinuation<ResponseDelivery.Completion, Never>) in
            let finish: @Sendable (ResponseDelivery.Completion) -> Void = { value in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: value) }
            }
            handler.handle(response) {
                counter.withLock { $0 += 1 }
                finish(.called(after: elapsed()))
            }
            timer.withLock {
                $0 = Task {
                    do {
                        try await clock.sleep(for: window)
                        finish(.expired)
                    } catch {
                        // Cancelled: the app called the completion handler in time.
                    }
                }
            }
        }
        return ResponseDelivery(number: number, response: response, completion: completion)
    }
}
