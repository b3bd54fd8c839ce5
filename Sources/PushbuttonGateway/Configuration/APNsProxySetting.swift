import Foundation
import PushbuttonAPNs

/// How the gateway's connections to APNs get out of the network: configuration's `"proxy"`. As with
/// `pushbutton send`, the environment decides unless the configuration says otherwise.
public enum APNsProxySetting: Sendable, Hashable {
    /// `"proxy"` absent: the proxy `HTTPS_PROXY` (and its kin) names, bypassed for the hosts in `NO_PROXY`;
    /// directly when none is set.
    case environment
    /// `"proxy": false`: directly, whatever the environment says.
    case direct
    /// `"proxy": "http://[user:password@]host:port"`: through this one (`NO_PROXY` still lists hosts that
    /// bypass it).
    case through(HTTPProxy)

    /// The proxy to use, reading `variables` for ``environment``.
    public func resolve(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws(APNsError)
        -> HTTPProxy?
    {
        switch self {
        case .environment: return try HTTPProxy.environment(variables)
        case .direct: return nil
        case .through(var proxy):
            if proxy.bypass.isEmpty { proxy.bypass = HTTPProxy.environmentBypass(variables) }
            return proxy
        }
    }
}
