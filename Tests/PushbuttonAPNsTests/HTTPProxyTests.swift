import Foundation
import PushbuttonAPNs
import Testing

@Suite struct HTTPProxyTests {
    @Test func aURLGivesHostPortAndDecodedCredentials() throws {
        let proxy = try HTTPProxy(url: "http://us%40er:p%3Ass@proxy.internal:3128/")
        #expect(proxy.host == "proxy.internal")
        #expect(proxy.port == 3128)
        #expect(proxy.username == "us@er")
        #expect(proxy.password == "p:ss")
        #expect(proxy.description == "http://***@proxy.internal:3128")
        #expect(try HTTPProxy(url: "proxy.internal").port == 80)
        #expect(try HTTPProxy(url: "http://[::1]:8080").host == "::1")
        #expect(try HTTPProxy(url: "http://[::1]:8080").description == "http://[::1]:8080")
    }

    @Test func badURLsAreRefusedWithoutShowingTheirCredentials() {
        for (url, words) in [
            ("https://u:secret@proxy:443", "only http://"), ("socks5://proxy:1080", "only http://"),
            ("http://u:secret@proxy:99999", "1 to 65535"), ("http://u:secret@:8080", "no host"),
            ("http://proxy:8080/path", "has a path"),
        ] {
            #expect {
                try HTTPProxy(url: url)
            } throws: { error in
                let message = "\(error)"
                return message.contains(words) && !message.contains("secret")
            }
        }
    }

    @Test func theEnvironmentIsReadAsCurlReadsIt() throws {
        #expect(try HTTPProxy.environment([:]) == nil)
        #expect(try HTTPProxy.environment(["HTTPS_PROXY": ""]) == nil)
        let proxy = try #require(
            try HTTPProxy.environment([
                "https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2", "NO_PROXY": "localhost, .corp,,",
            ]))
        #expect(proxy.host == "lower")
        #expect(proxy.bypass == ["localhost", ".corp"])
        #expect(try HTTPProxy.environment(["ALL_PROXY": "http://all:3"])?.host == "all")
        #expect {
            try HTTPProxy.environment(["HTTPS_PROXY": "ftp://u:pw@x"])
        } throws: { "\($0)".hasPrefix("HTTPS_PROXY: ") && !"\($0)".contains("pw") }
    }

    @Test func theBypassListMatchesHostsDomainsAndAddresses() {
        let proxy = HTTPProxy(host: "p", bypass: ["localhost", ".corp.example", "push.apple.com", "10.0.0.1:443"])
        #expect(!proxy.applies(to: "localhost"))
        #expect(!proxy.applies(to: "a.corp.example"))
        #expect(!proxy.applies(to: "corp.example"))
        #expect(!proxy.applies(to: "api.push.apple.com"))
        #expect(!proxy.applies(to: "10.0.0.1"))
        #expect(proxy.applies(to: "api.sandbox.push.apple.org"))
        #expect(proxy.applies(to: "notpush.apple.com"))
        #expect(proxy.applies(to: "127.0.0.1"))
        #expect(!HTTPProxy(host: "p", bypass: ["*"]).applies(to: "anything"))
    }

    @Test func redactionRemovesOnlyTheUserinfo() {
        #expect(HTTPProxy.redact("http://a:b@h:1") == "http://***@h:1")
        #expect(HTTPProxy.redact("h:1") == "h:1")
        #expect(HTTPProxy.redact("a:b@h:1") == "***@h:1")
    }
}
