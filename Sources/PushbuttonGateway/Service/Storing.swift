import PushbuttonStore

/// Runs a store call for a service: a store failure becomes the gateway's `503` error.
func storing<Result>(_ body: () throws(StoreError) -> Result) throws(GatewayError) -> Result {
    do { return try body() } catch { throw .store(error) }
}
