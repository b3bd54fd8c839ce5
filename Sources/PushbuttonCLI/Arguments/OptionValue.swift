import Pushbutton

/// The conversions of option text to values: the one place numbers and header values from the command line
/// are read, so no flag can reach a conversion that traps (`Int64(…)`, `UInt16(…)`) or allocate according to
/// an absurd value. A value that is not a number, or is outside the range, is a ``UsageError`` (exit status 2)
/// that names the option and the allowed range.
package enum OptionValue {
    /// A whole number within `range`.
    package static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A finite decimal number within `range`: `nan`, `inf` and values that overflow are refused like any
    /// other value out of range.
    package static func number(_ text: String, option: String, in range: ClosedRange<Double>) throws(UsageError)
        -> Double
    {
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                "\(option) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), got '\(text)'"
            )
        }
        return number
    }

    /// A number of seconds (decimals allowed) within `range`, as a duration.
    package static func seconds(_ text: String, option: String, in range: ClosedRange<Double>) throws(UsageError)
        -> Duration
    {
        let seconds = try number(text, option: option, in: range)
        return .milliseconds(Int64((seconds * 1000).rounded()))  // exact: the range keeps this far from Int64's limits
    }

    /// Text that becomes the HTTP header `header`: a CR, LF or other control character is refused.
    package static func header(_ text: String, option: String, header: String) throws(UsageError) -> String {
        if let problem = HeaderField.problem(name: header, value: text) { throw UsageError("\(option): \(problem)") }
        return text
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
