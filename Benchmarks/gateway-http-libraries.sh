#!/usr/bin/env bash
# Why the gateway's HTTP server is h2o: the two Debian candidates, each serving a 2-byte "ok" from C, measured
# with wrk (HTTP/1.1, 2 threads, 32 connections) and, where the library speaks it, h2load (HTTP/2 h2c, 8
# connections x 32 streams). h2o answers through the same shim (Sources/CH2O/shim.h) the gateway uses.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${HTTP_SECONDS:-5}
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

cat >"$work/h2o-ok.c" <<'C'
#include "shim.h"
#include <stdio.h>
static pb_http_server_t *server;
static void on_request(void *context, pb_http_ticket_t *ticket, h2o_req_t *req) {
    const char *names[] = {"content-type"}, *values[] = {"text/plain"};
    pb_http_respond(server, ticket, 200, names, values, 1, "ok", 2);
}
int main(void) {
    char error[256];
    server = pb_http_server_create("127.0.0.1", 0, NULL, NULL, 1 << 20, 10000, 60000, on_request, NULL, error, sizeof error);
    if (!server) { fprintf(stderr, "%s\n", error); return 1; }
    printf("%d\n", pb_http_server_port(server));
    fflush(stdout);
    pb_http_server_run(server);
}
C
cat >"$work/mhd-ok.c" <<'C'
#include <microhttpd.h>
#include <stdio.h>
#include <unistd.h>
static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *size, void **state) {
    struct MHD_Response *response = MHD_create_response_from_buffer(2, "ok", MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "content-type", "text/plain");
    enum MHD_Result result = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return result;
}
int main(void) {
    // One event-loop thread (epoll), as h2o's: the fair comparison for a single loop.
    struct MHD_Daemon *daemon = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD, 0, NULL, NULL, &answer, NULL,
                                                 MHD_OPTION_CONNECTION_LIMIT, 1000, MHD_OPTION_END);
    if (!daemon) return 1;
    printf("%d\n", MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT)->port);
    fflush(stdout);
    pause();
}
C
cc -O2 -I Sources/CH2O -o "$work/h2o-ok" "$work/h2o-ok.c" -lh2o-evloop -lssl -lcrypto
cc -O2 -o "$work/mhd-ok" "$work/mhd-ok.c" -lmicrohttpd
start() { # (not in a $(…) subshell, so the cleanup knows the pid)
  "$work/$1" >"$work/$1.port" 2>"$work/$1.err" &
  pids+=($!)
  for _ in $(seq 50); do [ -s "$work/$1.port" ] && break; sleep 0.05; done
}
start h2o-ok
start mhd-ok
h2o_port=$(cat "$work/h2o-ok.port")
mhd_port=$(cat "$work/mhd-ok.port")
wrk_rate() { wrk -t 2 -c 32 -d "${seconds}s" "$1" | grep -oE 'Requests/sec: *[0-9.]+' | grep -oE '[0-9.]+$' | cut -d. -f1; }
h2o1=$(wrk_rate "http://127.0.0.1:$h2o_port/")
mhd1=$(wrk_rate "http://127.0.0.1:$mhd_port/")
h2o2=$(h2load -n 200000 -c 8 -m 32 "http://127.0.0.1:$h2o_port/" 2>&1 | grep -oE '[0-9.]+ req/s' | head -1 | cut -d. -f1)
mhd2=$(timeout 10 h2load -n 1000 -c 1 -m 1 "http://127.0.0.1:$mhd_port/" 2>&1 | grep -oE '[0-9]+ succeeded' | grep -oE '^[0-9]+' || true)
printf '\nHTTP server libraries, "ok" from C, one event-loop thread each (%s s per wrk run)\n' "$seconds"
printf '   %-44s %14s %22s\n' "library" "HTTP/1.1 req/s" "HTTP/2 (h2c) req/s"
printf '   %-44s %14s %22s\n' "h2o 2.2 (libh2o-evloop), through the shim" "$h2o1" "$h2o2"
printf '   %-44s %14s %22s\n' "libmicrohttpd 0.9 (epoll thread)" "$mhd1" "none (${mhd2:-0} of 1000 succeeded)"
printf '   h2o/microhttpd over HTTP/1.1: %.2f\n' "$(echo "$h2o1 / $mhd1" | bc -l)"
