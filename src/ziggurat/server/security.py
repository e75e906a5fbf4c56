"""Seat secrets (random tokens, stored only as hashes, compared in constant time) and the site check of WebSockets."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

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


def same_site(origin: str | None, host: str | None, public_url: str) -> bool:
    """Whether a WebSocket's ``Origin`` is this site, so that the browser's cookies may speak for it.

    This site is the address the request was made to (``Host``) or the one
    people open (``public_url``, ``--public-url``): behind a reverse proxy that
    passes requests on to ``127.0.0.1:8000``, ``Host`` names the proxy's
    target while the page came from the public address. A request without
    ``Origin`` or ``Host`` is not a browser's page on another site. Scheme
    aside, the comparison is exact (host and port, any case).

    >>> same_site("https://games.example", "127.0.0.1:8000", "https://games.example/")
    True
    >>> same_site("https://evil.example", "127.0.0.1:8000", "https://games.example")
    False
    """
    if origin is None or host is None:
        return True
    site = origin.split("://", 1)[-1].lower()
    return site == host.lower() or site == urlsplit(public_url).netloc.lower()
