"""Tests of scripts/delay_relay.py (run by make chaos: python3 -m unittest scripts/test_delay_relay.py): bytes pass
intact and in order both ways, nothing is passed on sooner than the delay, a half-close and a refused target end
the connection. Only lower bounds on time: a relay cannot be early, a loaded machine can make it late."""

import asyncio
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import delay_relay  # noqa: E402


async def echo(reader, writer):
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()
    writer.close()


async def echo_through_relay(delay):
    """An echo server, a relay in front of it and a client connection: (client, figures, closers)."""
    target = await asyncio.start_server(echo, "127.0.0.1", 0)
    figures = delay_relay.Figures()
    relay = await delay_relay.serve("127.0.0.1", 0, target.sockets[0].getsockname()[:2], delay, figures)
    reader, writer = await asyncio.open_connection(*relay.sockets[0].getsockname()[:2])
    return reader, writer, figures, (target, relay)


async def close(writer, servers, figures):
    """Closes the client and waits until the relay has closed its connections (so none outlives the test)."""
    writer.close()
    await writer.wait_closed()
    for _ in range(6000):
        if figures.open == 0:
            break
        await asyncio.sleep(0.01)
    for server in servers:
        server.close()
        await server.wait_closed()


class DelayRelayTests(unittest.IsolatedAsyncioTestCase):
    async def test_bytes_pass_intact_and_in_order_both_ways(self):
        reader, writer, figures, servers = await echo_through_relay(0.001)
        sent = os.urandom(3_000_000)
        writer.write(sent)
        received = await asyncio.wait_for(reader.readexactly(len(sent)), 60)
        self.assertEqual(received, sent)
        self.assertEqual(figures.connections, 1)
        self.assertEqual(figures.bytes, 2 * len(sent))
        await close(writer, servers, figures)

    async def test_no_chunk_is_passed_on_sooner_than_the_delay(self):
        delay = 0.05
        reader, writer, figures, servers = await echo_through_relay(delay)
        loop = asyncio.get_running_loop()
        for _ in range(3):
            started = loop.time()
            writer.write(b"x" * 100)
            await asyncio.wait_for(reader.readexactly(100), 60)
            self.assertGreaterEqual(loop.time() - started, 2 * delay)  # held once each way
        self.assertGreaterEqual(figures.hold_min, delay)
        await close(writer, servers, figures)

    async def test_a_half_close_reaches_the_target_and_its_close_comes_back(self):
        reader, writer, figures, servers = await echo_through_relay(0.001)
        writer.write(b"last words")
        writer.write_eof()
        self.assertEqual(await asyncio.wait_for(reader.read(), 60), b"last words")  # then EOF
        await close(writer, servers, figures)

    async def test_a_refused_target_closes_the_client(self):
        probe = await asyncio.start_server(echo, "127.0.0.1", 0)
        closed_port = probe.sockets[0].getsockname()[1]
        probe.close()
        await probe.wait_closed()
        figures = delay_relay.Figures()
        relay = await delay_relay.serve("127.0.0.1", 0, ("127.0.0.1", closed_port), 0.001, figures)
        reader, writer = await asyncio.open_connection(*relay.sockets[0].getsockname()[:2])
        self.assertEqual(await asyncio.wait_for(reader.read(), 60), b"")
        await close(writer, [relay], figures)


if __name__ == "__main__":
    unittest.main()
