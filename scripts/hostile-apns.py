#!/usr/bin/env python3
"""A hostile APNs (h2c) for the hardening tests: every answer is one a real server could send by mistake
or on purpose, and the sender must turn each into one definite, printable result without crashing.

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and answers POST
/3/device/<token> by the token's first four hex digits:
  1000  410 Unregistered, timestamp 1e300          1001  410, timestamp -1
  1002  410, timestamp 99999999999999999999999999   1003  410, timestamp "soon" (a string)
  1004  400, a reason with an escape sequence, CR and LF in it
  1005  200 with an apns-unique-id holding an escape sequence
  1006  400 with a 1 MiB body                        1007  RST_STREAM instead of an answer
  1008  ":status" 99999999999999999999               1009  ":status" -5
  1010  400, body not JSON, invalid UTF-8            1011  410, timestamp 1.7976931348623157e308
  anything else: 200
The server stops itself after --max-seconds.
"""
import argparse
import asyncio
import json

import h2.config
import h2.connection
import h2.events
import h2.exceptions


def answer(token):
    kind = token[:4]
    if kind == "1000":
        return "410", b'{"reason":"Unregistered","timestamp":1e300}', []
    if kind == "1001":
        return "410", b'{"reason":"Unregistered","timestamp":-1}', []
    if kind == "1002":
        return "410", b'{"reason":"Unregistered","timestamp":99999999999999999999999999}', []
    if kind == "1003":
        return "410", b'{"reason":"Unregistered","timestamp":"soon"}', []
    if kind == "1004":
        return "400", json.dumps({"reason": "Bad\x1b[31mRed\r\nforged: line"}).encode(), []
    if kind == "1005":
        return "200", b"", [("apns-unique-id", "u\x1b[2Jclear")]
    if kind == "1006":
        return "400", b'{"reason":"' + b"A" * (1 << 20) + b'"}', []
    if kind == "1007":
        return None, None, []
    if kind == "1008":
        return "99999999999999999999", b"", []
    if kind == "1009":
        return "-5", b"", []
    if kind == "1010":
        return "400", b"\xff\xfe not json", []
    if kind == "1011":
        return "410", b'{"reason":"Unregistered","timestamp":1.7976931348623157e308}', []
    return "200", b"", []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-seconds", type=float, default=60)
    args = parser.parse_args()

    async def serve(reader, writer):
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8",
                                           validate_outbound_headers=False, normalize_outbound_headers=False)
        connection = h2.connection.H2Connection(config=config)
        connection.initiate_connection()
        writer.write(connection.data_to_send())
        requests = {}
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                for event in connection.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        requests[event.stream_id] = dict(event.headers)
                    elif isinstance(event, h2.events.DataReceived):
                        connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        headers = requests.pop(event.stream_id, {})
                        token = headers.get(":path", "").rsplit("/", 1)[-1]
                        status, body, extra = answer(token)
                        if status is None:
                            connection.reset_stream(event.stream_id)
                            continue
                        response = [(":status", status), ("apns-id", headers.get("apns-id", "x"))] + extra
                        connection.send_headers(event.stream_id, response, end_stream=not body)
                        if body:
                            sent = 0
                            while sent < len(body):  # within the flow-control window, as h2 requires
                                room = min(connection.local_flow_control_window(event.stream_id),
                                           connection.max_outbound_frame_size, len(body) - sent)
                                if room <= 0:
                                    writer.write(connection.data_to_send())
                                    await writer.drain()
                                    more = await reader.read(65536)
                                    if not more:
                                        return
                                    for extra_event in connection.receive_data(more):
                                        if isinstance(extra_event, h2.events.StreamReset):
                                            sent = len(body)
                                    continue
                                connection.send_data(event.stream_id, body[sent:sent + room],
                                                     end_stream=sent + room == len(body))
                                sent += room
                writer.write(connection.data_to_send())
                await writer.drain()
        except (ConnectionError, h2.exceptions.H2Error):
            pass
        finally:
            writer.close()

    async def run():
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        print(server.sockets[0].getsockname()[1], flush=True)
        async with server:
            try:
                await asyncio.wait_for(server.serve_forever(), args.max_seconds)
            except asyncio.TimeoutError:
                pass

    asyncio.run(run())


if __name__ == "__main__":
    main()
