"""Seat secrets: random tokens, stored only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh seat secret (URL-safe, 192 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (a token is random, so no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """Whether ``token`` is the secret behind ``token_hash`` (constant time)."""
    if not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def new_table_id() -> str:
    """A short random table id for URLs (10 lower-case letters and digits, about 50 bits)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def new_seed() -> int:
    """A secret root seed for a table (63 bits, so it fits a signed 64-bit column)."""
    return secrets.randbits(63)
