"""Accounts: players who sign up keep their games and ratings; guests still play with invite links.

Passwords are hashed with Argon2id (``argon2-cffi``); a login opens a session
whose random secret lives in an HttpOnly cookie (``zg_session``, Secure over
HTTPS) and only as a SHA-256 hash in the database. Forms carry a CSRF token
that must match the ``zg_csrf`` cookie (double submit, compared in constant
time), and cookies are SameSite=Lax, so another site's page can neither post a
form as you nor read the token.
"""

from __future__ import annotations

import datetime as dt
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ziggurat.server.db import sessions, users
from ziggurat.server.security import hash_token, new_token
from ziggurat.server.service import ServiceError

SESSION_COOKIE = "zg_session"
CSRF_COOKIE = "zg_csrf"
SESSION_DAYS = 30
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,23}$")
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s]{2,60}$")
PASSWORD_MIN = 8

_hasher = PasswordHasher()


@dataclass(frozen=True)
class User:
    """A signed-up player."""

    id: int
    name: str
    email: str | None
    lang: str | None = None  # the site's language for them (None: never said)

    @property
    def subject(self) -> str:
        """How ratings name this player."""
        return f"user:{self.id}"


def name_key(name: str) -> str:
    """A name folded for comparison: ``Ana`` and ``ana`` are the same account."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_signup(name: object, password: object, email: object) -> tuple[str, str, str | None]:
    """The cleaned name, password and e-mail of a sign-up, or a clear error."""
    clean = check_name(name)
    if not isinstance(password, str) or len(password) < PASSWORD_MIN or len(password) > 200:
        raise ServiceError("bad_request", "a password has {low} to {high} characters", low=PASSWORD_MIN, high=200)
    address: str | None = None
    if email not in (None, ""):
        if not isinstance(email, str) or not EMAIL.match(email.strip()):
            raise ServiceError("bad_request", "that is not an e-mail address")
        address = email.strip()
    return clean, password, address


def check_name(name: object) -> str:
    """A user name, trimmed, or a clear error."""
    if not isinstance(name, str) or not NAME.match(name.strip()):
        raise ServiceError(
            "bad_request", "a user name is 2 to 24 letters, digits, '.', '-' or '_', starting with a letter or digit"
        )
    return name.strip()


class Accounts:
    """Users and sessions in the database (blocking calls; the server runs them off the event loop)."""

    def __init__(self, engine: Engine, now: Any):
        self.engine = engine
        self.now = now

    def sign_up(self, name: object, password: object, email: object = None, lang: str | None = None) -> User:
        """A new account (names are unique whatever their case), reading the site in ``lang``."""
        clean, secret, address = check_signup(name, password, email)
        hashed = _hasher.hash(secret)
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(users)
                    .values(name=clean, name_key=name_key(clean), email=address, password_hash=hashed, lang=lang)
                    .values(created_at=self.now())
                    .returning(users.c.id)
                )
                user_id = int(result.scalar_one())
        except IntegrityError:
            raise ServiceError("name_taken", "the name {name!r} is taken", name=clean) from None
        return User(user_id, clean, address, lang)

    def log_in(self, name: object, password: object) -> tuple[User, str]:
        """Check a password; a new session secret for the cookie."""
        failure = ServiceError("forbidden", "wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 200:
            raise failure
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name_key == name_key(name.strip()))).first()
        if row is None:
            _hasher.hash(password)  # as slow as a real check: the answer's time does not tell names apart
            raise failure
        try:
            _hasher.verify(row.password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise failure from None
        if row.banned_at is not None:  # said only to whoever knows the password
            if row.ban_reason:
                raise ServiceError(
                    "forbidden", "this account is shut out by the site's operators: {reason}", reason=row.ban_reason
                )
            raise ServiceError("forbidden", "this account is shut out by the site's operators")
        if _hasher.check_needs_rehash(row.password_hash):
            self._rehash(row.id, password)
        token = new_token()
        at = self.now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=hash_token(token),
                    user_id=row.id,
                    created_at=at,
                    expires_at=at + dt.timedelta(days=SESSION_DAYS),
                )
            )
        return User(row.id, row.name, row.email, row.lang), token

    def _rehash(self, user_id: int, password: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == user_id).values(password_hash=_hasher.hash(password)))

    def user_of(self, token: str | None) -> User | None:
        """The user whose session secret is ``token`` (None: no session, or it expired)."""
        if not token or len(token) > 200:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users.c.id, users.c.name, users.c.email, users.c.lang, users.c.banned_at, sessions.c.expires_at)
                .join(sessions, sessions.c.user_id == users.c.id)
                .where(sessions.c.token_hash == hash_token(token))
            ).first()
        if row is None or row.banned_at is not None:
            return None
        expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=dt.UTC)
        if expires < self.now():
            return None
        return User(row.id, row.name, row.email, row.lang)

    def set_language(self, user_id: int, lang: str) -> None:
        """Remember the language the site speaks to this account (its mails follow it)."""
        with self.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == user_id).values(lang=lang))

    def log_out(self, token: str | None) -> int | None:
        """End a session; returns its account's id (``None``: there was no such session)."""
        if not token:
            return None
        with self.engine.begin() as conn:
            row = conn.execute(
                delete(sessions).where(sessions.c.token_hash == hash_token(token)).returning(sessions.c.user_id)
            ).first()
            return int(row.user_id) if row is not None else None

    def by_name(self, name: str) -> User | None:
        """The account called ``name`` (any case)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name_key == name_key(name))).first()
        return None if row is None else User(row.id, row.name, row.email, row.lang)

    def by_id(self, user_id: int) -> User | None:
        """The account with this id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.id == user_id)).first()
        return None if row is None else User(row.id, row.name, row.email, row.lang)


def new_csrf() -> str:
    """A fresh CSRF token (for the ``zg_csrf`` cookie and the forms)."""
    return secrets.token_urlsafe(18)


def csrf_ok(cookie: str | None, sent: object) -> bool:
    """Whether a form's token matches the cookie (constant time)."""
    return bool(cookie) and isinstance(sent, str) and hmac.compare_digest(cookie.encode(), sent.encode())  # type: ignore[union-attr]
