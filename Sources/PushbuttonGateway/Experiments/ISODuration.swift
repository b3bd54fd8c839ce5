/// An ISO 8601 duration of days, hours, minutes and seconds (`P1D`, `PT2H`, `PT90M`, `P1DT12H`), in
/// seconds; weeks, months and years are refused (their length depends on the calendar).
enum ISODuration {
    /// The seconds `text` says, or `nil` when it is not such a duration.
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text)
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var any = false
        for character in rest {
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number) else { return nil }
            number = ""
            switch (character, inTime) {
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3_600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
            any = true
        }
        guard number.isEmpty, any else { return nil }
        return total
    }
}
