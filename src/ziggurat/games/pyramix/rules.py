"""Pyramix's rules, top to bottom like the rulebook (see ``docs/rulings.md``).

Setup is chance: the 56 places are filled in index order (``a1`` .. ``f1``), one
chance draw per place; the outcome is the *kind* of the cube put there (``blue
ankh``, ..., ``cobra``), with probability proportional to how many of that kind
are still in the box. Then the players take turns, player 1 first, each removing
one cube (the action id is the cube's place, 0..55; see :mod:`.geometry`).

A cube may be removed when it

1. shows two or three faces (an upper face is visible when the place it looks at
   is empty or off the pyramid),
2. does not leave a tray place empty for good (a base cube showing three faces
   has nothing above it to slide in), and
3. touches no cobra on any of its six faces -- unless it is a cobra itself.

Removing a cube showing two faces makes the line of cubes above it through its
one covered face (``p - e_i``, ``p - 2e_i``, ...) slide down one step (the
*cascade*). The set of occupied places then loses exactly the top of that line;
nothing rests on that top (see ``docs/games/pyramix.md`` for the proof), so
every cube above the tray still rests on three cubes after every cascade and no
removal needs to be forbidden for that reason. The game ends when the player to
move has no legal removal.

Scoring: cobras left in the tray leave play with their edge neighbours in the
tray; for each colour the player with strictly the most ankhs of it collects the
tray's cubes of that colour; 1 point per ankh, 2 per crane, 3 per eye. Cubes
left above the tray (possible only when cobras block every removal) are not in
the tray and score for nobody.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ziggurat.core.errors import ConfigError, ParseActionError, RecordError
from ziggurat.core.game import CHANCE, STATE_FORMAT, STATE_VERSION, TERMINAL, Game, State
from ziggurat.core.message import Message
from ziggurat.core.outcome import EndReason, PlayerScore, ScoreBreakdown, ScoreTerm
from ziggurat.core.params import param
from ziggurat.core.spec import GameSpec, OptionSpec
from ziggurat.games.pyramix.cubes import PYRAMID_SIZE, Box, load_box
from ziggurat.games.pyramix.geometry import (
    DOWN,
    FACES,
    LABEL_INDEX,
    LABELS,
    LAYER,
    LAYER_LETTERS,
    NUM_BASE,
    NUM_POSITIONS,
    POSITIONS,
    SUPPORTS,
    TRAY_NEIGHBOURS,
    UP,
    parse_place,
)
from ziggurat.games.pyramix.messages import M

EMPTY = -1
# cover[p] counts the occupied places resting on p (3 minus its visible faces).
# It is NOT_CANDIDATE for an empty place and for a tray cube showing three faces,
# so "cover[p] < 2" alone says that p passes rules 1 and 2.
NOT_CANDIDATE = 9
MAX_REMOVALS = NUM_POSITIONS - NUM_BASE  # the tray is never emptied

_R56 = range(NUM_POSITIONS)

SPEC = GameSpec(
    id="pyramix",
    name="Pyramix",
    aliases=("cube pyramid",),
    min_players=2,
    max_players=4,
    has_chance=True,
    has_hidden_information=False,
    summary="Take cubes from a pyramid standing on its corner; win colours with ankh majorities.",
    ends=(EndReason("no-removal", M("end_no_removal")),),
    options=(
        OptionSpec("box", "path", None, help="a TOML cube list to play with instead of the rulebook's"),
        # the rulebook's numbers (docs/analysis.md, "Parameters"); the cubes must fill the 56 places
        param("ankhs", "int", 8, 0, 14, "ankh cubes of each colour (1 point each as printed)"),
        param("cranes", "int", 4, 0, 14, "crane cubes of each colour"),
        param("eyes", "int", 1, 0, 14, "eye cubes of each colour"),
        param("cobras", "int", 4, 0, 56, "cobra cubes (no colour, no points)"),
        param("ankh-points", "int", 1, 0, 99, "points an ankh is worth"),
        param("crane-points", "int", 2, 0, 99, "points a crane is worth"),
        param("eye-points", "int", 3, 0, 99, "points an eye is worth"),
    ),
)

# parameter -> (icon of the rulebook's box, what it sets)
_ICON_PARAMS = {"ankhs": ("ankh", "count"), "cranes": ("crane", "count"), "eyes": ("eye", "count"),
                "ankh-points": ("ankh", "points"), "crane-points": ("crane", "points"),
                "eye-points": ("eye", "points")}  # fmt: skip


def box_with_params(box: Box, options: Mapping[str, object]) -> Box:
    """The rulebook's box with the parameters' counts and points (checked: the cubes fill the pyramid)."""
    counts, points = list(box.counts), list(box.points)
    for name, (icon, what) in _ICON_PARAMS.items():
        i = box.icons.index(icon)
        for k in range(box.num_kinds):
            if box.icon_of[k] == i:
                (counts if what == "count" else points)[k] = int(options[name])  # type: ignore[call-overload]
    counts[box.cobra] = int(options["cobras"])  # type: ignore[call-overload]
    if sum(counts) != PYRAMID_SIZE:
        colours = len(box.colours)
        raise ConfigError(
            f"the parameters make {sum(counts)} cubes ({colours} colours x "
            f"({options['ankhs']} ankhs + {options['cranes']} cranes + {options['eyes']} eyes) + "
            f"{options['cobras']} cobras); the pyramid has {PYRAMID_SIZE} places"
        )
    return dataclasses.replace(box, counts=tuple(counts), points=tuple(points))


class PyramixGame(Game):
    """Pyramix for 2–4 players."""

    spec = SPEC

    def _configure(self) -> None:
        self.box: Box = load_box(self.options["box"])  # type: ignore[arg-type]
        changed = [p.name for p in self.spec.params if self.options[p.name] != p.default]
        if changed and self.options["box"] is not None:
            raise ConfigError(
                f"parameters ({', '.join(changed)}) change the rulebook's box; "
                "with box=FILE set the numbers in the file"
            )
        if changed:
            self.box = box_with_params(self.box, self.options)
        self.num_kinds = self.box.num_kinds
        self.cobra = self.box.cobra

    @property
    def num_actions(self) -> int:
        return NUM_POSITIONS

    @property
    def max_chance_outcomes(self) -> int:
        return self.num_kinds

    @property
    def max_game_length(self) -> int:
        return NUM_POSITIONS + MAX_REMOVALS

    def new_initial_state(self) -> PyramixState:
        return PyramixState(self)


class PyramixState(State):
    """A Pyramix position.

    ``grid[p]`` is the kind of the cube at place ``p`` (or -1), ``coll[player *
    num_kinds + kind]`` counts the cubes a player has taken, ``pool[kind]`` the
    cubes not yet placed during setup, ``fill`` the next place to fill. Kept up
    to date move by move: ``cover`` (see ``NOT_CANDIDATE``), ``near[p]`` the
    cobras touching ``p`` on its six faces, ``moves`` the legal removals, and
    ``current`` (the core's hook): chance while the pyramid is stacked, then the
    player to move while a cube can be taken, then nobody.
    """

    __slots__ = ("coll", "cover", "current", "fill", "grid", "moves", "near", "pool", "to_move")

    game: PyramixGame
    current: int

    def __init__(self, game: PyramixGame):
        super().__init__(game)
        self.grid = [EMPTY] * NUM_POSITIONS
        self.cover = [NOT_CANDIDATE] * NUM_POSITIONS
        self.near = [0] * NUM_POSITIONS
        self.pool = list(game.box.counts)
        self.coll = [0] * (game.num_players * game.num_kinds)
        self.fill = 0
        self.to_move = 0
        self.moves: list[int] = []
        self.current = CHANCE

    # ---------------------------------------------------------- who decides
    @property
    def in_setup(self) -> bool:
        """True while cubes are still being stacked (chance)."""
        return self.fill < NUM_POSITIONS

    # ---------------------------------------------------------------- chance
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        pool = self.pool
        total = sum(pool)
        return [(k, n / total) for k, n in enumerate(pool) if n]

    def sample_chance(self, rng: random.Random) -> int:
        pool = self.pool
        r = int(rng.random() * sum(pool))
        for k, n in enumerate(pool):
            if r < n:
                return k
            r -= n
        return max(k for k, n in enumerate(pool) if n)  # pragma: no cover - float edge

    def _chance_legal(self, outcome: int) -> bool:
        return outcome in range(len(self.pool)) and self.pool[outcome] > 0

    # ----------------------------------------------------------------- rules
    def _legal_actions(self, player: int) -> list[int]:
        return self.moves

    def _compute_moves(self) -> list[int]:
        """Removable cubes (rules 1-3), sorted."""
        cover = self.cover
        moves = [p for p in _R56 if cover[p] < 2]
        near = self.near
        grid = self.grid
        cobra = self.game.cobra
        return [p for p in moves if not near[p] or grid[p] == cobra]

    def _init_cover(self) -> None:
        """Recount ``cover`` and ``near`` from ``grid`` (after setup and after loading)."""
        grid = self.grid
        cobra = self.game.cobra
        self.near = [sum(1 for q in FACES[p] if grid[q] == cobra) for p in _R56]
        cover = self.cover
        for p in _R56:
            if grid[p] < 0:
                cover[p] = NOT_CANDIDATE
                continue
            c = 0
            for i in range(3):
                u = UP[3 * p + i]
                if u >= 0 and grid[u] >= 0:
                    c += 1
            cover[p] = NOT_CANDIDATE if c == 0 and p < NUM_BASE else c

    def _apply(self, action: int, player: int) -> None:
        grid = self.grid
        if player == CHANCE:
            grid[self.fill] = action
            self.pool[action] -= 1
            self.fill += 1
            if self.fill == NUM_POSITIONS:
                self._init_cover()
                self.moves = self._compute_moves()
                self.current = self.to_move if self.moves else TERMINAL
            return
        cover = self.cover
        near = self.near
        cobra = self.game.cobra
        p = action
        self.coll[player * self.game.num_kinds + grid[p]] += 1
        top = p
        if cover[p]:
            # the cascade: the one occupied place above p starts the sliding line
            for i in range(3):
                u = UP[3 * p + i]
                if u >= 0 and grid[u] >= 0:
                    break
            while u >= 0 and grid[u] >= 0:
                k = grid[u]
                if (k == cobra) != (grid[top] == cobra):  # a cobra arrives at top or leaves it
                    d = 1 if k == cobra else -1
                    for q in FACES[top]:
                        near[q] += d
                grid[top] = k
                top = u
                u = UP[3 * top + i]
        if grid[top] == cobra:
            for q in FACES[top]:
                near[q] -= 1
        grid[top] = EMPTY
        cover[top] = NOT_CANDIDATE
        for d in SUPPORTS[top]:
            c = cover[d] - 1
            cover[d] = NOT_CANDIDATE if c == 0 and d < NUM_BASE else c
        self.to_move = (player + 1) % self.game.num_players
        self.moves = self._compute_moves()
        self.current = self.to_move if self.moves else TERMINAL

    # ------------------------------------------------------------ explaining
    def visible_faces(self, place: int) -> int:
        """How many of the upper faces of the cube at ``place`` are visible (0..3)."""
        grid = self.grid
        return sum(1 for i in range(3) if UP[3 * place + i] < 0 or grid[UP[3 * place + i]] < 0)

    def _why_illegal(self, action: int, player: int) -> Message:
        """Why ``action`` is not legal now (see :meth:`State.why_illegal`): the three conditions, in order."""
        box = self.game.box
        if player == CHANCE:
            colour = box.colour_of[action]
            if colour < 0:
                return M("box_empty_cobra")
            return M("box_empty", colour=box.colours[colour], icon=box.icons[box.icon_of[action]])
        label = LABELS[action]
        grid = self.grid
        kind = grid[action]
        if kind < 0:
            return M("empty", place=label)
        cube = self._cube_message(kind)
        covering = [LABELS[u] for u in UP[3 * action : 3 * action + 3] if u >= 0 and grid[u] >= 0]
        if len(covering) == 3:
            return M("covered_none", cube=cube, place=label, covering=covering)
        if len(covering) == 2:
            return M("covered_one", cube=cube, place=label, covering=covering, count=len(covering))
        if not covering and action < NUM_BASE:
            return M("base_gap", cube=cube, place=label)
        cobras = [LABELS[q] for q in FACES[action] if grid[q] == self.game.cobra]
        return M("cobra_touch", cube=cube, place=label, cobras=cobras, count=len(cobras))

    def _cube_message(self, kind: int, name: str = "cube") -> Message:
        """``the blue ankh`` / ``the cobra`` (``name="kind"``: ``blue ankh`` / ``cobra``)."""
        box = self.game.box
        colour = box.colour_of[kind]
        if colour < 0:
            return M("cobra" if name == "cube" else "kind_cobra")
        return M(name, colour=box.colours[colour], icon=box.icons[box.icon_of[kind]])

    def sliding_line(self, place: int) -> list[int]:
        """The places of the cubes that slide down one step when the cube at ``place`` is taken (the cascade)."""
        grid = self.grid
        covering = [i for i in range(3) if UP[3 * place + i] >= 0 and grid[UP[3 * place + i]] >= 0]
        if len(covering) != 1:
            return []
        i = covering[0]
        line = []
        u = UP[3 * place + i]
        while u >= 0 and grid[u] >= 0:
            line.append(u)
            u = UP[3 * u + i]
        return line

    # ------------------------------------------------------ what a move did
    def _describe(self, action: int, player: int, audience: int | None) -> Message:
        """What the legal ``action`` does (see :meth:`State.describe_action`): Pyramix hides nothing."""
        if player == CHANCE:
            return M("stack", kind=self._cube_message(action, "kind"), place=LABELS[self.fill])
        cube = self._cube_message(self.grid[action])
        layer = LAYER[action] + 1
        line = self.sliding_line(action)
        if line:
            return M("take_cascade", cube=cube, place=LABELS[action], layer=layer, line=[LABELS[u] for u in line])
        return M("take", cube=cube, place=LABELS[action], layer=layer)

    # ------------------------------------------------------------------ text
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            return self.game.box.name[action]
        return f"take {LABELS[action]}"

    def _parse(self, text: str, player: int) -> int:
        box = self.game.box
        if player == CHANCE:
            try:
                return box.kind(text)
            except KeyError:
                raise ParseActionError(
                    f"{text!r} is not a cube (say a kind like 'blue ankh', 'green eye' or 'cobra')"
                ) from None
        words = text.split(" ", 1)
        place = words[1] if words[0] == "take" and len(words) == 2 else text
        try:
            return parse_place(place)
        except ValueError as exc:
            raise ParseActionError(f"{exc} (try: take a3)") from None

    # ----------------------------------------------------------------- state
    def _copy(self) -> PyramixState:
        new = PyramixState.__new__(PyramixState)
        new.game = self.game
        new.grid = self.grid.copy()
        new.cover = self.cover.copy()
        new.near = self.near.copy()
        new.pool = self.pool.copy()
        new.coll = self.coll.copy()
        new.fill = self.fill
        new.to_move = self.to_move
        new.moves = self.moves  # never mutated in place
        new.current = self.current
        return new

    def collection(self, player: int) -> list[int]:
        """Cubes ``player`` has taken, counted by kind."""
        k = self.game.num_kinds
        return self.coll[player * k : (player + 1) * k]

    def _dump(self) -> dict[str, Any]:
        box = self.game.box
        phase = "setup" if self.in_setup else ("over" if not self.moves else "play")
        return {
            "phase": phase,
            "to_move": self.to_move,
            "pyramid": [box.code[k] if k >= 0 else None for k in self.grid],
            "box": {box.code[k]: n for k, n in enumerate(self.pool)},
            "collections": [
                {box.code[k]: n for k, n in enumerate(self.collection(p))} for p in range(self.game.num_players)
            ],
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        g = self.game
        box = g.box
        phase = data["phase"]
        if phase not in ("setup", "play", "over"):
            raise RecordError(f"unknown Pyramix phase {phase!r} (setup, play or over)")
        to_move = data["to_move"]
        if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < g.num_players:
            raise RecordError(f"saved Pyramix state: player to move {to_move!r} is not a seat")
        self.to_move = to_move
        pyramid = data["pyramid"]
        if not isinstance(pyramid, list) or len(pyramid) != NUM_POSITIONS:
            raise RecordError(f"saved Pyramix state: 'pyramid' must list the {NUM_POSITIONS} places")
        self.grid = [EMPTY if c is None else self._kind(c, f"place {LABELS[p]}") for p, c in enumerate(pyramid)]
        self.pool = self._counts(data["box"], "box")
        collections = data["collections"]
        if not isinstance(collections, list) or len(collections) != g.num_players:
            raise RecordError(f"saved Pyramix state: 'collections' must have one entry per player ({g.num_players})")
        self.coll = [n for p, c in enumerate(collections) for n in self._counts(c, f"collection of player {p + 1}")]
        occupied = [p for p in _R56 if self.grid[p] >= 0]
        if phase == "setup":
            self.fill = len(occupied)
            if occupied != list(range(self.fill)) or self.fill == NUM_POSITIONS:
                raise RecordError("saved Pyramix state: during setup the places are filled in order, a1 first")
            if any(self.coll):
                raise RecordError("saved Pyramix state: nobody has taken a cube during setup")
            placed = [self.grid.count(k) for k in range(g.num_kinds)]
            if [a + b for a, b in zip(placed, self.pool, strict=True)] != list(box.counts):
                raise RecordError("saved Pyramix state: the stacked cubes and the box don't make up the cube set")
            self.cover = [NOT_CANDIDATE] * NUM_POSITIONS
            self.near = [0] * NUM_POSITIONS
            self.moves = []
            self.current = CHANCE
            return
        self.fill = NUM_POSITIONS
        if any(self.pool):
            raise RecordError("saved Pyramix state: every cube is out of the box once setup is over")
        for p in range(NUM_BASE):
            if self.grid[p] < 0:
                raise RecordError(f"saved Pyramix state: the tray place {LABELS[p]} is empty")
        for p in occupied:
            for d in SUPPORTS[p]:
                if self.grid[d] < 0:
                    raise RecordError(
                        f"saved Pyramix state: the cube at {LABELS[p]} does not rest on three cubes "
                        f"({LABELS[d]} is empty)"
                    )
        if len(occupied) + sum(self.coll) > PYRAMID_SIZE:
            raise RecordError(f"saved Pyramix state: more than {PYRAMID_SIZE} cubes in play")
        self._init_cover()
        self.moves = self._compute_moves()
        self.current = self.to_move if self.moves else TERMINAL
        if phase == "over" and self.moves:
            raise RecordError("saved Pyramix state says the game is over, but a cube can still be taken")

    def _kind(self, code: object, where: str) -> int:
        if not isinstance(code, str):
            raise RecordError(f"saved Pyramix state: {where} holds {code!r}, not a cube code")
        try:
            return self.game.box.kind(code)
        except KeyError:
            codes = ", ".join(self.game.box.code)
            raise RecordError(f"saved Pyramix state: {where} holds {code!r}, not a cube code ({codes})") from None

    def _counts(self, data: object, where: str) -> list[int]:
        if not isinstance(data, Mapping):
            raise RecordError(f"saved Pyramix state: the {where} must map cube codes to counts")
        counts = [0] * self.game.num_kinds
        for code, n in data.items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise RecordError(f"saved Pyramix state: the {where} has {n!r} of {code!r}")
            counts[self._kind(code, f"the {where}")] += n
        return counts

    # -------------------------------------------------- hand-built positions
    @classmethod
    def from_layout(
        cls,
        game: PyramixGame,
        layout: str | Mapping[str, str],
        to_move: int = 0,
        collections: Sequence[Sequence[str] | Mapping[str, int]] | None = None,
    ) -> PyramixState:
        """Build a position after setup by hand (puzzles, tests), checked like a saved state.

        ``layout`` is either a mapping from place labels to cube codes (places not
        named are empty), or text with one line per layer, ``"<letter>: codes"``,
        giving the codes of that layer in label order (``.`` or ``..`` for an
        empty place; layers not given are empty). Codes are a colour letter and an
        icon letter (``ba`` blue ankh, ``pc`` purple crane, ``ge`` green eye) or
        ``co`` for a cobra. ``collections`` gives each player's taken cubes, as a
        list of codes or a mapping code -> count. A position may use any mix of
        cubes (at most 56 in all); the tray must be full and every cube above it
        must rest on three cubes.

        >>> from ziggurat.core.registry import make_game
        >>> s = PyramixState.from_layout(make_game("pyramix", 2), "a: " + "ga " * 21 + "\\nb: co")
        >>> [LABELS[p] for p in s.legal_actions()]
        ['b1']
        """
        cells: dict[str, str] = {}
        if isinstance(layout, str):
            for line in layout.strip().splitlines():
                if not line.strip():
                    continue
                letter, sep, rest = line.partition(":")
                letter = letter.strip().lower()
                if not sep or letter not in LAYER_LETTERS:
                    raise RecordError(f"layout line {line.strip()!r} must start with a layer letter a..f and ':'")
                for n, code in enumerate(rest.split(), 1):
                    label = f"{letter}{n}"
                    if label not in LABEL_INDEX:
                        raise RecordError(f"layout layer {letter} has too many entries ({label} does not exist)")
                    if code.strip(".") != "":
                        cells[label] = code
        else:
            cells = {k.lower(): v for k, v in layout.items()}
        pyramid: list[str | None] = [None] * NUM_POSITIONS
        for label, code in cells.items():
            if label not in LABEL_INDEX:
                raise RecordError(f"layout names {label!r}, which is not a place")
            pyramid[LABEL_INDEX[label]] = code.lower()
        colls: list[dict[str, int]] = []
        for c in collections or [[] for _ in range(game.num_players)]:
            if isinstance(c, Mapping):
                colls.append(dict(c))
            else:
                counted: dict[str, int] = {}
                for code in c:
                    counted[code] = counted.get(code, 0) + 1
                colls.append(counted)
        data = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "game": game.spec.id,
            "players": game.num_players,
            "state": {"phase": "play", "to_move": to_move, "pyramid": pyramid, "box": {}, "collections": colls},
        }
        state = game.state_from_json(data)
        assert isinstance(state, PyramixState)
        return state

    # ------------------------------------------------------------- scoring
    def tray_out(self) -> list[int]:
        """Tray places put out of play at scoring: each cobra in the tray and its edge neighbours."""
        grid = self.grid
        cobra = self.game.cobra
        out: set[int] = set()
        for p in range(NUM_BASE):
            if grid[p] == cobra:
                out.add(p)
                out.update(TRAY_NEIGHBOURS[p])
        return sorted(out)

    def ankhs(self, player: int) -> list[int]:
        """Ankhs (the majority icon) ``player`` has taken, per colour."""
        box = self.game.box
        coll = self.collection(player)
        return [coll[box.kind_of(c, box.majority_icon)] for c in range(len(box.colours))]

    def colour_leaders(self) -> list[int | None]:
        """Per colour, the player with strictly the most ankhs of it (None on a tie, zero included)."""
        counts = [self.ankhs(p) for p in range(self.game.num_players)]
        leaders: list[int | None] = []
        for c in range(len(self.game.box.colours)):
            column = [a[c] for a in counts]
            best = max(column)
            leaders.append(column.index(best) if best > 0 and column.count(best) == 1 else None)
        return leaders

    def score_now(self) -> list[int]:
        """The scores if the game ended in this position (the tray as it stands now)."""
        box = self.game.box
        n = self.game.num_players
        points = box.points
        scores = [sum(a * b for a, b in zip(self.collection(p), points, strict=True)) for p in range(n)]
        leaders = self.colour_leaders()
        out = set(self.tray_out())
        grid = self.grid
        for p in range(NUM_BASE):
            k = grid[p]
            if p in out or k == box.cobra:
                continue
            leader = leaders[box.colour_of[k]]
            if leader is not None:
                scores[leader] += points[k]
        return scores

    def _scores(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.score_now())

    def _score_breakdown(self, audience: int | None) -> ScoreBreakdown:
        """Per player: the cubes taken, kind by kind, then the tray's cubes of each colour they lead in ankhs.

        Before the end it is :meth:`score_now`, the tray scored as it stands.
        The notes tell the cobra clearing, who collects each colour (or the tie),
        and the cubes left above the tray. Nothing in Pyramix is hidden.
        """
        g = self.game
        box = g.box
        grid = self.grid
        leaders = self.colour_leaders()
        out = self.tray_out()
        gone = set(out)
        majority = box.icons[box.majority_icon]
        tray = [0] * g.num_kinds  # the tray's cubes that count, by kind
        for p in range(NUM_BASE):
            if p not in gone and grid[p] >= 0:
                tray[grid[p]] += 1
        players = []
        for p in range(g.num_players):
            terms = []
            for k, n in enumerate(self.collection(p)):
                if not n:
                    continue
                colour = box.colour_of[k]
                if colour < 0:
                    terms.append(ScoreTerm(M("score_cobras", count=n), 0.0))
                    continue
                each = box.points[k]
                label = M("score_taken", count=n, colour=box.colours[colour], icon=box.icons[box.icon_of[k]], each=each)
                terms.append(ScoreTerm(label, float(n * each)))
            for k, n in enumerate(tray):
                colour = box.colour_of[k]
                if n and colour >= 0 and leaders[colour] == p:
                    each = box.points[k]
                    label = M("score_tray", count=n, colour=box.colours[colour], icon=box.icons[box.icon_of[k]],
                              each=each, majority=majority)  # fmt: skip
                    terms.append(ScoreTerm(label, float(n * each)))
            players.append(PlayerScore.of(p, terms))
        notes = []
        cobras = [LABELS[p] for p in range(NUM_BASE) if grid[p] == box.cobra]
        if cobras:
            notes.append(M("note_cleared", count=len(cobras), cobras=cobras, places=[LABELS[p] for p in out]))
        counts = [self.ankhs(p) for p in range(g.num_players)]
        for c, name in enumerate(box.colours):
            leader = leaders[c]
            best = max(a[c] for a in counts)
            if leader is not None:
                leads = M("note_leader", colour=name, player=leader + 1, seat=leader, ankhs=best, majority=majority)
                notes.append(leads)
            elif best:
                notes.append(M("note_tie", colour=name, ankhs=best, majority=majority))
            else:
                notes.append(M("note_none", colour=name, majority=majority))
        above = sum(1 for p in range(NUM_BASE, NUM_POSITIONS) if grid[p] >= 0)
        if above and not self.moves:
            notes.append(M("note_above", count=above))
        return ScoreBreakdown(self.current == TERMINAL, tuple(players), tuple(notes))

    # ------------------------------------------------------------------ view
    def view(self, player: int | None = None) -> dict[str, Any]:
        """Everything (Pyramix has no hidden information once the cubes are stacked).

        ``pyramid`` lists the 56 places in index order with their label,
        coordinates and cube (or ``None``); ``removable`` the labels the player to
        move may take; ``collections`` each player's cubes, ankhs per colour and
        points so far; ``leaders`` the ankh leader of each colour (or ``None``).
        """
        g = self.game
        box = g.box
        removable = set(self.moves) if not self.in_setup else set()
        pyramid = []
        for p in _R56:
            k = self.grid[p]
            cube = None
            if k >= 0:
                colour = box.colour_of[k]
                cube = {
                    "code": box.code[k],
                    "name": box.name[k],
                    "colour": box.colours[colour] if colour >= 0 else None,
                    "icon": box.icons[box.icon_of[k]] if colour >= 0 else "cobra",
                    "points": box.points[k],
                }
            pyramid.append({"label": LABELS[p], "pos": list(POSITIONS[p]), "cube": cube, "removable": p in removable})
        collections = []
        for p in range(g.num_players):
            coll = self.collection(p)
            collections.append(
                {
                    "cubes": {box.code[k]: n for k, n in enumerate(coll) if n},
                    "ankhs": dict(zip(box.colours, self.ankhs(p), strict=True)),
                    "points": sum(a * b for a, b in zip(coll, box.points, strict=True)),
                    "taken": sum(coll),
                }
            )
        cur = self.current_player()
        phase = "setup" if self.in_setup else ("over" if cur == TERMINAL else "play")
        out: dict[str, Any] = {
            "game": "pyramix",
            "player": player,
            "players": g.num_players,
            "phase": phase,
            "to_move": cur if cur >= 0 else None,
            "pyramid": pyramid,
            "removable": [LABELS[p] for p in sorted(removable)],
            "collections": collections,
            "leaders": dict(zip(box.colours, self.colour_leaders(), strict=True)),
            "colours": list(box.colours),
            "kinds": [
                {
                    "code": box.code[k],
                    "colour": box.colours[box.colour_of[k]] if k != box.cobra else None,
                    "icon": box.icons[box.icon_of[k]] if k != box.cobra else "cobra",
                    "points": box.points[k],
                }
                for k in range(g.num_kinds)
            ],
            "box": {box.code[k]: n for k, n in enumerate(self.pool) if n},
            "next_place": LABELS[self.fill] if self.in_setup else None,
        }
        if phase == "over":
            out["tray_out"] = [LABELS[p] for p in self.tray_out()]
            out["scores"] = list(self._scores())
            out["ranks"] = list(self.outcome().ranks)
        return out


def check_supported(state: PyramixState) -> list[str]:
    """Cubes above the tray that don't rest on three cubes, and empty tray places (both should never exist)."""
    grid = state.grid
    bad = [LABELS[p] for p in range(NUM_BASE) if grid[p] < 0]
    for p in range(NUM_BASE, NUM_POSITIONS):
        if grid[p] >= 0 and any(grid[DOWN[3 * p + i]] < 0 for i in range(3)):
            bad.append(LABELS[p])
    return bad
