import Pushbutton

extension ParsedArguments {
    /// The option's value when it becomes an HTTP header (`--topic`, `--collapse-id`): a value with a
    /// CR, LF or other control character is a ``UsageError`` here, before anything is sent.
    package func headerValue(_ name: String, header: String) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        if let problem = HeaderField.problem(name: header, value: text) { throw UsageError("\(name): \(problem)") }
        return text
    }
}
