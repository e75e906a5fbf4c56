"""Outcomes: why the game ended, the game's own scores, ranks with shared places, returns for learning."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ziggurat.core.message import Message

_CODE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


@dataclass(frozen=True)
class EndReason:
    """Why a finished game ended, in the game's own words.

    ``code`` is short and stable (lower-case words joined by dashes): it names
    the end in files (the ``end`` column of ``games.csv``) and in kernels (as
    its index in :attr:`GameSpec.ends <ziggurat.core.spec.GameSpec.ends>`).
    ``message`` says it for a person like every other message of the game
    (:mod:`ziggurat.core.message`: a catalog id, ``<game>.end_<code>``, that a
    translated front end looks up, and the English ``text``), lower case, as
    the end of "The game ended: ...". ``printed`` is true for the rulebook's own
    end and false for an end the project added (a backstop ruling, a safety
    limit, an end of an earlier ruling that old saved games still carry), which
    a front end must not present as the rulebook's.

    >>> from ziggurat.core.message import Catalog
    >>> demo = Catalog("demo_ends", {"end_empty": "the Quarry could not be refilled"})
    >>> end = EndReason("empty", demo("end_empty"))
    >>> end.text, end.to_json()["message"]["id"]
    ('the Quarry could not be refilled', 'demo_ends.end_empty')
    """

    code: str
    message: Message
    printed: bool = True

    def __post_init__(self) -> None:
        if not _CODE.fullmatch(self.code):
            raise ValueError(f"an end code is lower-case words joined by dashes, not {self.code!r}")

    @property
    def text(self) -> str:
        """The English words (the message's text)."""
        return self.message.text

    def __hash__(self) -> int:  # a Message is not hashable: the id stands for it
        return hash((self.code, self.message.id, self.printed))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form: ``code``, ``text`` (English), ``printed`` and the ``message`` (id, params, text)."""
        return {"code": self.code, "text": self.text, "printed": self.printed, "message": self.message.to_json()}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: why, the scores, the places, the returns.

    ``end`` is the reason the game ended (one of its spec's ``ends``).
    ``ranks[p]`` is 1 for the winners; players with equal rank keys share a place
    and the next place is skipped (1, 1, 3). ``returns`` are in ``[-1, 1]`` and sum
    to zero with two or more players: each player gets +1 for every opponent
    ranked below and -1 for every opponent ranked above, divided by ``n - 1``.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    returns: tuple[float, ...]
    end: EndReason

    @property
    def winners(self) -> tuple[int, ...]:
        """The players in first place (several when they share the win)."""
        return tuple(p for p, r in enumerate(self.ranks) if r == 1)

    def to_json(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "end": self.end.to_json(),
        }


@dataclass(frozen=True)
class ScoreTerm:
    """One term of a player's score: what it is (``label``) and its ``points``.

    ``points`` is ``None`` for a term the audience may not see yet (K'uh Nah's
    secret jade); a term may be worth 0 and still say something (Kukulkán's base
    bonus gives no points, only a permanent help).
    """

    label: Message
    points: float | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"label": self.label.to_json(), "points": self.points}


@dataclass(frozen=True)
class PlayerScore:
    """A player's score split into the game's own scoring terms; ``total`` is their sum (``None`` if one is hidden)."""

    player: int
    terms: tuple[ScoreTerm, ...]
    total: float | None

    @classmethod
    def of(cls, player: int, terms: Sequence[ScoreTerm]) -> PlayerScore:
        """The score of ``terms``: their sum, or ``None`` when a term is hidden."""
        points = [t.points for t in terms]
        total = None if any(p is None for p in points) else float(sum(p for p in points if p is not None))
        return cls(player, tuple(terms), total)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"player": self.player, "terms": [t.to_json() for t in self.terms], "total": self.total}


@dataclass(frozen=True)
class ScoreBreakdown:
    """Every player's score, term by term, as one audience may see it (:meth:`State.score_breakdown`).

    ``final``: the game is over and these are the final scores (the totals are
    ``State.scores()``); otherwise the standing now, as the game would score it
    if it ended here. ``notes`` say what applies to everyone (Pyramix's cobra
    clearing, a colour nobody collects).
    """

    final: bool
    players: tuple[PlayerScore, ...]
    notes: tuple[Message, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "final": self.final,
            "players": [p.to_json() for p in self.players],
            "notes": [n.to_json() for n in self.notes],
        }


def scores_line(scores: Sequence[float], ranks: Sequence[int]) -> str:
    """The final scores as one line for a front end (whole points shown without decimals).

    >>> scores_line([12.0, 17.5], [2, 1])
    'P1 12 (rank 2), P2 17.5 (rank 1)'
    """
    return ", ".join(
        f"P{p + 1} {int(s) if float(s).is_integer() else s} (rank {r})"
        for p, (s, r) in enumerate(zip(scores, ranks, strict=True))
    )


def ranks_from_keys(keys: Sequence[Sequence[float]]) -> tuple[int, ...]:
    """Competition ranks from per-player keys where a larger key is better.

    >>> ranks_from_keys([(3,), (5,), (3,)])
    (2, 1, 2)
    """
    # plain loops: search asks this once per playout, for a handful of players
    ks = [tuple(k) for k in keys]
    ranks = []
    for mine in ks:
        rank = 1
        for other in ks:
            if other > mine:
                rank += 1
        ranks.append(rank)
    return tuple(ranks)


def returns_from_ranks(ranks: Sequence[int]) -> tuple[float, ...]:
    """Zero-sum returns in [-1, 1] from ranks (see :class:`Outcome`)."""
    n = len(ranks)
    if n == 1:
        return (0.0,)
    out = []
    for r in ranks:
        net = 0
        for o in ranks:
            if o > r:
                net += 1
            elif o < r:
                net -= 1
        out.append(net / (n - 1))
    return tuple(out)
