import Foundation
import PushbuttonSupport

/// Mirrors the part of UIKit's `UIPasteboard` that `pushbutton.copy` uses (developer.apple.com/documentation/
/// uikit/uipasteboard): iOS, Mac Catalyst and visionOS only.
///
/// `@unchecked Sendable` (an `open` class, as Apple's): its one value sits in a `Locked`.
///
/// Checked against uikit/uipasteboard (developer.apple.com, UIPasteboard.h): open NSObject subclass; iOS 3 (and Mac
/// Catalyst, visionOS); not on macOS, tvOS or watchOS.
@available(iOS 3.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class UIPasteboard: NSObject, @unchecked Sendable {
    private let value = Locked<String?>(nil)

    private static let generalPasteboard = UIPasteboard()

    /// The systemwide general pasteboard.
    /// Checked against uikit/uipasteboard/general (developer.apple.com, UIPasteboard.h): `class var general:
    /// UIPasteboard { get }`; iOS 3.
    @available(iOS 3.0, *)
    open class var general: UIPasteboard { generalPasteboard }

    /// The string of the first pasteboard item; setting it replaces every item.
    /// Checked against uikit/uipasteboard/string (developer.apple.com, UIPasteboard.h): optional String, get set; iOS
    /// 3.
    @available(iOS 3.0, *)
    open var string: String? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
