import Testing

@testable import PushbuttonGateway

/// The workers' share of an app's APNs client: together as many under way as its connections carry.
struct DeliveryWorkersTests {
    @Test func theWorkersShareWhatTheConnectionsCarry() {
        #expect(DeliveryWorkers.inFlight(workers: 1, connections: 1) == 1000)
        #expect(DeliveryWorkers.inFlight(workers: 2, connections: 1) == 500)
        #expect(DeliveryWorkers.inFlight(workers: 8, connections: 2) == 250, "the benchmark's 8 workers: 2,000 in all")
        #expect(DeliveryWorkers.inFlight(workers: 4, connections: 4) == 1000)
        #expect(DeliveryWorkers.inFlight(workers: 64, connections: 1) == 100, "never fewer than 100 each")
        #expect(DeliveryWorkers.inFlight(workers: 0, connections: 0) == 1000)
    }
}
