extension DeviceToken {
    /// A token read back from where it was kept after ``init(_:)`` accepted it (the gateway's queue): the hex
    /// as `init(_:)` left it, so it is not checked digit by digit again for every send. `nil` when it
    /// cannot be one (the wrong length), never a token the path could not carry.
    package init?(storedHex hex: String) {
        let count = hex.utf8.count
        guard (64...Self.maximumDigits).contains(count), count % 2 == 0 else { return nil }
        self.hex = hex
    }
}
