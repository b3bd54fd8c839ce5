#!/usr/bin/env python3
"""A TCP relay that holds each chunk it reads for DELAY_MS before writing it on, in both directions.

make chaos uses it for latency between "hosts" (1 ms to PostgreSQL, 30 ms to APNs), since this machine's kernel
has no sch_netem. It delays at the application layer, per chunk read (whatever one recv() returned), not per
packet: a chunk is one or more TCP segments, so a burst arriving together is held together, and the hold is at
least DELAY_MS (more when the event loop is late; the measured holds are printed at exit). Bytes are never
reordered and the latency does not cap throughput (reading goes on while earlier chunks wait), as on a long link.

usage: delay_relay.py LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS
Prints {"port": N} on stdout once listening (LISTEN_PORT 0 picks one); on SIGTERM prints one line of figures
(connections, chunks, bytes, hold mean/max) on stderr and exits.
"""
import asyncio
import json
import signal
import sys

QUEUE_CHUNKS = 256  # per direction: a full queue stops reading, so TCP's flow control reaches the sender


class Figures:
    def __init__(self):
        self.connections = 0
        self.open = 0  # connections being relayed now
        self.chunks = 0
        self.bytes = 0
        self.hold_total = 0.0
        self.hold_max = 0.0
        self.hold_min = None

    def held(self, seconds, size):
        self.chunks += 1
        self.bytes += size
        self.hold_total += seconds
        self.hold_max = max(self.hold_max, seconds)
        self.hold_min = seconds if self.hold_min is None else min(self.hold_min, seconds)

    def line(self, name, delay):
        mean = self.hold_total / self.chunks * 1000 if self.chunks else 0.0
        return (f"{name}: {delay * 1000:g} ms per chunk: {self.connections} connection(s), {self.chunks} chunks, "
                f"{self.bytes} bytes, hold mean {mean:.2f} ms, max {self.hold_max * 1000:.1f} ms")


async def pipe(reader, writer, delay, figures):
    """Copies reader to writer, each chunk written no sooner than `delay` after it was read."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue(maxsize=QUEUE_CHUNKS)

    async def read():
        while True:
            try:
                data = await reader.read(65536)
            except (ConnectionError, OSError):
                data = b""
            await queue.put((loop.time(), data))
            if not data:
                return

    async def write():
        while True:
            read_at, data = await queue.get()
            wait = read_at + delay - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            figures.held(loop.time() - read_at, len(data))
            writer.write(data)
            await writer.drain()

    reading = asyncio.ensure_future(read())
    try:
        await write()
    finally:
        reading.cancel()


async def relay(client_reader, client_writer, target, delay, figures):
    figures.connections += 1
    figures.open += 1
    try:
        await relay_connection(client_reader, client_writer, target, delay, figures)
    finally:
        figures.open -= 1


async def relay_connection(client_reader, client_writer, target, delay, figures):
    try:
        server_reader, server_writer = await asyncio.open_connection(*target)
    except OSError:
        client_writer.close()
        await client_writer.wait_closed()
        return
    directions = [asyncio.ensure_future(pipe(client_reader, server_writer, delay, figures)),
                  asyncio.ensure_future(pipe(server_reader, client_writer, delay, figures))]
    # Either side failing ends the connection; a clean half-close lets the other direction finish.
    try:
        await asyncio.wait(directions, return_when=asyncio.FIRST_EXCEPTION)
    except asyncio.CancelledError:
        pass  # the relay is stopping: close quietly
    for task in directions:
        task.cancel()
    await asyncio.gather(*directions, return_exceptions=True)
    for w in (client_writer, server_writer):
        w.close()
    for w in (client_writer, server_writer):
        try:
            await w.wait_closed()
        except (ConnectionError, OSError):
            pass


async def serve(listen_host, listen_port, target, delay, figures):
    """Starts relaying connections to (listen_host, listen_port) on to target; returns the asyncio server."""
    return await asyncio.start_server(
        lambda r, w: relay(r, w, target, delay, figures), listen_host, listen_port)


async def main():
    listen_host, listen_port, target_host, target_port, delay_ms = sys.argv[1:6]
    delay = float(delay_ms) / 1000
    figures = Figures()
    server = await serve(listen_host, int(listen_port), (target_host, int(target_port)), delay, figures)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    name = f"relay {listen_host}:{server.sockets[0].getsockname()[1]} -> {target_host}:{target_port}"
    print(figures.line(name, delay), file=sys.stderr, flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__.strip().split("\n\n")[2])
    asyncio.run(main())
