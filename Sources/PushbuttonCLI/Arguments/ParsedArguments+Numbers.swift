/// Typed, range-checked option values: the one place numbers from the command line are read, so no flag
/// can reach a conversion that traps (`Int64(…)`, `UInt16(…)`) or allocate according to an absurd value.
/// A value that is not a number, or is outside the range, is a ``UsageError`` (exit status 2) that names
/// the allowed range.
extension ParsedArguments {
    /// The option's whole-number value, within `range`, or `nil` when the option was not given.
    package func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// The option's finite decimal value, within `range`, or `nil` when the option was not given.
    /// `nan`, `inf` and values that overflow are refused like any other value out of range.
    package func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                "\(name) must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got '\(text)'"
            )
        }
        return number
    }

    /// The option's value in seconds (decimals allowed), within `range`, as a duration.
    package func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Duration? {
        guard let seconds = try number(name, in: range) else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))  // exact: the range keeps this far from Int64's limits
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
