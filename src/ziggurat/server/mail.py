"""E-mail: "your turn" notices for turn-based games, sent through an SMTP server of your choice.

``ziggurat serve --smtp HOST:PORT --mail-from ADDRESS --public-url URL`` turns it
on. A notice is a job (``mail:<seat>:<turn>``), so it is sent by one process,
once per turn (at least once: a process killed between sending and marking the
job done would send it again after the job's lease).
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass
from email.message import EmailMessage

from ziggurat.core.i18n import ENGLISH, Translator


@dataclass(frozen=True)
class MailSettings:
    """Where mail goes out and how links in it start."""

    host: str
    port: int
    sender: str
    public_url: str
    timeout: float = 20.0


def parse_smtp(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (port 25 when left out)."""
    host, _, port = value.rpartition(":") if ":" in value else (value, "", "25")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--smtp takes HOST:PORT, not {value!r}")
    return host, int(port)


def your_turn(
    settings: MailSettings, to: str, name: str, game: str, table_id: str, tr: Translator = ENGLISH
) -> EmailMessage:
    """The notice that it is ``name``'s turn at a table, in the language of ``tr`` (the player's)."""
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = tr.gettext("Your turn in {game} (table {table})").format(game=game, table=table_id)
    link = f"{settings.public_url.rstrip('/')}/t/{table_id}"
    body = tr.gettext(
        "Hello {name},\n\nit is your turn in {game} at table {table}:\n{link}\n\n"
        "You get this mail because you play a turn-based game on Ziggurat.\n"
    )
    message.set_content(body.format(name=name, game=game, table=table_id, link=link))
    return message


def send(settings: MailSettings, message: EmailMessage) -> None:
    """Hand one message to the SMTP server (blocking)."""
    with smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout) as smtp:
        smtp.send_message(message)
