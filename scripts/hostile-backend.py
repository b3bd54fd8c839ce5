#!/usr/bin/env python3
"""A hostile HTTP backend (or auth proxy) for the outbox's hardening tests.

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and answers by path:
  /redirect-302/...  302 Found to /landing (a client that follows turns the POST into a GET)
  /redirect-303/...  303 See Other to /landing
  /redirect-307/...  307 Temporary Redirect to /landing (a client that follows posts again)
  /redirect-308/...  308 Permanent Redirect to /landing
  /landing           200 for any method: what a redirect-following client would take as a delivery
  anything else      200
Every request is appended to --log as one JSON line {"method", "path", "key", "length"}. The server stops
itself after --max-seconds.
"""
import argparse
import http.server
import json
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--max-seconds", type=float, default=60)
    args = parser.parse_args()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *arguments):
            pass

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            with lock, open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps({"method": self.command, "path": self.path,
                                      "key": self.headers.get("Idempotency-Key"), "length": length}) + "\n")
            for code in (302, 303, 307, 308):
                if self.path.startswith("/redirect-%d" % code):
                    self.send_response(code)
                    self.send_header("Location", "/landing")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_POST = do_PUT = do_DELETE = handle_any

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    timer = threading.Timer(args.max_seconds, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
