// The pasteboard, the Settings app, the rating prompt and the share sheet are UIKit and StoreKit API of iOS (and
// Mac Catalyst, visionOS): elsewhere on Apple platforms this file is empty. On Linux it compiles against the
// stand-in, so it is built and tested here.
#if os(iOS) || os(visionOS) || !canImport(UserNotifications)
    import Foundation
    import PushbuttonReceiver

    #if canImport(UIKit)
        import StoreKit
        import UIKit
    #else
        import UserNotificationsStandIn
    #endif

    /// Pushbutton's ``SystemServices`` over UIKit and StoreKit: what `pushbutton.copy`, `pushbutton.rate_app`,
    /// `pushbutton.open_settings` and `pushbutton.share` do on a device.
    ///
    /// | action | API |
    /// | --- | --- |
    /// | `pushbutton.copy` | `UIPasteboard.general.string` |
    /// | `pushbutton.open_settings` | `UIApplication.shared.open` with `openSettingsURLString`, or `openNotificationSettingsURLString` |
    /// | `pushbutton.rate_app` | `AppStore.requestReview(in:)`, in the scene ``scene`` picks |
    /// | `pushbutton.share` | a `UIActivityViewController` presented by the view controller ``presenter`` picks |
    ///
    /// (`pushbutton.request_permission` goes through the notification center: ``SystemNotificationCenter``.)
    ///
    /// The rating prompt and the share sheet need something on screen to show in, which a notification response
    /// does not carry: the app says where, with the `scene` and `presenter` closures. The defaults take the
    /// foreground scene (active, else the one becoming active as the tap opens the app) and the view controller at
    /// the top of its key window. An app with several scenes, or one that shows its own screen for a
    /// notification first, passes its own. Each is called on the main actor when the action runs; returning
    /// `nil` reports the action as failed, with the reason.
    ///
    /// On an iPad the share sheet is a popover, and UIKit raises an exception for a popover without an anchor:
    /// it is anchored to the middle of the presenter's view.
    ///
    /// Not for app extensions (a Notification Service Extension included): they have no `UIApplication.shared`,
    /// and their notifications' taps reach the app, whose router performs these actions.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public final class UIKitSystemServices: SystemServices {
        public typealias ScenePicker = @MainActor @Sendable () -> UIWindowScene?
        public typealias PresenterPicker = @MainActor @Sendable () -> UIViewController?

        /// Where the rating prompt is shown.
        public let scene: ScenePicker
        /// Who presents the share sheet.
        public let presenter: PresenterPicker

        public init(
            scene: @escaping ScenePicker = { UIKitSystemServices.foregroundScene() },
            presenter: @escaping PresenterPicker = { UIKitSystemServices.topViewController(in: foregroundScene()) }
        ) {
            self.scene = scene
            self.presenter = presenter
        }

        /// The app's foreground window scene: the active one, else one becoming active.
        @MainActor
        public static func foregroundScene() -> UIWindowScene? {
            let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            return scenes.first { $0.activationState == .foregroundActive }
                ?? scenes.first { $0.activationState == .foregroundInactive }
        }

        /// The view controller at the top of `scene`'s key window (what is presented last).
        @MainActor
        public static func topViewController(in scene: UIWindowScene?) -> UIViewController? {
            var top = scene?.keyWindow?.rootViewController
            while let presented = top?.presentedViewController { top = presented }
            return top
        }

        public func copy(_ text: String) async throws {
            await MainActor.run { UIPasteboard.general.string = text }
        }

        public func requestReview() async throws {
            let scene = scene
            try await MainActor.run {
                guard let scene = scene() else {
                    throw SystemServiceError(.noPresenter, "no foreground window scene to show the rating prompt in")
                }
                AppStore.requestReview(in: scene)
            }
        }

        public func openSettings(_ page: SettingsPage) async throws {
            let text =
                page == .notifications
                ? UIApplication.openNotificationSettingsURLString : UIApplication.openSettingsURLString
            guard let url = URL(string: text) else { throw SystemServiceError(.notOpened, "'\(text)' is not a URL") }
            guard await Self.open(url) else { throw SystemServiceError(.notOpened, "the system did not open \(text)") }
        }

        @MainActor
        private static func open(_ url: URL) async -> Bool {
            await withCheckedContinuation { continuation in
                UIApplication.shared.open(url, options: [:]) { opened in continuation.resume(returning: opened) }
            }
        }

        public func share(_ content: ShareContent) async throws {
            let presenter = presenter
            try await MainActor.run {
                guard let presenter = presenter() else {
                    throw SystemServiceError(
                        .noPresenter, "no view controller on screen to present the share sheet from")
                }
                var items: [Any] = []
                if let text = content.text, !text.isEmpty { items.append(text) }
                if let link = content.url, let url = URL(string: link) { items.append(url) }
                guard !items.isEmpty else { throw SystemServiceError(.invalidArgument, "nothing to share") }
                let sheet = UIActivityViewController(activityItems: items, applicationActivities: nil)
                if let popover = sheet.popoverPresentationController, let view = presenter.view {
                    popover.sourceView = view
                    popover.sourceRect = CGRect(x: view.bounds.midX, y: view.bounds.midY, width: 0, height: 0)
                }
                presenter.present(sheet, animated: true, completion: nil)
            }
        }
    }
#endif
