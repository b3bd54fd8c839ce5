import Foundation
import Testing

@testable import PushbuttonGateway

/// The server's h2o parts belong to its loop's thread, whatever thread made the server (issue 31). h2o keeps its
/// socket buffers' prototype per thread; made on the caller's thread, the listener and the answers' queue kept
/// their empty input buffers in that thread's storage and took buffers from its free list, from the loop's thread:
/// the test process crashed now and then in the loop's read (a thread that had ended) and in malloc (a free list
/// two threads used at once). A thread whose storage is gone at once makes the fault certain: before the fix this
/// test ended the process with SIGSEGV at the first connection.
@Suite(.timeLimit(.minutes(2)))
struct HTTPServerThreadTests {
    @Test func aServerMadeOnAThreadThatHasEndedAnswers() async throws {
        let server = try UnmappedStackThread.run {
            try HTTPServer(HTTPServerOptions(port: 0)) { request in .text(200, "answered \(request.path)") }
        }
        for path in ["/a", "/b"] {
            let answer = try await Curl.run(["-s", "--http2-prior-knowledge", "http://127.0.0.1:\(server.port)\(path)"])
            #expect(answer == "answered \(path)")
        }
        #expect(try await Curl.run(["-s", "http://127.0.0.1:\(server.port)/c"]) == "answered /c")
        await server.stop()
    }
}
