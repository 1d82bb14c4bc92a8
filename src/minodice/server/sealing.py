"""What the database does not hold: the secret key, and the seeds and bids sealed with it.

The seed deals every die of a game and a bid is hidden until the hand's bids are
all in, so whoever reads the database must learn neither. The store keeps both
*sealed* with an AEAD from the `cryptography` package: AES-256-GCM, a random
96-bit nonce per value, the value's place as associated data (the table's code
for a seed; the code, action number and seat for a bid), so a sealed value
copied to another row, or altered, does not open. Every sealed value holds 8
bytes of plain text (a seed below 2**64, a bid), so its length says nothing of
it: `s2:` + 48 URL-safe base64 characters (nonce, cipher text, 16-byte tag).

The AES key is derived from the secret key file (`--secret-file`, by default the
SQLite file's name + `.key`, created readable by its owner only) with HKDF-SHA256;
the database keeps only the key's fingerprint (an HMAC-SHA256 of a constant),
which names the key and reveals nothing of it. A random 96-bit nonce bounds one
key at about 2**32 sealed values (NIST SP 800-38D): years of a busy server's
bids. Rotating the key (`minodice serve --old-secret-file`) re-seals every value.

`s1:` values (a version's hand-made seal: the seed XOR an HMAC-SHA256 pad, an
8-byte HMAC tag) and plain seeds and bids of older versions are only read, to be
re-sealed as `s2:` when a keyed store opens the database (`store.Store`).
"""

from __future__ import annotations

import base64
import logging
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import constant_time, hashes
from cryptography.hazmat.primitives import hmac as crypto_hmac
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..codes import render

__all__ = [
    "KEY_MIN",
    "OLD_SEALED",
    "SEALED",
    "Sealer",
    "SeedKeyError",
    "key_fingerprint",
    "new_key_file",
    "read_key",
]

log = logging.getLogger("minodice.server")

#: How a value sealed with the AEAD starts (a stored seed or bid without it is older: re-sealed on opening).
SEALED = "s2:"
#: How a seed sealed by the hand-made construction of an older version starts (read only, to re-seal it).
OLD_SEALED = "s1:"
#: The shortest key file accepted, in bytes (a generated one holds 64 hex digits).
KEY_MIN = 32
NONCE = 12  # bytes: AES-GCM's standard nonce
PLAIN = 8  # bytes of plain text in every sealed value
#: HKDF's `info`: the AES key is bound to this use of the key file.
KDF_INFO = b"minodice/seal/aes-256-gcm/v2"


class SeedKeyError(RuntimeError):
    """The secret key that seals the seeds and bids is missing, wrong or unreadable, or a sealed value does
    not open: the server does not start (a table whose values do not open is not resumed).

    `code` and `params` name the refusal (`codes.KEY_REFUSALS`); its words are the exception's text.
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(render(code, params))


def read_key(path: Path) -> bytes:
    """The key in a key file (its bytes, surrounding white space stripped); SeedKeyError if unusable."""
    try:
        key = path.read_bytes().strip()
        mode = path.stat().st_mode
    except OSError as exc:
        raise SeedKeyError("key_unreadable", path=str(path), why=exc.strerror or type(exc).__name__) from None
    if len(key) < KEY_MIN:
        raise SeedKeyError("key_short", path=str(path), length=len(key), least=KEY_MIN)
    if mode & 0o077:
        log.warning("the secret key file %s can be read by others: chmod 600 it", path)
    return key


def new_key_file(path: Path) -> bytes:
    """Write a new random key to `path`, readable by its owner only (another process's key if it won the race)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_key(path)
    except OSError as exc:
        raise SeedKeyError("key_uncreatable", path=str(path), why=exc.strerror or type(exc).__name__) from None
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32) + "\n")
    return read_key(path)


def _hmac(key: bytes, message: bytes) -> bytes:
    mac = crypto_hmac.HMAC(key, hashes.SHA256())
    mac.update(message)
    return mac.finalize()


def key_fingerprint(key: bytes) -> str:
    """What the database keeps of its key: an HMAC-SHA256 of a constant (names the key, reveals nothing of it)."""
    return _hmac(key, b"minodice/seed-key/fingerprint").hex()[:32]


def _place(*parts: str | int) -> bytes:
    """A sealed value's associated data: what it is and where it belongs."""
    return b"\x00".join(str(p).encode() for p in ("minodice/2", *parts))


def _number(text: str, what: str) -> int:
    value = int(text)
    if str(value) != text or not 0 <= value < 2 ** (8 * PLAIN):
        raise ValueError(f"a {what} is a whole number below 2**64 in decimal, not {text[:24]!r}")
    return value


class Sealer:
    """Seals and opens a database's seeds and bids with the AES key derived from one secret key."""

    def __init__(self, key: bytes) -> None:
        self.fingerprint = key_fingerprint(key)
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KDF_INFO).derive(key)
        self._aead = AESGCM(derived)
        self._old = key  # only to open `s1:` seeds (`_open_s1`)

    def _seal(self, place: bytes, value: int) -> str:
        nonce = os.urandom(NONCE)
        box = self._aead.encrypt(nonce, value.to_bytes(PLAIN, "big"), place)
        return SEALED + base64.urlsafe_b64encode(nonce + box).decode()

    def _open(self, place: bytes, stored: str) -> int | None:
        """The number sealed in `stored` (an `s2:` value) at `place`; None if it does not open."""
        try:
            raw = base64.urlsafe_b64decode(stored[len(SEALED):])
            plain = self._aead.decrypt(raw[:NONCE], raw[NONCE:], place)
        except (ValueError, InvalidTag):
            return None
        return int.from_bytes(plain, "big")

    def seal_seed(self, code: str, seed: str) -> str:
        """The stored form of table `code`'s seed (a whole number below 2**64, in decimal): 51 characters."""
        return self._seal(_place("seed", code), _number(seed, "seed"))

    def open_seed(self, code: str, stored: str) -> str:
        """Table `code`'s seed from its stored form (`s2:`, an older `s1:`, or an older plain seed as it is);
        SeedKeyError if it does not open with this key."""
        if stored.startswith(SEALED):
            value = self._open(_place("seed", code), stored)
        elif stored.startswith(OLD_SEALED):
            value = self._open_s1(code, stored)
        else:
            return stored
        if value is None:
            raise SeedKeyError("seed_unsealable", table=code)
        return str(value)

    def seal_bid(self, code: str, n: int, seat: int, bid: str) -> str:
        """The stored form of a bid, action `n` of table `code` by `seat`: 51 characters, whatever the bid."""
        return self._seal(_place("bid", code, n, seat), _number(bid, "bid"))

    def open_bid(self, code: str, n: int, seat: int, stored: str) -> str:
        """A bid from its stored form (an older plain bid as it is); SeedKeyError if it does not open."""
        if not stored.startswith(SEALED):
            return stored
        value = self._open(_place("bid", code, n, seat), stored)
        if value is None:
            raise SeedKeyError("bid_unsealable", table=code, n=n)
        return str(value)

    def _open_s1(self, code: str, stored: str) -> int | None:
        """An `s1:` seed: 8 bytes XORed with HMAC(key, pad label + code), then an 8-byte HMAC tag (read only)."""
        try:
            raw = bytes.fromhex(stored[len(OLD_SEALED):])
        except ValueError:
            return None
        sealed, tag = raw[:8], raw[8:]
        code_b = code.encode()
        want = _hmac(self._old, b"minodice/seed/tag\x00" + code_b + b"\x00" + sealed)[:8]
        if len(raw) != 16 or not constant_time.bytes_eq(tag, want):
            return None
        pad = _hmac(self._old, b"minodice/seed/pad\x00" + code_b)[:8]
        return int.from_bytes(bytes(a ^ b for a, b in zip(sealed, pad, strict=True)), "big")
