#ifndef PUSHBUTTON_CH2O_SHIM_H
#define PUSHBUTTON_CH2O_SHIM_H

// h2o (libh2o-evloop-dev): HTTP/1.1 and HTTP/2 (h2c and TLS with ALPN) on its own event loop.
//
// Swift cannot use h2o's setup directly: it is struct-heavy (a global configuration, a host, a path, a handler
// allocated with extra room), its tokens are macros, and every request must be answered on the loop's thread.
// These wrappers own that: one server = one loop thread; a request reaches Swift through a callback on that
// thread as a ticket, and Swift answers it from any thread with pb_http_respond, which hands the response to
// the loop through h2o's thread-safe message queue.

#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <h2o/http1.h>
#include <h2o/http2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct pb_http_server;

/// One accepted connection, as the server counts it: held by its socket (until h2o closes it) and by each of
/// its requests still in h2o. Touched on the loop thread only.
typedef struct pb_http_connection {
    struct pb_http_server *server;
    int references;
    /// The socket's descriptor; -1 once h2o closed it (the number may then be reused by anything).
    int fd;
    /// Requests whose stream was gone (reset, or the client left) before their answer: what a rapid-reset
    /// client does by the thousand, and what a well-behaved one rarely does.
    uint64_t cancelled;
    /// Requests answered while their stream was open.
    uint64_t answered;
    /// Set once the connection was shut down for cancelling too many; its later requests get 503 at once.
    int refused;
} pb_http_connection_t;

/// One request awaiting its answer. `req`, `answered` and `connection` are touched on the loop thread only;
/// `gone` and `references` on any thread.
typedef struct pb_http_ticket {
    /// NULL once h2o has disposed of the request (the client went away).
    h2o_req_t *req;
    /// Its connection while `req` is alive.
    pb_http_connection_t *connection;
    int answered;
    /// 1 once h2o disposed of the request: a handler thread skips the handler for it.
    atomic_int gone;
    /// The request pool's reference and the pending answer's: freed when both are gone.
    atomic_int references;
} pb_http_ticket_t;

/// Called on the loop thread for each request. Copy what you need before returning; answer later with
/// pb_http_respond (exactly once per ticket).
typedef void (*pb_http_request_cb)(void *context, pb_http_ticket_t *ticket, h2o_req_t *req);

typedef struct pb_http_server {
    h2o_globalconf_t config;
    h2o_context_t context;
    h2o_accept_ctx_t accept;
    h2o_evloop_t *loop;
    h2o_multithread_queue_t *queue;
    h2o_multithread_receiver_t receiver;
    h2o_socket_t *listener;
    SSL_CTX *ssl;
    int port;
    /// The bound listening socket, until the loop's thread makes it h2o's listener.
    int listen_fd;
    atomic_int stopping;
    pb_http_request_cb on_request;
    void *callback_context;
    /// Connections open now, and the most the server keeps: at the cap it stops accepting (new clients wait
    /// in the listen backlog) until one closes.
    int connections;
    int max_connections;
    /// Cancelled requests a connection may have beyond the ones it got answered before it is shut down.
    uint64_t max_cancelled;
    /// 1 while the listener is not read: at the cap, or after accept failed for want of descriptors.
    int accept_paused;
    /// After EMFILE/ENFILE the listener rests instead of spinning (it stays readable), then tries again.
    h2o_timeout_t accept_retry;
    h2o_timeout_entry_t accept_retry_entry;
    /// Counters for tests and metrics (loop thread writes, any thread reads).
    atomic_ulong refused_connections;
    atomic_ulong accept_failures;
    atomic_ulong cancelled_requests;
    atomic_int open_connections;
} pb_http_server_t;

typedef struct {
    h2o_handler_t super;
    pb_http_server_t *server;
} pb_http_handler_t;

/// An answer on its way to the loop: one allocation holding the header strings and the body after it.
typedef struct {
    h2o_multithread_message_t super;
    pb_http_ticket_t *ticket;
    int status;
    size_t header_count;
    size_t body_length;
    /// header_count pairs of (name offset, name length, value offset, value length) into bytes, then the body.
    size_t *offsets;
    char *bytes;
    /// The body, after the header strings in bytes.
    char *body;
} pb_http_answer_t;

static inline void pb_http_ticket_release(pb_http_ticket_t *ticket) {
    if (atomic_fetch_sub(&ticket->references, 1) == 1) free(ticket);
}

/// Whether h2o disposed of the ticket's request (any thread): its handler need not run.
static inline int pb_http_ticket_is_gone(pb_http_ticket_t *ticket) { return atomic_load(&ticket->gone); }

/// Lets go of a ticket whose request is gone, without an answer (any thread).
static inline void pb_http_ticket_drop(pb_http_ticket_t *ticket) { pb_http_ticket_release(ticket); }

static inline void pb_http_connection_release(pb_http_connection_t *connection) {
    if (--connection->references == 0) free(connection);
}

/// Shuts a connection's socket down (both ways): h2o sees the end on its next read or write and closes the
/// connection its own way, freeing its streams; nothing of h2o's is touched here.
static inline void pb_http_connection_shut(pb_http_connection_t *connection) {
    if (connection->refused || connection->fd < 0) return;
    connection->refused = 1;
    shutdown(connection->fd, SHUT_RDWR);
    atomic_fetch_add(&connection->server->refused_connections, 1);
}

/// The rapid-reset rule (CVE-2023-44487): a connection whose cancelled requests outnumber its answered ones
/// by more than the allowance is not a client the server owes more work.
static inline int pb_http_connection_cancels_too_many(const pb_http_connection_t *connection, uint64_t allowance) {
    return connection->cancelled > connection->answered + allowance;
}

static inline void pb_http_ticket_request_gone(void *slot) {
    pb_http_ticket_t *ticket = *(pb_http_ticket_t **)slot;
    ticket->req = NULL;
    atomic_store(&ticket->gone, 1);
    pb_http_connection_t *connection = ticket->connection;
    ticket->connection = NULL;
    if (connection != NULL) {
        if (!ticket->answered) {
            connection->cancelled++;
            atomic_fetch_add(&connection->server->cancelled_requests, 1);
            if (pb_http_connection_cancels_too_many(connection, connection->server->max_cancelled))
                pb_http_connection_shut(connection);
        }
        pb_http_connection_release(connection);
    }
    pb_http_ticket_release(ticket);
}

static inline const char *pb_http_reason(int status) {
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

static inline void pb_http_deliver(h2o_multithread_receiver_t *receiver, h2o_linklist_t *messages) {
    (void)receiver;
    while (!h2o_linklist_is_empty(messages)) {
        h2o_multithread_message_t *message = H2O_STRUCT_FROM_MEMBER(h2o_multithread_message_t, link, messages->next);
        h2o_linklist_unlink(&message->link);
        pb_http_answer_t *answer = (pb_http_answer_t *)message;
        if (answer->ticket != NULL) {
            h2o_req_t *req = answer->ticket->req;
            if (req != NULL) {
                answer->ticket->answered = 1;
                if (answer->ticket->connection != NULL) answer->ticket->connection->answered++;
                req->res.status = answer->status;
                req->res.reason = pb_http_reason(answer->status);
                for (size_t i = 0; i < answer->header_count; i++) {
                    size_t *o = answer->offsets + i * 4;
                    h2o_iovec_t name = h2o_strdup(&req->pool, answer->bytes + o[0], o[1]);
                    h2o_iovec_t value = h2o_strdup(&req->pool, answer->bytes + o[2], o[3]);
                    h2o_add_header_by_str(&req->pool, &req->res.headers, name.base, name.len, 1, NULL, value.base,
                                          value.len);
                }
                req->res.content_length = answer->body_length;
                h2o_send_inline(req, answer->body, answer->body_length);
            }
            pb_http_ticket_release(answer->ticket);
        }
        free(answer);
    }
}

/// Answers a request from any thread: status, lowercase header names and values, and the body (all copied).
static inline void pb_http_respond(pb_http_server_t *server, pb_http_ticket_t *ticket, int status,
                                   const char *const *names, const char *const *values, size_t header_count,
                                   const void *body, size_t body_length) {
    size_t text = 0;
    for (size_t i = 0; i < header_count; i++) text += strlen(names[i]) + strlen(values[i]);
    pb_http_answer_t *answer = (pb_http_answer_t *)malloc(sizeof(pb_http_answer_t) + header_count * 4 * sizeof(size_t) +
                                                          text + body_length + 1);
    if (answer == NULL) abort();
    memset(&answer->super, 0, sizeof(answer->super));
    answer->ticket = ticket;
    answer->status = status;
    answer->header_count = header_count;
    answer->body_length = body_length;
    answer->offsets = (size_t *)(answer + 1);
    answer->bytes = (char *)(answer->offsets + header_count * 4);
    size_t at = 0;
    for (size_t i = 0; i < header_count; i++) {
        size_t name = strlen(names[i]), value = strlen(values[i]);
        memcpy(answer->bytes + at, names[i], name);
        answer->offsets[i * 4] = at;
        answer->offsets[i * 4 + 1] = name;
        at += name;
        memcpy(answer->bytes + at, values[i], value);
        answer->offsets[i * 4 + 2] = at;
        answer->offsets[i * 4 + 3] = value;
        at += value;
    }
    answer->body = answer->bytes + at;
    if (body_length > 0) memcpy(answer->body, body, body_length);
    h2o_multithread_send_message(&server->receiver, &answer->super);
}

/// The connection record h2o's socket carries for a request (NULL if the socket is not one the server accepted).
static inline void pb_http_connection_closed(void *data);
static inline pb_http_connection_t *pb_http_connection_of(h2o_req_t *req) {
    h2o_socket_t *sock = req->conn->callbacks->get_socket != NULL ? req->conn->callbacks->get_socket(req->conn) : NULL;
    if (sock == NULL || sock->on_close.cb != pb_http_connection_closed) return NULL;
    return (pb_http_connection_t *)sock->on_close.data;
}

static inline int pb_http_on_req(h2o_handler_t *self, h2o_req_t *req) {
    pb_http_server_t *server = ((pb_http_handler_t *)self)->server;
    pb_http_connection_t *connection = pb_http_connection_of(req);
    if (connection != NULL && connection->refused) {
        // Shut down already: what is still parsed from its buffer gets no handler.
        req->res.status = 503;
        req->res.reason = pb_http_reason(503);
        h2o_send_inline(req, NULL, 0);
        return 0;
    }
    pb_http_ticket_t *ticket = (pb_http_ticket_t *)malloc(sizeof(pb_http_ticket_t));
    if (ticket == NULL) return -1;
    ticket->req = req;
    ticket->connection = connection;
    ticket->answered = 0;
    atomic_init(&ticket->gone, 0);
    atomic_init(&ticket->references, 2);
    if (connection != NULL) connection->references++;
    pb_http_ticket_t **slot = (pb_http_ticket_t **)h2o_mem_alloc_shared(&req->pool, sizeof(*slot), pb_http_ticket_request_gone);
    *slot = ticket;
    server->on_request(server->callback_context, ticket, req);
    return 0;
}

static inline void pb_http_accept_pause(pb_http_server_t *server) {
    if (server->accept_paused || server->listener == NULL) return;
    server->accept_paused = 1;
    h2o_socket_read_stop(server->listener);
}

static inline void pb_http_on_accept(h2o_socket_t *listener, const char *error);

static inline void pb_http_accept_resume(pb_http_server_t *server) {
    if (!server->accept_paused || server->listener == NULL || atomic_load(&server->stopping)) return;
    if (server->connections >= server->max_connections) return;
    if (h2o_timeout_is_linked(&server->accept_retry_entry)) return;
    server->accept_paused = 0;
    h2o_socket_read_start(server->listener, pb_http_on_accept);
}

static inline void pb_http_accept_retry(h2o_timeout_entry_t *entry) {
    pb_http_server_t *server = H2O_STRUCT_FROM_MEMBER(pb_http_server_t, accept_retry_entry, entry);
    pb_http_accept_resume(server);
}

/// h2o closed a connection's socket: one fewer counts against the cap.
static inline void pb_http_connection_closed(void *data) {
    pb_http_connection_t *connection = (pb_http_connection_t *)data;
    pb_http_server_t *server = connection->server;
    connection->fd = -1;
    server->connections--;
    atomic_store(&server->open_connections, server->connections);
    pb_http_connection_release(connection);
    pb_http_accept_resume(server);
}

static inline void pb_http_on_accept(h2o_socket_t *listener, const char *error) {
    if (error != NULL) return;
    pb_http_server_t *server = (pb_http_server_t *)listener->data;
    for (int i = 0; i < 64; i++) {
        if (server->connections >= server->max_connections) {
            // At the cap: leave the rest in the backlog (not accept-and-close, which a client would retry at
            // once) until a connection closes.
            pb_http_accept_pause(server);
            return;
        }
        errno = 0;
        h2o_socket_t *sock = h2o_evloop_socket_accept(listener);
        if (sock == NULL) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                // Out of descriptors: the listener stays readable, so reading on would spin a core. Rest.
                atomic_fetch_add(&server->accept_failures, 1);
                pb_http_accept_pause(server);
                h2o_timeout_link(server->loop, &server->accept_retry, &server->accept_retry_entry);
            }
            return;
        }
        pb_http_connection_t *connection = (pb_http_connection_t *)calloc(1, sizeof(pb_http_connection_t));
        if (connection == NULL) {
            h2o_socket_close(sock);
            return;
        }
        connection->server = server;
        connection->references = 1;
        connection->fd = h2o_socket_get_fd(sock);
        sock->on_close.cb = pb_http_connection_closed;
        sock->on_close.data = connection;
        server->connections++;
        atomic_store(&server->open_connections, server->connections);
        h2o_accept(&server->accept, sock);
    }
}

/// The OpenSSL error queue as text, for a failed TLS setup.
static inline void pb_http_ssl_error(char *buffer, size_t size) {
    unsigned long code = ERR_get_error();
    if (code == 0) snprintf(buffer, size, "unknown TLS error");
    else ERR_error_string_n(code, buffer, size);
    ERR_clear_error();
}

/// Creates a server listening on address:port (port 0 picks one; read server->port). cert_file and key_file
/// (PEM) turn on TLS with ALPN h2 and http/1.1; without them it serves HTTP/1.1 and HTTP/2 with prior knowledge
/// (h2c). Timeouts are in milliseconds. Returns NULL and fills error on failure.
static inline pb_http_server_t *pb_http_server_create(const char *address, int port, const char *cert_file,
                                                      const char *key_file, size_t max_body, uint64_t request_timeout,
                                                      uint64_t idle_timeout, int max_connections,
                                                      uint64_t max_cancelled, pb_http_request_cb on_request,
                                                      void *callback_context, char *error, size_t error_size) {
    pb_http_server_t *server = (pb_http_server_t *)calloc(1, sizeof(pb_http_server_t));
    if (server == NULL) { snprintf(error, error_size, "out of memory"); return NULL; }
    server->on_request = on_request;
    server->callback_context = callback_context;
    server->max_connections = max_connections > 0 ? max_connections : 1;
    server->max_cancelled = max_cancelled;
    h2o_config_init(&server->config);
    server->config.max_request_entity_size = max_body;
    server->config.http1.req_timeout = request_timeout;
    server->config.http2.idle_timeout = idle_timeout;
    server->config.handshake_timeout = request_timeout;
    server->config.server_name = h2o_iovec_init(H2O_STRLIT("pushbutton"));
    h2o_hostconf_t *host = h2o_config_register_host(&server->config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    h2o_pathconf_t *path = h2o_config_register_path(host, "/", 0);
    pb_http_handler_t *handler = (pb_http_handler_t *)h2o_create_handler(path, sizeof(pb_http_handler_t));
    handler->super.on_req = pb_http_on_req;
    handler->server = server;

    if (cert_file != NULL && key_file != NULL) {
        SSL_CTX *ssl = SSL_CTX_new(TLS_server_method());
        SSL_CTX_set_min_proto_version(ssl, TLS1_2_VERSION);
        SSL_CTX_set_options(ssl, SSL_OP_NO_COMPRESSION);
        if (SSL_CTX_use_certificate_chain_file(ssl, cert_file) != 1) {
            pb_http_ssl_error(error, error_size);
            SSL_CTX_free(ssl);
            free(server);
            return NULL;
        }
        if (SSL_CTX_use_PrivateKey_file(ssl, key_file, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ssl) != 1) {
            pb_http_ssl_error(error, error_size);
            SSL_CTX_free(ssl);
            free(server);
            return NULL;
        }
        h2o_ssl_register_alpn_protocols(ssl, h2o_http2_alpn_protocols);
        server->ssl = ssl;
    }

    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { snprintf(error, error_size, "socket: %s", strerror(errno)); free(server); return NULL; }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, address, &addr.sin_addr) != 1) {
        snprintf(error, error_size, "'%s' is not an IPv4 address", address);
        close(fd);
        free(server);
        return NULL;
    }
    if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(fd, 1024) != 0) {
        snprintf(error, error_size, "cannot listen on %s:%d: %s", address, port, strerror(errno));
        close(fd);
        free(server);
        return NULL;
    }
    socklen_t length = sizeof(addr);
    getsockname(fd, (struct sockaddr *)&addr, &length);
    server->port = ntohs(addr.sin_port);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    server->listen_fd = fd;
    return server;
}

/// Makes the loop, its context, the answers' queue and the listener: on the thread that will run the loop
/// (pb_http_server_run), before anything else touches the server. h2o keeps its socket buffers' prototype per
/// thread (`__thread h2o_socket_buffer_prototype`): a socket created on another thread (the context's and the
/// answers' queues read an eventfd through one) has its empty input buffer inside that thread's storage, takes
/// and returns its buffers through that thread's free list from the loop's thread, and reads freed memory once
/// that thread has ended: the test process crashed in the loop's read and in malloc (issue 31).
static inline void pb_http_server_prepare_loop(pb_http_server_t *server) {
    server->loop = h2o_evloop_create();
    h2o_context_init(&server->context, server->loop, &server->config);
    server->accept.ctx = &server->context;
    server->accept.hosts = server->config.hosts;
    server->accept.ssl_ctx = server->ssl;
    server->queue = h2o_multithread_create_queue(server->loop);
    h2o_multithread_register_receiver(server->queue, &server->receiver, pb_http_deliver);
    server->listener = h2o_evloop_socket_create(server->loop, server->listen_fd, H2O_SOCKET_FLAG_DONT_READ);
    server->listener->data = server;
    h2o_timeout_init(server->loop, &server->accept_retry, 100);
    server->accept_retry_entry.cb = pb_http_accept_retry;
    h2o_socket_read_start(server->listener, pb_http_on_accept);
}

/// Runs the loop on the calling thread (the one that called pb_http_server_prepare_loop) until
/// pb_http_server_stop; then stops accepting.
static inline void pb_http_server_run(pb_http_server_t *server) {
    while (!atomic_load(&server->stopping)) h2o_evloop_run(server->loop, 1000);
    if (h2o_timeout_is_linked(&server->accept_retry_entry)) h2o_timeout_unlink(&server->accept_retry_entry);
    if (!server->accept_paused) h2o_socket_read_stop(server->listener);
    h2o_socket_close(server->listener);
    server->listener = NULL;
    // Let answers already queued go out, and the listener's close complete.
    for (int i = 0; i < 5; i++) h2o_evloop_run(server->loop, 10);
}

/// Asks the loop to stop (from any thread); it wakes through the message queue.
static inline void pb_http_server_stop(pb_http_server_t *server) {
    atomic_store(&server->stopping, 1);
    pb_http_answer_t *wake = (pb_http_answer_t *)calloc(1, sizeof(pb_http_answer_t));
    if (wake == NULL) abort();
    h2o_multithread_send_message(&server->receiver, &wake->super);
}

static inline int pb_http_server_port(const pb_http_server_t *server) { return server->port; }

/// Counters of the defences (any thread): connections shut down for cancelling too many requests, accepts
/// that failed for want of descriptors, requests whose stream was gone before their answer, connections open.
static inline unsigned long pb_http_server_refused_connections(pb_http_server_t *server) {
    return atomic_load(&server->refused_connections);
}
static inline unsigned long pb_http_server_accept_failures(pb_http_server_t *server) {
    return atomic_load(&server->accept_failures);
}
static inline unsigned long pb_http_server_cancelled_requests(pb_http_server_t *server) {
    return atomic_load(&server->cancelled_requests);
}
static inline int pb_http_server_open_connections(pb_http_server_t *server) {
    return atomic_load(&server->open_connections);
}


/// The number of request headers, and one of them (name is lowercase).
static inline size_t pb_http_header_count(const h2o_req_t *req) { return req->headers.size; }
static inline h2o_iovec_t pb_http_header_name(const h2o_req_t *req, size_t i) { return *req->headers.entries[i].name; }
static inline h2o_iovec_t pb_http_header_value(const h2o_req_t *req, size_t i) { return req->headers.entries[i].value; }
static inline h2o_iovec_t pb_http_method(const h2o_req_t *req) { return req->input.method; }
static inline h2o_iovec_t pb_http_path(const h2o_req_t *req) { return req->input.path; }
static inline h2o_iovec_t pb_http_entity(const h2o_req_t *req) { return req->entity; }
static inline int pb_http_version(const h2o_req_t *req) { return req->version; }
// The authority the client asked for: HTTP/1's Host header or HTTP/2's :authority (h2o keeps both here).
static inline h2o_iovec_t pb_http_authority(const h2o_req_t *req) { return req->input.authority; }

// The client's address as text (IPv4 or IPv6) into `buffer`; 0 on success, -1 when the connection has none.
static inline int pb_http_peer(h2o_req_t *req, char *buffer, socklen_t size) {
    struct sockaddr_storage address;
    if (req->conn == NULL || req->conn->callbacks->get_peername == NULL) return -1;
    if (req->conn->callbacks->get_peername(req->conn, (struct sockaddr *)&address) == 0) return -1;
    const void *raw = NULL;
    if (address.ss_family == AF_INET) raw = &((struct sockaddr_in *)&address)->sin_addr;
    else if (address.ss_family == AF_INET6) raw = &((struct sockaddr_in6 *)&address)->sin6_addr;
    else return -1;
    return inet_ntop(address.ss_family, raw, buffer, size) == NULL ? -1 : 0;
}

// glibc's malloc gives busy threads heaps of their own (up to 8 per core), each keeping freed memory: the
// server caps them (mallopt is in <malloc.h>, which Swift's Glibc module does not bring).
static inline void pb_limit_malloc_arenas(int count) { mallopt(M_ARENA_MAX, count); }

// The calling thread's name as the kernel keeps it (at most 15 bytes), for profiles and `top -H`: set
// directly, since Foundation's Thread.name did not always reach the kernel on Linux.
int pthread_setname_np(pthread_t thread, const char *name);
int pthread_getname_np(pthread_t thread, char *name, size_t size);
static inline void pb_thread_set_name(const char *name) { pthread_setname_np(pthread_self(), name); }
static inline void pb_thread_name(char *buffer, size_t size) {
    if (pthread_getname_np(pthread_self(), buffer, size) != 0 && size > 0) buffer[0] = 0;
}

#endif
