import Foundation

/// Mirrors `UIResponder`, the superclass of the app delegate Xcode's templates make.
///
/// Checked against developer.apple.com/documentation/uikit/uiresponder (UIResponder.h): iOS 2, main actor.
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIResponder: NSObject {
    /// Stand-in only: UIKit makes the app delegate (`@main`, or a SwiftUI app's delegate adaptor).
    public override init() { super.init() }
}
