import Testing

@testable import Pushbutton

@Suite struct URLTextTests {
    @Test(arguments: [
        ("https://api.example.com/like", URLText.Scheme.https, URLText.Host.other),
        ("HTTP://LOCALHOST:8080/x", .http, .loopback),
        ("http://127.0.0.1/x", .http, .loopback),
        ("http://[::1]:9/x", .http, .loopback),
        ("https://user:pw@example.com:443/p?q#f", .https, .other),
        ("https://example.com?x", .https, .other),
        ("chatter://message/42", .other, .other),
        ("mailto:a@b.c", .other, .none),
        ("https:///nohost", .https, .none),
        ("https://@:80/", .https, .none),
    ])
    func schemesAndHosts(text: String, scheme: URLText.Scheme, host: URLText.Host) {
        let url = URLText(text)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
    }

    @Test(arguments: ["", "no scheme", ":x", "1http://x", "ht tp://x", "/relative"])
    func notURLs(text: String) {
        #expect(URLText(text).scheme == nil)
    }

    @Test func reservedIdentifiersAreFoundWithoutCaseAndWithoutAllocating() {
        #expect(SystemIdentifiers.isReserved("pushbutton.callback"))
        #expect(SystemIdentifiers.isReserved("PUSHBUTTON.x"))
        #expect(SystemIdentifiers.isReserved("pushbutton."))
        #expect(!SystemIdentifiers.isReserved("pushbutton"))
        #expect(!SystemIdentifiers.isReserved("pushbuttons.x"))
        #expect(!SystemIdentifiers.isReserved(""))
    }
}
