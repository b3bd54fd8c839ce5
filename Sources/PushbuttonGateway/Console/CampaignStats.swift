import Pushbutton

/// A campaign's statistics as `GET /v1/apps/{app}/stats?campaign=ID` answers them (the shared contract of
/// issue 16), read back for the console's chart. Rates are fractions from 0 to 1.
struct CampaignStats: Sendable, Equatable {
    /// One button of the category: its taps and rates.
    struct Button: Sendable, Equatable {
        var button: String
        var taps: Int
        var rateOfDeliveries: Double
        var rateOfResponses: Double
    }

    var sent: Int
    var delivered: Int
    var rejected: Int
    var failed: Int
    var deadTokens: Int
    var responses: Int
    var responseRate: Double
    var buttons: [Button]
    var body: Int
    var dismissals: Int?
    var foreground: Int
    var background: Int
    var medianTimeToTap: Double?
    var p90TimeToTap: Double?

    /// Reads the stats JSON; nil when it is not an object.
    init?(_ value: JSONValue) {
        guard let object = value.objectValue else { return nil }
        func count(_ key: String) -> Int { Int(object[key]?.integerValue ?? 0) }
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .integer(let integer)?: Double(integer)
            case .double(let double)?: double
            default: nil
            }
        }
        sent = count("sent")
        delivered = count("delivered")
        rejected = count("rejected")
        failed = count("failed")
        deadTokens = count("dead_tokens")
        responses = count("responses")
        responseRate = number(object["response_rate"]) ?? 0
        buttons = (object["buttons"]?.arrayValue ?? []).compactMap { element in
            guard let button = element.objectValue, let name = button["button"]?.stringValue else { return nil }
            return Button(
                button: name, taps: Int(button["taps"]?.integerValue ?? 0),
                rateOfDeliveries: number(button["rate_of_deliveries"]) ?? 0,
                rateOfResponses: number(button["rate_of_responses"]) ?? 0)
        }
        body = count("body")
        dismissals = object["dismissals"]?.integerValue.map(Int.init)
        foreground = count("foreground")
        background = count("background")
        let times = object["time_to_tap_ms"]?.objectValue
        medianTimeToTap = number(times?["median"])
        p90TimeToTap = number(times?["p90"])
    }
}
