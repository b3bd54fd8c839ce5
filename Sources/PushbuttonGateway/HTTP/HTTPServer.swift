internal import CH2O
import Dispatch
import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

/// An HTTP/1.1 and HTTP/2 server on h2o (`libh2o-evloop`), with optional TLS.
///
/// h2o parses and frames on one event-loop thread; each request is copied into an ``HTTPRequest`` there and
/// handled on one of the server's handler threads (``HTTPServerOptions/handlerThreads``), so a slow store call
/// never stalls the loop; the answer goes back to the loop through h2o's thread-safe message queue.
///
/// Defences against hostile clients (issue 32): a request whose stream is gone before a handler thread takes
/// it is dropped unhandled; a connection that cancels many more requests than it had answered (HTTP/2 rapid
/// reset) is shut down; the handlers' queue is bounded (`503` past it) while ``HTTPServerOptions/reservedPaths``
/// have a thread and queue of their own; connections are capped below the descriptor limit.
public final class HTTPServer: Sendable {
    /// The port it listens on (the chosen one when asked for port 0).
    public let port: Int
    public let options: HTTPServerOptions
    /// The connection cap in force (``HTTPServerOptions/maximumConnections`` or the one derived).
    public let maximumConnections: Int
    private let state: State
    private let thread: ThreadExit

    /// What the C callback reaches through its context pointer.
    final class State: Sendable {
        let handler: @Sendable (HTTPRequest) -> HTTPResponse
        let threads: HandlerThreads
        /// The reserved paths' own thread.
        let reserved: HandlerThreads
        let reservedPaths: Set<String>
        let maximumQueued: Int
        /// Set once, before the loop starts; only read afterwards.
        nonisolated(unsafe) var server: UnsafeMutablePointer<pb_http_server_t>?
        init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, options: HTTPServerOptions) {
            self.handler = handler
            threads = HandlerThreads(count: options.handlerThreads, name: "pb-http")
            reserved = HandlerThreads(count: 1, name: "pb-http-rsv")
            reservedPaths = options.reservedPaths
            maximumQueued = max(1, options.maximumQueuedRequests)
        }
    }

    /// A ticket crosses from the loop thread to a handler and back to C, which hands it to the loop again:
    /// the handler only passes it along, never dereferences it.
    struct Ticket: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<pb_http_ticket_t>
    }

    /// Starts listening and serving; `handler` runs on a concurrent queue, once per request. Raises the
    /// descriptor limit to its hard limit and ignores SIGPIPE from then on.
    public init(_ options: HTTPServerOptions, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse)
        throws(HTTPServerError)
    {
        // h2o writes with writev, without MSG_NOSIGNAL: a client that resets its connection mid-answer (what a
        // rapid-reset client does by the thousand) must not end the process.
        signal(SIGPIPE, SIG_IGN)
        self.options = options
        let state = State(handler: handler, options: options)
        let cap = FileDescriptorLimit.connectionCap(
            configured: options.maximumConnections, limit: FileDescriptorLimit.raiseSoftToHard())
        maximumConnections = cap
        var error = [CChar](repeating: 0, count: 512)
        let context = Unmanaged.passRetained(state).toOpaque()
        let server = error.withUnsafeMutableBufferPointer { buffer in
            pb_http_server_create(
                options.host, Int32(options.port), options.tls?.certificate, options.tls?.key,
                options.maximumBodyBytes, UInt64(options.requestTimeout.milliseconds),
                UInt64(options.idleTimeout.milliseconds), Int32(clamping: cap),
                UInt64(max(0, options.cancelledRequestAllowance)), HTTPServer.onRequest, context, buffer.baseAddress,
                buffer.count)
        }
        guard let server else {
            Unmanaged<State>.fromOpaque(context).release()
            throw HTTPServerError(
                message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        state.server = server
        self.state = state
        port = Int(pb_http_server_port(server))
        let exit = ThreadExit()
        thread = exit
        let address = UInt(bitPattern: server)
        // The loop's h2o parts are made on its own thread (see pb_http_server_prepare_loop); the server answers
        // nothing, and cannot be stopped, until they are: waited for here (a thread's start, well under a ms).
        let prepared = DispatchSemaphore(value: 0)
        let runner = Thread {
            pb_thread_set_name("pb-http-loop")
            let server = UnsafeMutablePointer<pb_http_server_t>(bitPattern: address)
            pb_http_server_prepare_loop(server)
            prepared.signal()
            pb_http_server_run(server)
            exit.signal()
        }
        runner.start()
        prepared.wait()
    }

    /// Stops accepting, ends the loop thread, then the handler threads once the requests they hold are answered.
    /// Connections still open are dropped; the loop's memory stays until the process ends.
    public func stop() async {
        guard let server = state.server else { return }
        pb_http_server_stop(server)
        await thread.wait()
        await state.threads.stop()
        await state.reserved.stop()
    }

    /// How many handler threads are running (0 once ``stop()`` returned).
    var runningHandlerThreads: Int { state.threads.runningThreads + state.reserved.runningThreads }

    /// How many requests wait for a handler thread (the reserved paths' excepted).
    var waitingRequests: Int { state.threads.waitingJobs }

    /// What the defences did so far, for tests and operators.
    public struct DefenceCounters: Sendable, Hashable {
        /// Connections shut down for cancelling too many requests (HTTP/2 rapid reset).
        public var connectionsShutForCancelling: Int
        /// Requests whose stream was gone before their answer.
        public var cancelledRequests: Int
        /// Accepts that failed for want of descriptors (the listener then rests 100 ms).
        public var acceptFailures: Int
        /// Connections open now.
        public var openConnections: Int
    }

    /// The defences' counters now.
    public var defenceCounters: DefenceCounters {
        guard let server = state.server else {
            return DefenceCounters(
                connectionsShutForCancelling: 0, cancelledRequests: 0, acceptFailures: 0, openConnections: 0)
        }
        return DefenceCounters(
            connectionsShutForCancelling: Int(pb_http_server_refused_connections(server)),
            cancelledRequests: Int(pb_http_server_cancelled_requests(server)),
            acceptFailures: Int(pb_http_server_accept_failures(server)),
            openConnections: Int(pb_http_server_open_connections(server)))
    }

    /// The answer to a request that found the handlers' queue full.
    static let overloaded: HTTPResponse = {
        var response = GatewayError(
            503, "overloaded", "the server has more requests waiting than it can handle now; retry in a second"
        ).response
        response.headers.append(("retry-after", "1"))
        return response
    }()

    private static let onRequest: pb_http_request_cb = { context, ticket, request in
        guard let context, let ticket, let request else { return }
        let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
        let copied = HTTPServer.copy(request)
        let pass = Ticket(pointer: ticket)
        let job: @Sendable () -> Void = {
            // Reset or abandoned while it waited (a rapid-reset client's every request): nobody reads the answer.
            if pb_http_ticket_is_gone(pass.pointer) != 0 { return pb_http_ticket_drop(pass.pointer) }
            let response = state.handler(copied)
            HTTPServer.respond(state, pass, response)
        }
        let lane = state.reservedPaths.contains(copied.path) ? state.reserved : state.threads
        if !lane.run(job, ifFewerWaitingThan: state.maximumQueued) {
            HTTPServer.respond(state, pass, HTTPServer.overloaded)
        }
    }

    private static func string(_ vector: h2o_iovec_t) -> String {
        guard let base = vector.base, vector.len > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: base, count: vector.len), as: UTF8.self)
    }

    private static func copy(_ request: UnsafeMutablePointer<h2o_req_t>) -> HTTPRequest {
        var headers: [String: String] = [:]
        for index in 0..<pb_http_header_count(request) {
            headers[string(pb_http_header_name(request, index))] = string(pb_http_header_value(request, index))
        }
        let entity = pb_http_entity(request)
        let body: [UInt8] =
            entity.base.map { Array(UnsafeRawBufferPointer(start: $0, count: entity.len)) } ?? []
        let (path, query) = HTTPRequest.split(target: string(pb_http_path(request)))
        let version = pb_http_version(request) >= 0x200 ? "HTTP/2" : "HTTP/1.1"
        var peer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let hasPeer = pb_http_peer(request, &peer, socklen_t(peer.count)) == 0
        return HTTPRequest(
            method: string(pb_http_method(request)), path: path, query: query, headers: headers, body: body,
            version: version, authority: string(pb_http_authority(request)),
            peer: hasPeer ? String(decoding: peer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "")
    }

    private static func respond(_ state: State, _ ticket: Ticket, _ response: HTTPResponse) {
        guard let server = state.server else { return }
        var names = response.headers.map { strdup($0.name) }
        var values = response.headers.map { strdup($0.value) }
        defer {
            for pointer in names { free(pointer) }
            for pointer in values { free(pointer) }
        }
        names.withUnsafeMutableBufferPointer { namePointers in
            values.withUnsafeMutableBufferPointer { valuePointers in
                response.body.withUnsafeBytes { body in
                    namePointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { names in
                        valuePointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                            pb_http_respond(
                                server, ticket.pointer, Int32(response.status), names.baseAddress,
                                values.baseAddress, names.count, body.baseAddress, body.count)
                        }
                    }
                }
            }
        }
    }
}

/// The server could not start: the address, the port or the TLS files.
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
