// Opening URLs from an app is UIKit API of iOS (and Mac Catalyst, visionOS): elsewhere on Apple platforms this
// file is empty. On Linux it compiles against the stand-in, so it is built and tested here.
#if os(iOS) || os(visionOS) || !canImport(UserNotifications)
    import Foundation
    import PushbuttonReceiver

    #if canImport(UIKit)
        import UIKit
    #else
        import UserNotificationsStandIn
    #endif

    /// Pushbutton's ``URLOpener`` over `UIApplication.shared.open(_:options:completionHandler:)`: what
    /// `pushbutton.open_url` and `pushbutton.deep_link` do on a device, for UIKit and SwiftUI apps alike.
    ///
    /// A custom-scheme deep link (`myapp://chat/42`) reaches the app's own `application(_:open:options:)`,
    /// `scene(_:openURLContexts:)` or SwiftUI `onOpenURL`; a universal link or web URL opens the app or Safari as
    /// iOS decides. `handle` lets the app take some URLs itself instead (a SwiftUI app that navigates in place):
    /// return `true` when it did, `false` to let UIKit open the URL.
    ///
    /// Not for app extensions: they have no `UIApplication.shared`, and their taps reach the app's router.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public struct UIKitURLOpener: URLOpener {
        /// Called first, on the main actor; `true` when the app opened the URL itself.
        public typealias Handler = @MainActor @Sendable (URL) -> Bool

        private let handle: Handler?

        /// - Parameter handle: the app's own handling of some URLs, tried first (default: none, UIKit opens all).
        public init(handle: Handler? = nil) { self.handle = handle }

        /// Opens `url` on the main actor; `false` for a string that is not a URL or one no app can open.
        public func open(_ url: String) async -> Bool {
            guard let url = URL(string: url), url.scheme != nil else { return false }
            return await Self.open(url, handle: handle)
        }

        @MainActor
        private static func open(_ url: URL, handle: Handler?) async -> Bool {
            if let handle, handle(url) { return true }
            return await withCheckedContinuation { continuation in
                UIApplication.shared.open(url, options: [:]) { opened in continuation.resume(returning: opened) }
            }
        }
    }
#endif
