#!/usr/bin/env python3
"""Open-loop load for Benchmarks/gateway-latency.sh: POSTs single notifications at a fixed rate, each at its
planned instant whether or not the earlier ones were answered (a stall is counted, not hidden: no coordinated
omission), over keep-alive HTTP/1.1 connections (a new one when every open one is busy), round-robin over
the gateways given.

  open-loop-post.py RATE SECONDS SECRET TOKEN_PREFIX OUT URL [URL...]

Writes one line per request to OUT: `token planned_us answered_us status` (microseconds since 1970, real-time
clock: the mock's --record file uses the same clock; planned_us is when the request was due to start); a request
with no answer has status 0 and a fifth field, what failed (the exception's class, e.g. ConnectionResetError)."""
import asyncio
import sys
import time
from urllib.parse import urlsplit


def now_us():
    return time.time_ns() // 1000


class Pool:
    def __init__(self, url, secret):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.secret = secret
        self.idle = []

    # The gateway closes an HTTP/1.1 connection idle for its request timeout (10 s); one kept here longer is
    # closed first, as HTTP clients do, not reused to find it closed (a request answered by EOF, status 0).
    IDLE_SECONDS = 5

    async def post(self, path, body):
        reader = writer = None
        while self.idle:
            reader, writer, used = self.idle.pop()
            if time.monotonic() - used < self.IDLE_SECONDS:
                break
            writer.close()
            reader = writer = None
        if writer is None:
            reader, writer = await asyncio.open_connection(self.host, self.port)
        data = body.encode()
        writer.write(
            (f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nAuthorization: Bearer {self.secret}\r\n"
             f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data)
        status_line = await reader.readline()
        length = 0
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        if length:
            await reader.readexactly(length)
        self.idle.append((reader, writer, time.monotonic()))
        return int(status_line.split()[1])


async def main():
    rate, seconds, secret, prefix, out = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    pools = [Pool(url, secret) for url in sys.argv[6:]]
    count = int(rate * seconds)
    lines = []

    async def one(index, planned):
        token = prefix + "0" * (64 - len(prefix) - 16) + "%016x" % index
        body = '{"to": {"tokens": ["%s"]}, "category": "message", "title": "Anna", "body": "Lunch?"}' % token
        failure = ""
        try:
            status = await pools[index % len(pools)].post("/v1/apps/chat/notifications", body)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
            status, failure = 0, " " + type(error).__name__
        lines.append(f"{token} {planned} {now_us()} {status}{failure}")

    loop = asyncio.get_running_loop()
    start_mono = loop.time()
    start_us = now_us()
    tasks = []
    for index in range(count):
        due = start_mono + index / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(index, start_us + int(index * 1_000_000 / rate))))
    await asyncio.gather(*tasks)
    with open(out, "w") as file:
        file.write("\n".join(lines) + "\n")


asyncio.run(main())
