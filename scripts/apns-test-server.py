#!/usr/bin/env python3
"""An APNs-like HTTP/2 (h2c) server for the sender's tests.

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and answers
POST /3/device/<token> according to the token's first four hex digits:
  dead  410 Unregistered, with a timestamp        bad0  400 BadDeviceToken
  5000  500 on an apns-id's first attempt, then 200
  4290  429 TooManyRequests twice per apns-id, then 200
  e4e4  403 ExpiredProviderToken until a different provider token is presented for that apns-id
  5555  never answers (the stream stalls)
  anything else: 200, echoing apns-id, with an apns-unique-id
A request without apns-topic gets 400 MissingTopic. With --goaway-after N, a connection sends GOAWAY
after its Nth stream and closes: later streams are lost and must be retried elsewhere. Every request is
appended to --log as JSON {"token", "apns_id", "authorization", "topic", "push_type"}. The server stops
itself after --max-seconds. With --tls-dir DIR it speaks TLS with ALPN h2, using a private CA and a
certificate for 127.0.0.1 it writes to DIR (ca.pem is what a client must trust), plus a client certificate
(client.pem, client.key) it accepts for certificate authentication; otherwise h2c.
"""
import argparse
import asyncio
import collections
import datetime
import ipaddress
import json
import os
import ssl
import sys

import h2.config
import h2.connection
import h2.events


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--goaway-after", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=120)
    parser.add_argument("--tls-dir")
    args = parser.parse_args()
    attempts = collections.Counter()
    first_token = {}
    log = open(args.log, "a", encoding="utf-8")

    def answer(headers, client):
        path = headers.get(":path", "")
        token = path.rsplit("/", 1)[-1]
        apns_id = headers.get("apns-id", "generated-id")
        authorization = headers.get("authorization", "")
        log.write(json.dumps({"token": token, "apns_id": apns_id, "authorization": authorization, "client": client,
                              "topic": headers.get("apns-topic"), "push_type": headers.get("apns-push-type")}) + "\n")
        log.flush()
        attempts[apns_id] += 1
        if headers.get(":method") != "POST":
            return 405, {"reason": "MethodNotAllowed"}
        if not path.startswith("/3/device/"):
            return 404, {"reason": "BadPath"}
        if not headers.get("apns-topic"):
            return 400, {"reason": "MissingTopic"}
        kind = token[:4]
        if kind == "dead":
            return 410, {"reason": "Unregistered", "timestamp": 1700000000000}
        if kind == "bad0":
            return 400, {"reason": "BadDeviceToken"}
        if kind == "5000" and attempts[apns_id] == 1:
            return 500, {"reason": "InternalServerError"}
        if kind == "4290" and attempts[apns_id] <= 2:
            return 429, {"reason": "TooManyRequests"}
        if kind == "e4e4":
            first_token.setdefault(apns_id, authorization)
            if authorization == first_token[apns_id]:
                return 403, {"reason": "ExpiredProviderToken"}
        if kind == "5555":
            return None, None
        return 200, None

    async def serve(reader, writer):
        connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        connection.initiate_connection()
        writer.write(connection.data_to_send())
        requests = {}
        streams_seen = 0
        peer = writer.get_extra_info("peercert") or {}
        client = next((value for entry in peer.get("subject", ()) for key, value in entry if key == "commonName"), None)
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
                        streams_seen += 1
                        if args.goaway_after and streams_seen > args.goaway_after:
                            continue  # past the GOAWAY: never processed
                        status, body = answer(headers, client)
                        if status is None:
                            continue
                        response = [(":status", str(status)), ("apns-id", headers.get("apns-id", "generated-id"))]
                        if status == 200:
                            response.append(("apns-unique-id", "unique-" + headers.get("apns-id", "")[:8]))
                            connection.send_headers(event.stream_id, response, end_stream=True)
                        else:
                            payload = json.dumps(body).encode()
                            response.append(("content-type", "application/json"))
                            connection.send_headers(event.stream_id, response)
                            connection.send_data(event.stream_id, payload, end_stream=True)
                        if args.goaway_after and streams_seen == args.goaway_after:
                            connection.close_connection(last_stream_id=event.stream_id,
                                                        additional_data=b'{"reason":"Shutdown"}')
                writer.write(connection.data_to_send())
                await writer.drain()
                if args.goaway_after and streams_seen >= args.goaway_after and not requests:
                    break
        except (ConnectionError, h2.exceptions.ProtocolError):
            pass
        finally:
            writer.close()

    async def run():
        context = tls_context(args.tls_dir) if args.tls_dir else None
        server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=context)
        print(server.sockets[0].getsockname()[1], flush=True)
        async with server:
            try:
                await asyncio.wait_for(server.serve_forever(), args.max_seconds)
            except asyncio.TimeoutError:
                pass

    asyncio.run(run())


def tls_context(directory):
    """A private CA and a certificate for 127.0.0.1 signed by it, written to `directory`."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    os.makedirs(directory, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Pushbutton test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                        x509.DNSName("localhost")]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "com.example.chatter")]))
              .issuer_name(ca_name).public_key(client_key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
              .sign(ca_key, hashes.SHA256()))
    paths = {name: os.path.join(directory, name)
             for name in ("ca.pem", "server.pem", "server.key", "client.pem", "client.key")}
    with open(paths["client.pem"], "wb") as file:
        file.write(client.public_bytes(serialization.Encoding.PEM))
    with open(paths["client.key"], "wb") as file:
        file.write(client_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    with open(paths["ca.pem"], "wb") as file:
        file.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths["server.pem"], "wb") as file:
        file.write(leaf.public_bytes(serialization.Encoding.PEM))
    with open(paths["server.key"], "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(paths["server.pem"], paths["server.key"])
    context.load_verify_locations(paths["ca.pem"])
    context.verify_mode = ssl.CERT_OPTIONAL
    context.set_alpn_protocols(["h2"])
    return context


if __name__ == "__main__":
    sys.exit(main())
