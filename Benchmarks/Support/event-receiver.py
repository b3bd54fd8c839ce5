#!/usr/bin/env python3
"""The event stream's receiver for Benchmarks/gateway-throughput.sh (GATEWAY_EVENTS=1): an HTTP/1.1 server on
127.0.0.1 (keep-alive) that accepts the gateway's signed batches `{"events": [...]}` as a backend would, and
counts them.

  event-receiver.py SECRET PORT_FILE

Writes the port it listens on to PORT_FILE. Each POST is checked as a receiver checks it: the
`X-Pushbutton-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>." and the body>`, the secret's
UTF-8 bytes as key) and a JSON body with an `events` array whose events carry an `id` and a `type`; a good batch
is answered 200, a bad one 400 (and counted). `GET /counts` answers, as JSON: the batches, the bad ones, events
received, distinct ids, repeats (an id seen before: a batch posted again), events and distinct ids by type, the last
`campaign.finished` event, and when the last event came (seconds since 1970)."""
import hashlib
import hmac
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = sys.argv[1].encode()
lock = threading.Lock()
ids = set()
counts = {"batches": 0, "bad_batches": 0, "events": 0, "distinct": 0, "repeats": 0, "by_type": {},
          "distinct_by_type": {}, "finished": None, "last_at": None, "bad_reason": None}


def signed(header, body):
    parts = dict(part.strip().split("=", 1) for part in header.split(",") if "=" in part)
    if "t" not in parts or "v1" not in parts:
        return False
    expected = hmac.new(SECRET, parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the gateway's client expects of a backend

    def setup(self):
        super().setup()
        # A 200's status line and headers may go out in two writes: without this, Nagle's algorithm and the
        # client's delayed acknowledgements could hold each answer ~40 ms (see scripts/tap-receiver.py).
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with lock:
            body = json.dumps(counts).encode()
        self.answer(200, body)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        reason = None
        events = []
        if not signed(self.headers.get("X-Pushbutton-Signature", ""), body):
            reason = "a batch without a valid X-Pushbutton-Signature"
        else:
            try:
                events = json.loads(body)["events"]
                if not all(isinstance(e.get("id"), str) and isinstance(e.get("type"), str) for e in events):
                    reason = "an event without a string id or type"
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                reason = "a body that is not {\"events\": [...]}: %s" % error
        with lock:
            if reason:
                counts["bad_batches"] += 1
                counts["bad_reason"] = reason
            else:
                counts["batches"] += 1
                for event in events:
                    counts["events"] += 1
                    kind = event["type"]
                    counts["by_type"][kind] = counts["by_type"].get(kind, 0) + 1
                    if event["id"] in ids:
                        counts["repeats"] += 1
                    else:
                        ids.add(event["id"])
                        counts["distinct_by_type"][kind] = counts["distinct_by_type"].get(kind, 0) + 1
                    if kind == "campaign.finished":
                        counts["finished"] = event
                counts["distinct"] = len(ids)
                counts["last_at"] = time.time()
        self.answer(400 if reason else 200)

    def log_message(self, format, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[2] + ".tmp", "w") as out:
    out.write("%d\n" % server.server_address[1])
# Renamed into place, so the script never reads a half-written port.
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
