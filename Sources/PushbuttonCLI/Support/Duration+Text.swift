import Foundation
import Pushbutton
import PushbuttonSupport

extension Duration {
    /// Milliseconds with one decimal, as the CLI's stories print timings: `12.3`.
    var millisecondsText: String { String(format: "%.1f", seconds * 1000) }
}
