"""Seat secrets (random tokens, stored only as hashes, compared in constant time), the site check of WebSockets,
and the security headers of every response."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any
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


# The pages load their scripts, styles and images from this site only and run no inline code (the board's
# data travels in ``<script type="application/json">`` blocks, which are never executed); sockets go back
# to this site; nothing may frame a page (clickjacking on a seated player).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's interactive API page (``/api/docs``) is a developer's tool built from inline code and a CDN.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
HSTS = "max-age=31536000; includeSubDomains"


def security_headers(path: str, https: bool) -> list[tuple[bytes, bytes]]:
    """The headers every response carries (HSTS only over HTTPS: a browser must have reached us securely).

    >>> dict(security_headers("/", False))[b"x-frame-options"]
    b'DENY'
    >>> b"strict-transport-security" in dict(security_headers("/", True))
    True
    """
    policy = DOCS_POLICY if path.startswith(("/api/docs", "/api/redoc")) else CONTENT_SECURITY_POLICY
    headers = [
        (b"content-security-policy", policy.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
    ]
    if https:
        headers.append((b"strict-transport-security", HSTS.encode()))
    return headers


class SecurityHeaders:
    """ASGI middleware: :func:`security_headers` on every HTTP response (pages, API, static files, errors).

    HTTPS is the request's scheme, as uvicorn sets it from ``X-Forwarded-Proto`` when the proxy in front
    is trusted (``--forwarded-allow-ips``), or the public address's when that is an https one.
    """

    def __init__(self, app: Any, public_https: bool = False):
        self.app = app
        self.public_https = public_https

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""), self.public_https or scope.get("scheme") == "https")

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in extra if h[0] not in present]
            await send(message)

        await self.app(scope, receive, with_headers)
