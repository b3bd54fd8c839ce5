#!/usr/bin/env python3
"""A local backend for the outbox's tests and benchmarks.

Binds 127.0.0.1 on a free port and prints the port on the first line of stdout. Each POST is, at random
(seeded, so runs repeat): refused with 500 before being processed (--fail-rate), or processed and logged
but answered with 500, as when an acknowledgement is lost (--ack-loss-rate, which makes the client send it
again), or processed, logged and answered 200. Answers may be delayed (--max-delay-ms). Every processed
request is appended to --log as one JSON line {"key", "path", "body"}. The server stops itself after
--max-seconds, or when it receives POST /shutdown.
"""
import argparse
import http.server
import json
import random
import socket
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--fail-rate", type=float, default=0.0)
    parser.add_argument("--ack-loss-rate", type=float, default=0.0)
    parser.add_argument("--max-delay-ms", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=300)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    lock = threading.Lock()
    log = open(args.log, "a", encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            # Headers and body go out in two writes; without this, Nagle's algorithm and delayed
            # acknowledgements stall every response by about 40 ms.
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, *arguments):
            pass

        def answer(self, status):
            body = b"{}"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if self.path == "/shutdown":
                self.answer(200)
                threading.Thread(target=server.shutdown, daemon=True).start()
                return
            with lock:
                roll, delay = rng.random(), rng.random() * args.max_delay_ms / 1000
            time.sleep(delay)
            if roll < args.fail_rate:
                self.answer(500)
                return
            with lock:
                log.write(json.dumps({
                    "key": self.headers.get("Idempotency-Key"), "path": self.path,
                    "body": body.decode("utf-8", "replace"),
                }) + "\n")
                log.flush()
            self.answer(500 if roll < args.fail_rate + args.ack_loss_rate else 200)

        do_PUT = do_POST
        do_PATCH = do_POST
        do_DELETE = do_POST

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    timer = threading.Timer(args.max_seconds, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever()
    log.close()


if __name__ == "__main__":
    sys.exit(main())
