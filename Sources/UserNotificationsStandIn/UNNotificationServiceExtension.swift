import Foundation

/// Mirrors `UNNotificationServiceExtension`: the principal class of a Notification Service Extension, which the
/// system runs for a remote notification carrying `mutable-content: 1` before it is displayed. It has about 30
/// seconds to call the content handler; then the system calls ``serviceExtensionTimeWillExpire()`` and, if the
/// handler is still not called, displays the original content.
@available(iOS 10, macOS 10.14, watchOS 6, *)
@available(tvOS, unavailable)
open class UNNotificationServiceExtension: NSObject {
    public override init() { super.init() }

    /// The system's default delivers the content unchanged.
    ///
    /// Checked against `didReceive(_:withContentHandler:)` (developer.apple.com/documentation/usernotifications/
    /// unnotificationserviceextension, UNNotificationServiceExtension.h): the content handler is
    /// `@escaping (UNNotificationContent) -> Void`, **not** `@Sendable`, and the class is not actor-isolated.
    open func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        contentHandler(request.content)
    }

    /// Checked against `serviceExtensionTimeWillExpire()` (developer.apple.com, UNNotificationServiceExtension.h).
    open func serviceExtensionTimeWillExpire() {}
}
