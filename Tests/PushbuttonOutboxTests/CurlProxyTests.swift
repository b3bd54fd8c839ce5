#if os(Linux)
    import Foundation
    import PushbuttonTestSupport
    import Testing

    @testable import PushbuttonOutbox

    /// ``CurlSender`` through the tests' own CONNECT proxy, to the hostile backend on 127.0.0.1.
    @Suite(.timeLimit(.minutes(5))) struct CurlProxyTests {
        private static func request(_ port: Int, key: String) -> OutgoingRequest {
            OutgoingRequest(
                url: "http://127.0.0.1:\(port)/messages/1/like", method: "POST",
                headers: ["Idempotency-Key": key, "Content-Type": "application/json"], body: Data("{}".utf8))
        }

        @Test func requestsGoThroughTheTunnelWithTheProxysCredentials() async throws {
            let fixture = try Fixture()
            defer { fixture.remove() }
            let backend = try await HostileBackend(directory: fixture.directory)
            defer { backend.stop() }
            let proxy = try ConnectProxy(credentials: "carol:pa55")
            defer { proxy.stop() }
            let sender = CurlSender(connections: 1, proxy: .http(url: proxy.url(credentials: "carol:pa55"), bypass: []))
            for number in 0..<3 {
                #expect(try await sender.send(Self.request(backend.port, key: "k\(number)")) == 200)
            }
            // The kept-alive handle reuses its tunnel.
            #expect(proxy.requests.map(\.target) == ["127.0.0.1:\(backend.port)"])
            #expect(proxy.requests.first?.authorization == "Basic " + Data("carol:pa55".utf8).base64EncodedString())
            #expect(try backend.requests().count == 3)
        }

        @Test func a407AndAnUnreachableProxyAreClearErrorsWithoutTheCredentials() async throws {
            let fixture = try Fixture()
            defer { fixture.remove() }
            let backend = try await HostileBackend(directory: fixture.directory)
            defer { backend.stop() }
            let proxy = try ConnectProxy(credentials: "carol:pa55")
            defer { proxy.stop() }
            let wrong = CurlSender(
                timeout: .seconds(5), connections: 1,
                proxy: .http(url: proxy.url(credentials: "carol:nope-secret"), bypass: []))
            do {
                _ = try await wrong.send(Self.request(backend.port, key: "w"))
                Issue.record("the proxy should have refused the tunnel")
            } catch {
                let message = "\(error)"
                #expect(message.contains("answered CONNECT with 407"), "\(message)")
                #expect(message.contains("http://***@127.0.0.1:\(proxy.port)"), "\(message)")
                #expect(!message.contains("nope-secret"), "\(message)")
            }
            let closed = try ConnectProxy()
            let closedPort = closed.port
            closed.stop()
            let unreachable = CurlSender(
                timeout: .seconds(5), connections: 1,
                proxy: .http(url: "http://dave:hush@127.0.0.1:\(closedPort)", bypass: []))
            do {
                _ = try await unreachable.send(Self.request(backend.port, key: "u"))
                Issue.record("there is no proxy to reach")
            } catch {
                let message = "\(error)"
                #expect(message.contains("cannot reach the proxy http://***@127.0.0.1:\(closedPort)"), "\(message)")
                #expect(!message.contains("hush"), "\(message)")
            }
            #expect(((try? backend.requests()) ?? []).isEmpty)  // no log: the backend saw nothing
        }

        @Test func aBypassedHostAndDirectSkipTheProxy() async throws {
            let fixture = try Fixture()
            defer { fixture.remove() }
            let backend = try await HostileBackend(directory: fixture.directory)
            defer { backend.stop() }
            let proxy = try ConnectProxy()
            defer { proxy.stop() }
            let bypassing = CurlSender(connections: 1, proxy: .http(url: proxy.url(), bypass: ["127.0.0.1"]))
            #expect(try await bypassing.send(Self.request(backend.port, key: "b")) == 200)
            let direct = CurlSender(connections: 1, proxy: .direct)
            #expect(try await direct.send(Self.request(backend.port, key: "d")) == 200)
            #expect(proxy.requests.isEmpty)
            #expect(try backend.requests().count == 2)
        }
    }
#endif
