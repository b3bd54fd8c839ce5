import Testing

@testable import PushbuttonGateway

/// The workers' share of the APNs client: together as many under way as `pushbutton send` keeps by default.
struct DeliveryWorkersTests {
    @Test func theWorkersShareOneWindowOfAThousand() {
        #expect(DeliveryWorkers.inFlight(workers: 1) == 1000)
        #expect(DeliveryWorkers.inFlight(workers: 2) == 500)
        #expect(DeliveryWorkers.inFlight(workers: 8) == 125, "the benchmark's 8 workers: 1,000 in all")
        #expect(DeliveryWorkers.inFlight(workers: 64) == 100, "never fewer than 100 each")
        #expect(DeliveryWorkers.inFlight(workers: 0) == 1000)
    }
}
