import Foundation

/// How experiment numbers read in sentences and on the console: points, p-values, counts, the metric.
enum ExperimentWording {
    /// A difference of rates in percentage points with its sign and one decimal: "+3.1", "-0.4", "0.0".
    static func points(_ difference: Double) -> String {
        let value = (difference * 1000).rounded() / 10
        if value == 0 { return "0.0" }
        return (value > 0 ? "+" : "") + String(format: "%.1f", value)
    }

    /// A rate as a percentage with one decimal: "12.3%".
    static func percent(_ rate: Double) -> String {
        String(format: "%.1f%%", rate * 100)
    }

    /// A p-value as journals print it: "p = 0.31", "p = 0.002", "p < 0.001".
    static func pValue(_ p: Double) -> String {
        if p < 0.001 { return "p < 0.001" }
        if p < 0.01 { return String(format: "p = %.3f", p) }
        // Two decimals, but not rounded down to 0.05 (a p of 0.0504 is not significant; "0.050" says so).
        let twoDecimals = String(format: "%.2f", p)
        return twoDecimals == "0.05" && p != 0.05 ? String(format: "p = %.3f", p) : "p = " + twoDecimals
    }

    /// A whole number with thousands separators: "1,000".
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// The confidence level as a percentage: "95%", "99.5%".
    static func confidence(_ level: Double) -> String {
        let percent = level * 100
        return percent == percent.rounded() ? "\(Int(percent))%" : String(format: "%.1f%%", percent)
    }

    /// The metric as the sentence names it: `button:add_to_cart` is "'add_to_cart'", `any_button` "any button".
    static func metric(_ metric: String) -> String {
        switch metric {
        case "any_button": return "any button"
        case "body": return "the body"
        case "dismiss": return "dismissals"
        default:
            let button = metric.hasPrefix("button:") ? String(metric.dropFirst("button:".count)) : metric
            return "'\(button)'"
        }
    }
}
