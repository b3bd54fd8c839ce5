import Foundation

/// Mirrors the part of UIKit's `UIPasteboard` that `pushbutton.copy` uses (developer.apple.com/documentation/
/// uikit/uipasteboard): iOS, Mac Catalyst and visionOS only.
///
/// `@unchecked Sendable`: its one value is only reached under `lock`.
@available(iOS 3.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class UIPasteboard: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    private static let generalPasteboard = UIPasteboard()

    /// The systemwide general pasteboard.
    @available(iOS 3.0, *)
    open class var general: UIPasteboard { generalPasteboard }

    /// The string of the first pasteboard item; setting it replaces every item.
    @available(iOS 3.0, *)
    open var string: String? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            value = newValue
        }
    }
}
