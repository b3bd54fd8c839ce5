// Connections to APNs through an HTTP proxy (CONNECT), given explicitly or read from the environment.
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func proxiedTransports() throws {
        // snippet.show
        let proxy = try HTTPProxy(url: "http://user:secret@proxy.internal:3128", bypass: ["localhost"])
        let transport = try NGHTTP2Transport(.init(environment: .production, proxy: proxy))

        // Or as curl reads the environment: https_proxy / HTTPS_PROXY (then all_proxy), and no_proxy / NO_PROXY.
        let fromEnvironment = try HTTPProxy.environment()
        // snippet.hide
        _ = (transport, fromEnvironment)
    }
#endif
