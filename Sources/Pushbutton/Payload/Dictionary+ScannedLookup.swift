extension Dictionary where Key == String {
    /// The value for `key`, found in a dictionary of a few members by comparing the keys one by one: hashing a
    /// key costs more than a few comparisons of short strings (equal ones at once). Larger ones are hashed.
    /// The result is the subscript's: both compare keys with `==`.
    @inline(__always)
    func scannedValue(forKey key: String, scanningUpTo limit: Int = 4) -> Value? {
        guard count <= limit else { return self[key] }
        for (candidate, value) in self where candidate == key { return value }
        return nil
    }
}
