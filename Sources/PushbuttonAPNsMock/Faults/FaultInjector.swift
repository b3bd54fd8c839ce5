import Pushbutton
import PushbuttonSupport

/// Draws faults from a ``FaultPlan`` with a seeded generator. Used only on the server's thread.
struct FaultInjector {
    let plan: FaultPlan
    private var random: SplitMix64

    init(plan: FaultPlan) {
        self.plan = plan
        random = SplitMix64(seed: plan.seed)
    }

    /// The fault for the next valid request, if any: one uniform draw over the cumulative rates.
    mutating func draw() -> Fault? {
        guard plan.isEnabled else { return nil }
        let draw = random.nextUnit()
        let choices: [(Double, Fault)] = [
            (plan.tooManyRequestsRate, .status(MockResponse(status: 429, reason: "TooManyRequests"))),
            (plan.internalServerErrorRate, .status(MockResponse(status: 500, reason: "InternalServerError"))),
            (plan.serviceUnavailableRate, .status(MockResponse(status: 503, reason: "ServiceUnavailable"))),
            (plan.refusedStreamRate, .refuseStream),
            (plan.dropConnectionRate, .dropConnection),
            (plan.delayRate, .delay(plan.delay)),
            (plan.silenceRate, .silence),
        ]
        var threshold = 0.0
        for (rate, fault) in choices {
            threshold += rate
            if draw < threshold { return fault }
        }
        return nil
    }

    /// Whether to send GOAWAY after answering a stream, given how many streams this connection answered.
    mutating func goawayAfterAnswer(answered: Int) -> Bool {
        if let limit = plan.goawayAfterStreams, answered >= limit { return true }
        return plan.goawayRate > 0 && random.nextUnit() < plan.goawayRate
    }
}
