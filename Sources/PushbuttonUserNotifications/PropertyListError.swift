#if !os(tvOS)
    import Pushbutton

    /// A local notification's `userInfo` holds a value a property list cannot: `null` inside an array.
    public struct PropertyListError: Error, CustomStringConvertible, Sendable, Hashable {
        /// Where in `userInfo`.
        public let path: JSONPath

        public var description: String {
            "userInfo \(path) is null, which a notification's userInfo (a property list) cannot hold: "
                + "remove the element, or use a value such as false, 0 or \"\" instead"
        }
    }
#endif
