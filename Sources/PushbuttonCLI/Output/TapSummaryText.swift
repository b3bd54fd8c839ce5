import Foundation
import PushbuttonOutbox

/// The tap summary as text, for `pushbutton stats` and the demo.
enum TapSummaryText {
    static func lines(_ summary: TapSummary) -> [String] {
        // Deliveries are logged only where the app records them (Outbox.recordDelivered); without any, a
        // "0 deliveries" total would read as a contradiction, so the line says what is missing instead.
        var lines = [
            summary.totalDelivered > 0
                ? "\(count(summary.totalResponses, "response")) to \(count(summary.totalDelivered, "recorded delivery", "recorded deliveries"))"
                : "\(count(summary.totalResponses, "response")) (no deliveries recorded, so no rates per delivery)"
        ]
        for category in summary.categories {
            lines.append(
                "\(category.category): \(count(category.responses, "response"))"
                    + (category.delivered > 0 ? ", \(category.delivered) delivered" : ""))
            for action in category.actions {
                var line = "  " + action.action.padding(toLength: 18, withPad: " ", startingAt: 0)
                line += String(format: "%6d  %5.1f%% of responses", action.count, action.shareOfResponses * 100)
                if let rate = action.rate { line += String(format: "  %5.1f%% of deliveries", rate * 100) }
                if let latency = action.medianLatency {
                    // Measured on the device, from the notification's arrival to the tap.
                    line += String(format: "  median %.1f s from arrival to tap", latency)
                }
                lines.append(line)
            }
        }
        return lines
    }

    private static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
    }
}
