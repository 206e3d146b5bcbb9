"""Cadre's payload codec in Python: AES-256-GCM by key id, as docs/protocol.md specifies it.

Needs the `cryptography` package. Works on payloads in the JSON form of Temporal's remote codec
protocol ({"metadata": {name: base64}, "data": base64}), which the Temporal HTTP API and
`temporal` CLI also print; with the `temporalio` SDK, wrap `encode_payload`/`decode_payload` in a
`temporalio.converter.PayloadCodec`.

Run as a filter: `CADRE_PAYLOAD_KEYS=... python3 cadre_codec.py encode|decode < payloads.json`.
"""

import base64
import json
import os
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

ENCODING = b"binary/encrypted"
KEY_ID_METADATA = "encryption-key-id"
NONCE_BYTES = 12


def parse_keys(text: str) -> list[tuple[str, bytes]]:
    """`id:base64key` pairs separated by commas, the first one encrypting; each key is 32 bytes."""
    keys = []
    for entry in filter(None, (each.strip() for each in text.split(","))):
        key_id, _, encoded = entry.partition(":")
        key = base64.b64decode(encoded, validate=True)
        if not key_id or len(key) != 32:
            raise ValueError(f"entry {len(keys) + 1} of the keys is not id:base64 of 32 bytes")
        keys.append((key_id, key))
    if not keys:
        raise ValueError("no payload key given")
    return keys


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, value: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def _read_fields(data: bytes):
    """(field number, bytes) of each length-delimited field of a protobuf message."""
    position = 0
    while position < len(data):
        tag, shift = 0, 0
        while True:
            byte = data[position]
            position += 1
            tag |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if tag & 7 != 2:
            raise ValueError("a Payload holds only length-delimited fields")
        length, shift = 0, 0
        while True:
            byte = data[position]
            position += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        yield tag >> 3, data[position : position + length]
        position += length


def payload_to_proto(metadata: dict[str, bytes], data: bytes) -> bytes:
    """temporal.api.common.v1.Payload: map<string, bytes> metadata = 1; bytes data = 2."""
    entries = b"".join(_field(1, _field(1, name.encode()) + _field(2, value)) for name, value in metadata.items())
    return entries + (_field(2, data) if data else b"")


def payload_from_proto(message: bytes) -> tuple[dict[str, bytes], bytes]:
    metadata, data = {}, b""
    for number, value in _read_fields(message):
        if number == 1:
            entry = dict(_read_fields(value))
            metadata[entry.get(1, b"").decode()] = entry.get(2, b"")
        elif number == 2:
            data = value
    return metadata, data


def encode_payload(keys: list[tuple[str, bytes]], metadata: dict[str, bytes], data: bytes):
    """Encrypts one payload under the first key: returns the encrypted payload's metadata and data."""
    key_id, key = keys[0]
    nonce = os.urandom(NONCE_BYTES)
    sealed = AESGCM(key).encrypt(nonce, payload_to_proto(metadata, data), None)  # ciphertext || 16-byte tag
    return {"encoding": ENCODING, KEY_ID_METADATA: key_id.encode()}, nonce + sealed


def decode_payload(keys: list[tuple[str, bytes]], metadata: dict[str, bytes], data: bytes):
    """Decrypts one payload with the key it names; refuses plaintext and unknown keys (fail closed)."""
    if metadata.get("encoding") != ENCODING:
        raise ValueError(f"payload is not encrypted (encoding {metadata.get('encoding')!r})")
    key_id = metadata.get(KEY_ID_METADATA, b"").decode()
    key = dict(keys).get(key_id)
    if key is None:
        raise ValueError(f"payload is encrypted with key {key_id!r}, which is not configured")
    return payload_from_proto(AESGCM(key).decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], None))


def _from_json(payload: dict):
    metadata = {name: base64.b64decode(value) for name, value in payload.get("metadata", {}).items()}
    return metadata, base64.b64decode(payload.get("data", ""))


def _to_json(metadata: dict[str, bytes], data: bytes) -> dict:
    return {
        "metadata": {name: base64.b64encode(value).decode() for name, value in metadata.items()},
        "data": base64.b64encode(data).decode(),
    }


def main() -> None:
    action = sys.argv[1]
    keys = parse_keys(os.environ["CADRE_PAYLOAD_KEYS"])
    body = json.load(sys.stdin)
    codec = encode_payload if action == "encode" else decode_payload
    payloads = [_to_json(*codec(keys, *_from_json(each))) for each in body["payloads"]]
    json.dump({"payloads": payloads}, sys.stdout)


if __name__ == "__main__":
    main()
