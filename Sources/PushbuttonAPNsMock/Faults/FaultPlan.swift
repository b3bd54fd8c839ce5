/// Which faults the mock injects, and how often. Rates are probabilities per accepted request (0...1);
/// the draws come from a generator seeded with ``seed``, so a run with the same requests in the same order
/// injects the same faults.
public struct FaultPlan: Sendable, Hashable {
    /// The seed of the fault draws: the same seed and requests inject the same faults.
    public var seed: UInt64
    /// 429 TooManyRequests.
    public var tooManyRequestsRate: Double
    /// 500 InternalServerError.
    public var internalServerErrorRate: Double
    /// 503 ServiceUnavailable.
    public var serviceUnavailableRate: Double
    /// RST_STREAM with REFUSED_STREAM: the server did not process the stream.
    public var refusedStreamRate: Double
    /// The TCP connection is closed without an answer (every open stream on it is lost).
    public var dropConnectionRate: Double
    /// The answer is held back for ``delay``.
    public var delayRate: Double
    /// How long a delayed answer is held back.
    public var delay: Duration
    /// No answer is ever sent on the stream (the sender's per-request timeout must end it).
    public var silenceRate: Double
    /// GOAWAY after this many answered streams on a connection.
    public var goawayAfterStreams: Int?
    /// GOAWAY after an answer, at random.
    public var goawayRate: Double
    /// The `reason` in the GOAWAY's debug data, as APNs sends it.
    public var goawayReason: String

    /// A plan; every rate is 0 (no fault) unless given.
    public init(
        seed: UInt64 = 1, tooManyRequestsRate: Double = 0, internalServerErrorRate: Double = 0,
        serviceUnavailableRate: Double = 0, refusedStreamRate: Double = 0, dropConnectionRate: Double = 0,
        delayRate: Double = 0, delay: Duration = .milliseconds(200), silenceRate: Double = 0,
        goawayAfterStreams: Int? = nil, goawayRate: Double = 0, goawayReason: String = "Shutdown"
    ) {
        self.seed = seed
        self.tooManyRequestsRate = tooManyRequestsRate
        self.internalServerErrorRate = internalServerErrorRate
        self.serviceUnavailableRate = serviceUnavailableRate
        self.refusedStreamRate = refusedStreamRate
        self.dropConnectionRate = dropConnectionRate
        self.delayRate = delayRate
        self.delay = delay
        self.silenceRate = silenceRate
        self.goawayAfterStreams = goawayAfterStreams
        self.goawayRate = goawayRate
        self.goawayReason = goawayReason
    }

    /// No faults: the mock answers like a healthy APNs.
    public static let none = FaultPlan()

    /// Whether any fault is enabled.
    public var isEnabled: Bool { self != FaultPlan(seed: seed, delay: delay, goawayReason: goawayReason) }

    /// Reads the command line's form: comma-separated `name=value` pairs, for example
    /// `429=0.01,500=0.01,503=0.01,refuse=0.01,drop=0.001,delay=0.01,silence=0.001,goaway-after=500,seed=7`.
    public init(parsing text: String) throws(FaultPlanError) {
        self.init()
        for item in text.split(separator: ",") where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw FaultPlanError(.malformedItem, "'\(item)' is not name=value") }
            try set(parts[0], parts[1])
        }
    }

    private mutating func set(_ name: String, _ value: String) throws(FaultPlanError) {
        func rate() throws(FaultPlanError) -> Double {
            guard let rate = Double(value), (0...1).contains(rate) else {
                throw FaultPlanError(.invalidValue, "'\(name)' needs a rate between 0 and 1, got '\(value)'")
            }
            return rate
        }
        func count() throws(FaultPlanError) -> Int {
            guard let count = Int(value), count > 0 else {
                throw FaultPlanError(.invalidValue, "'\(name)' needs a positive whole number, got '\(value)'")
            }
            return count
        }
        switch name {
        case "429": tooManyRequestsRate = try rate()
        case "500": internalServerErrorRate = try rate()
        case "503": serviceUnavailableRate = try rate()
        case "refuse": refusedStreamRate = try rate()
        case "drop": dropConnectionRate = try rate()
        case "delay": delayRate = try rate()
        case "delay-ms": delay = .milliseconds(try count())
        case "silence": silenceRate = try rate()
        case "goaway": goawayRate = try rate()
        case "goaway-after": goawayAfterStreams = try count()
        case "seed":
            guard let seed = UInt64(value) else {
                throw FaultPlanError(.invalidValue, "'seed' needs a whole number, got '\(value)'")
            }
            self.seed = seed
        default:
            throw FaultPlanError(
                .unknownFault,
                "unknown fault '\(name)' (known: 429, 500, 503, refuse, drop, delay, delay-ms, silence, goaway, "
                    + "goaway-after, seed)")
        }
    }
}
