#!/usr/bin/python3
"""Sends notifications with aioapns (Debian's python3-aioapns, a peer APNs client) to a local APNs stand-in.

Used by the mock's cross-check test and by Benchmarks/apns-throughput.sh. aioapns always connects to
Apple's host on port 443, so the host, port and trusted CA are patched in; nothing else is changed,
unless --fix-stream-limit is given (see fix_stream_limit below).
Prints one JSON object: {"sent", "ok", "failed", "reasons", "seconds", "rate", "max_open_streams"}.
"""
import argparse
import asyncio
import collections
import json
import logging
import ssl
import time
import uuid

from aioapns import APNs, NotificationRequest, PushType
from aioapns import common, connection

PAYLOAD = {
    "aps": {"alert": {"title": "New comment", "body": "Ana replied to your photo: \"Looks great!\""},
            "category": "comment", "sound": "default", "thread-id": "photo-42"},
    "pushbutton": {"v": 1, "buttons": {"like": {"action": "callback", "url": "https://api.example.com/like"}}},
}


def fix_stream_limit():
    """Corrects how aioapns (2.2 and 4.0) applies a raised SETTINGS_MAX_CONCURRENT_STREAMS.

    Its DynamicBoundedSemaphore.bound setter, when every permit is in use, calls release() once per new
    permit before it stores the new bound, and release() caps the count at the stored (old) bound, so
    the new permits vanish. APNs and the mock start a connection at 1 stream and raise it to 1000 after
    the first valid token: as shipped, aioapns then never has more than 2 or 3 streams open. Here the
    bound is stored first and the difference handed out to waiters.
    """
    def set_bound(self, new_bound):
        difference = new_bound - self._bound_value
        self._bound_value = new_bound
        self._value += difference
        for _ in range(max(difference, 0)):
            if self._value <= 0:
                break
            self._wake_up_next()

    common.DynamicBoundedSemaphore.bound = common.DynamicBoundedSemaphore.bound.setter(set_bound)


def count_open_streams():
    """Wraps the channel pool's acquire and release to record the most streams open at once."""
    state = {"open": 0, "max": 0}
    acquire, release = connection.ChannelPool.acquire, connection.ChannelPool.release

    async def counted_acquire(self):
        stream_id = await acquire(self)
        state["open"] += 1
        state["max"] = max(state["max"], state["open"])
        return stream_id

    def counted_release(self):
        state["open"] = max(state["open"] - 1, 0)
        release(self)

    connection.ChannelPool.acquire = counted_acquire
    connection.ChannelPool.release = counted_release
    return state


async def main(args):
    if args.fix_stream_limit:
        fix_stream_limit()
    streams = count_open_streams()
    connection.APNsProductionClientProtocol.APNS_SERVER = args.host
    connection.APNsTLSClientProtocol.APNS_PORT = args.port
    context = ssl.create_default_context(cafile=args.ca)
    client = APNs(key=args.key, key_id=args.key_id, team_id=args.team_id, topic=args.topic,
                  max_connections=args.connections, ssl_context=context)
    semaphore = asyncio.Semaphore(args.in_flight)
    reasons = collections.Counter()

    async def send(number):
        token = args.token or ("%064x" % (number + 1))
        request = NotificationRequest(device_token=token, message=PAYLOAD, notification_id=str(uuid.uuid4()),
                                      priority=10, push_type=PushType.ALERT)
        async with semaphore:
            response = await client.send_notification(request)
        reasons["ok" if response.is_successful else str(response.description)] += 1

    start = time.monotonic()
    await asyncio.gather(*(send(number) for number in range(args.count)))
    seconds = time.monotonic() - start
    ok = reasons.pop("ok", 0)
    print(json.dumps({"sent": args.count, "ok": ok, "failed": args.count - ok, "reasons": dict(reasons),
                      "seconds": round(seconds, 3), "rate": round(args.count / seconds, 1),
                      "max_open_streams": streams["max"]}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--key", required=True, help="the .p8 provider key")
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--connections", type=int, default=1)
    parser.add_argument("--in-flight", type=int, default=1000)
    parser.add_argument("--token", help="send every notification to this token")
    parser.add_argument("--fix-stream-limit", action="store_true",
                        help="apply a raised SETTINGS_MAX_CONCURRENT_STREAMS correctly (aioapns as shipped does not)")
    logging.disable(logging.CRITICAL)  # aioapns logs every rejection; the summary counts them
    asyncio.run(main(parser.parse_args()))
