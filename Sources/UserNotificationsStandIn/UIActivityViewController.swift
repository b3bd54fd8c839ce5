import Foundation

/// Mirrors UIKit's `UIActivity`, named by the share sheet's initializer.
@available(iOS 6.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIActivity: NSObject {}

/// Mirrors UIKit's `UIActivityViewController`, the share sheet (iOS 6). As on an iPad, it is presented in a
/// popover, which must be given an anchor (UIKit raises an exception otherwise).
@available(iOS 6.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIActivityViewController: UIViewController {
    /// Stand-in only: the items the sheet shares.
    public let standInActivityItems: [Any]

    @available(iOS 6.0, *)
    public init(activityItems: [Any], applicationActivities: [UIActivity]?) {
        standInActivityItems = activityItems
        super.init()
        standInPopover = UIPopoverPresentationController()
    }
}
