"""Kukulkán's rules, top to bottom like the rulebook (see ``docs/rulings.md``).

A round: the die is rolled (chance, six outcomes); then every player chooses at
the same time (a SIMULTANEOUS node) one action using the rolled number ``n``:

* **draw** a continuous trail of exactly ``n`` undrawn unit segments,
* **write** ``n`` in a blank block whose outline is drawn and whose supports
  are all numbered, if ``n`` is lower than the support (or the sum of two),
* **mark** a numbered, unmarked block showing ``n`` (a pre-numbered base
  block only once its outline is drawn),
* **pass**, only when none of these is possible without a help.

Before the action a player may use one help (each once per game; the
permanent plus/minus one of the base bonus also counts as the round's help):
*same-value* (write a value equal to the support or the sum of two),
*plus-one* (``n`` ± 1, wrapping 6 <-> 1), *super-six* (a rolled 6 becomes 1..5).

A player's round choice is a sequence of atomic decisions (a help, then the
action; a draw segment by segment). It stays pending, and hidden from the other
players, until it is complete; when the last player's choice is complete all
choices are revealed and applied together, then bonuses are checked and the
game ends or the die is rolled again.

Action ids (``S`` segments, ``B`` blocks; 62 and 17 on the shipped sheet):

* ``0 .. S-1``: draw segment ``s`` (the next segment of the trail),
* ``S .. S+B-1``: write in block ``b``;  ``S+B .. S+2B-1``: mark block ``b``,
* ``S+2B``: pass;  ``+1``: help same-value;  ``+2 .. +7``: help plus-one to
  1..6;  ``+8 .. +12``: help super-six to 1..5.

Chance outcome ``k`` is a roll of ``k + 1``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from ziggurat.core.errors import ParseActionError, RecordError
from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State, check_sequence
from ziggurat.core.message import Message
from ziggurat.core.outcome import EndReason, PlayerScore, ScoreBreakdown, ScoreTerm
from ziggurat.core.params import param
from ziggurat.core.spec import GameSpec, OptionSpec
from ziggurat.games.kukulkan.messages import M
from ziggurat.games.kukulkan.sheet import Sheet, load_sheet

DIE = 6

# phases
ROLL, CHOOSE, OVER = range(3)
_PHASES = ("roll", "choose", "over")
# who decides in each phase (the core's hook ``current``, kept beside ``phase``)
_WHO = (CHANCE, SIMULTANEOUS, TERMINAL)

# helps chosen this round (pending) and used helps (bit per one-use help)
H_NONE, H_SAME, H_PLUS, H_SUPER, H_PERM = range(5)
_HELP_NAMES = (None, "same-value", "plus-one", "super-six", "permanent plus-one")
U_SAME, U_PLUS, U_SUPER = 1, 2, 4
_USES = (0, U_SAME, U_PLUS, U_SUPER, 0)  # by pending help: the one-use help it uses up
_USED_NAMES = ((U_SAME, "same-value"), (U_PLUS, "plus-one"), (U_SUPER, "super-six"))

# kinds of action
K_NONE, K_DRAW, K_WRITE, K_MARK, K_PASS = range(5)
_KIND_NAMES = (None, "draw", "write", "mark", "pass")

# bonuses
BASE, AXIS, FULL, AC, BD = 1, 2, 4, 8, 16
NORMAL = BASE | AXIS | FULL
_BONUS_NAMES = ((BASE, "base"), (AXIS, "axis"), (FULL, "full"), (AC, "A-C"), (BD, "B-D"))
AXIS_POINTS = 3

# How a game ends (``KukulkanState.end``: an index of ENDS, NOT_OVER while it goes on), checked at
# each round's end in this order: the rulebook's end, the backstop of the ruling, the safeguard.
# ALL_PASSED is the backstop before the ruling of 2026-11-24; only games saved then end so.
NOT_OVER, END_BONUSES, END_NO_ROLL, END_ROUND_LIMIT, END_ALL_PASSED = -1, 0, 1, 2, 3
ENDS = (
    EndReason("bonuses", M("end_bonuses")),
    EndReason("no-usable-roll", M("end_no_usable_roll"), printed=False),
    EndReason("round-limit", M("end_round_limit"), printed=False),
    EndReason("all-passed", M("end_all_passed"), printed=False),
)
# the end texts states saved before the end codes wrote
_OLD_END_TEXTS = {"the three normal bonuses were claimed": END_BONUSES, "every player had to pass": END_ALL_PASSED}
MAX_ROUNDS = 1000

_ROLLS = tuple((k, 1.0 / DIE) for k in range(DIE))
WITNESSES = 8  # precomputed six-segment trails tried before a search
FIRST_CACHE = 50_000  # from-scratch "which segments begin a trail" answers kept per game


def plus_minus(n: int) -> tuple[int, int]:
    """The two values plus/minus one makes of ``n`` (6 -> 1 or 5, 1 -> 2 or 6), ascending.

    >>> plus_minus(6), plus_minus(1), plus_minus(3)
    ((1, 5), (2, 6), (2, 4))
    """
    lo = n - 1 if n > 1 else DIE
    hi = n + 1 if n < DIE else 1
    return (lo, hi) if lo < hi else (hi, lo)


_PLUS_MINUS = ((), *(plus_minus(n) for n in range(1, DIE + 1)))  # by n


SPEC = GameSpec(
    id="kukulkan",
    name="Kukulkán",
    aliases=("kukulkán",),
    min_players=1,
    max_players=6,
    has_chance=True,
    has_hidden_information=True,
    has_simultaneous_moves=True,
    summary="Roll and write: draw, number and mark the stones of your own El Castillo with a shared die.",
    min_players_note="2–6 players; 1 is a practice mode",
    ends=ENDS,
    options=(
        OptionSpec("sheet", "path", None, help="a TOML sheet to play on instead of the reconstruction"),
        OptionSpec(
            "max-rounds",
            "int",
            MAX_ROUNDS,
            minimum=1,
            maximum=10_000,
            help="safeguard: the game also ends after this round (the rules set no limit)",
        ),
        # the rulebook's numbers (docs/analysis.md, "Parameters")
        param("axis-bonus", "int", AXIS_POINTS, 0, 30, "points for the axis bonus (every axis block marked)"),
    ),
)


# ------------------------------------------------------------------ trails
def _trail_exists(adj: tuple[tuple[tuple[int, int, int], ...], ...], point: int, blocked: int, k: int) -> bool:
    """True if a trail of ``k`` >= 1 segments not in ``blocked`` starts at ``point``."""
    for bit, other, _ in adj[point]:
        if not blocked & bit and (k == 1 or _trail_exists(adj, other, blocked | bit, k - 1)):
            return True
    return False


def _trail_from(adj: tuple[tuple[tuple[int, int, int, int], ...], ...], point: int, blocked: int, k: int) -> bool:
    """:func:`_trail_exists` for ``k`` >= 2 on ``far`` entries (bit, other end, segment, the other segments there).

    The last two segments of a trail are one AND: a segment to ``other``, then any segment
    there that is not blocked (the segment itself is not in ``far``).
    """
    for bit, other, _, far in adj[point]:
        if not blocked & bit and (far & ~blocked if k == 2 else _trail_from(adj, other, blocked | bit, k - 1)):
            return True
    return False


def _trail_find(adj: tuple[tuple[tuple[int, int, int], ...], ...], point: int, blocked: int, k: int) -> int:
    """``blocked`` plus a trail of ``k`` >= 1 segments not in ``blocked`` starting at ``point`` (0: none)."""
    for bit, other, _ in adj[point]:
        if not blocked & bit:
            if k == 1:
                return blocked | bit
            found = _trail_find(adj, other, blocked | bit, k - 1)
            if found:
                return found
    return 0


class TrailTables(NamedTuple):
    """Every trail of 1 to 6 segments on a sheet, each one bit of one integer (see :func:`trail_tables`)."""

    clear: tuple[int, ...]  # per segment: the bits of the trails not through it
    every: int  # all the trail bits
    of_length: tuple[int, ...]  # per n = 0..6: the bits of the trails of n segments
    size: tuple[int, ...]  # per n: the bytes up to the end of the trails of n
    gaps: tuple[slice, ...]  # per n: the bytes holding their gaps, last segment first


_TRAIL_TABLES: dict[tuple[tuple[int, int], ...], TrailTables] = {}
# a byte whose top bit (a gap) is set reads "1", any other "0"
_GAP_DIGITS = bytes(b"1"[0] if byte & 0x80 else b"0"[0] for byte in range(256))


def trail_tables(
    adj: tuple[tuple[tuple[int, int, int], ...], ...], seg_ends: tuple[tuple[int, int], ...]
) -> TrailTables:
    """Every trail of n = 1..6 segments (as a set of segments), one bit each of one integer.

    The trails of n beginning with segment s take a run of bits topped by one unused bit,
    the gap, which is the top bit of a byte; every s has the same number of bytes for one n.
    Adding the trails of n to a set of them carries into the gap of (n, s) exactly when one
    of its trails is in the set, so one addition says which segments begin a trail of n, and
    the gap bytes, read as binary digits, give it as a segment mask. A player's trails clear
    of the drawn segments keep ``clear[x]`` when x is drawn (one AND). Shared by the games on
    one sheet (about 6,000 trails: made in milliseconds).
    """
    key = tuple(seg_ends)
    hit = _TRAIL_TABLES.get(key)
    if hit is not None:
        return hit
    S = len(seg_ends)

    def walk(found: list[set[int]], point: int, mask: int, k: int) -> None:
        found[k].add(mask)
        if k == DIE:
            return
        for bit, other, _ in adj[point]:
            if not mask & bit:
                walk(found, other, mask | bit, k + 1)

    found_by_seg = []
    for s in range(S):
        found: list[set[int]] = [set() for _ in range(DIE + 1)]
        for end in seg_ends[s]:
            walk(found, end, 1 << s, 1)
        found_by_seg.append(found)
    kill = [0] * S
    every = 0
    of_length = [0]
    sizes = [0]
    slices = [slice(0)]
    base = 0  # first byte of the groups of n
    for k in range(1, DIE + 1):
        before = every
        width = max(len(found_by_seg[s][k]) for s in range(S)) // 8 + 1  # bytes per group, room for the gap
        for s in range(S):
            masks = sorted(found_by_seg[s][k])
            top = (base + (s + 1) * width) * 8 - 1  # the gap
            for i, mask in enumerate(masks):
                bit = 1 << (top - len(masks) + i)
                every |= bit
                while mask:
                    low = mask & -mask
                    mask ^= low
                    kill[low.bit_length() - 1] |= bit
        last = base + S * width - 1
        slices.append(slice(last, base - 1 if base else None, -width))
        of_length.append(every ^ before)
        base += S * width
        sizes.append(base)
    out = TrailTables(tuple(every & ~x for x in kill), every, tuple(of_length), tuple(sizes), tuple(slices))
    _TRAIL_TABLES[key] = out
    return out


class KukulkanGame(Game):
    """Kukulkán for 1 (practice) to 6 players on a sheet (the reconstruction by default)."""

    spec = SPEC

    def _configure(self) -> None:
        self.sheet: Sheet = load_sheet(self.options["sheet"])  # type: ignore[arg-type]
        self.axis_points = int(self.options["axis-bonus"])  # type: ignore[arg-type]
        sh = self.sheet
        self.S = S = len(sh.segments)
        self.B = B = len(sh.blocks)
        self.write0 = S
        self.mark0 = S + B
        self.pass_id = S + 2 * B
        self.same_id = self.pass_id + 1
        self.plus0 = self.pass_id + 2  # + value - 1
        self.super0 = self.plus0 + DIE  # + value - 1
        self._num_actions = self.super0 + DIE - 1
        self.seg_bit = tuple(1 << s for s in range(S))
        self.seg_ends = sh.seg_ends
        self.adj = tuple(
            tuple((1 << s, sh.seg_ends[s][1] if sh.seg_ends[s][0] == p else sh.seg_ends[s][0], s) for s in segs)
            for p, segs in enumerate(sh.point_segs)
        )
        # adj_far[point]: (bit, other end, segment, the other segments at that end) per segment there
        self.adj_far = tuple(
            tuple((bit, other, s, sum(1 << x for x in sh.point_segs[other] if x != s)) for bit, other, s in entries)
            for entries in self.adj
        )
        self.outline_mask = tuple(sum(1 << s for s in sh.outline[b]) for b in range(B))
        # outlines_of[s]: the outline masks of the blocks with segment s on their outline
        self.outlines_of = tuple(tuple(o for o in self.outline_mask if o >> s & 1) for s in range(S))
        self.supports = sh.supports
        self.printed = tuple(b.value for b in sh.blocks)
        self.upper = tuple(b for b in range(B) if sh.blocks[b].row > 0)
        self.base_blocks = sh.base
        self.base_mask = sum(1 << b for b in sh.base)
        self.axis_mask = sum(1 << b for b in sh.axis)
        self.all_blocks = (1 << B) - 1
        self.external = tuple(b for b in range(B) if sh.external[b])
        self.A, self.Bk, self.C, self.D = (sh.label(x) for x in "ABCD")
        self.ac_mask = (1 << self.A) | (1 << self.C)
        self.bd_mask = (1 << self.Bk) | (1 << self.D)
        self.witnesses = tuple(self._witnesses(s) for s in range(S))
        # ball[s][k]: segments at most k steps (through shared end points) from s; a trail of
        # n segments beginning with s stays inside ball[s][n - 1].
        touching = [0] * S
        for segs in sh.point_segs:
            m = sum(1 << x for x in segs)
            for x in segs:
                touching[x] |= m
        self.touching = tuple(touching)
        self.full_mask = (1 << S) - 1
        balls = []
        for s in range(S):
            ring = [1 << s]
            for _ in range(DIE):
                cur = ring[-1]
                grown = cur
                for x in range(S):
                    if cur >> x & 1:
                        grown |= touching[x]
                ring.append(grown)
            balls.append(tuple(ring))
        self.ball = tuple(balls)
        # near_bytes[k][i][byte]: the union of ball[s][k] over the segments s = 8i + j of that byte
        near_bytes = []
        for k in range(DIE):
            per_k = []
            for i in range((S + 7) // 8):
                table = [0] * 256
                for byte in range(1, 256):
                    low = byte & -byte
                    s = 8 * i + low.bit_length() - 1
                    table[byte] = table[byte ^ low] | (balls[s][k] if s < S else 0)
                per_k.append(tuple(table))
            near_bytes.append(tuple(per_k))
        self.near_bytes = tuple(near_bytes)
        self._first_cache: dict[int, int] = {}
        self._byte_bits = tuple(
            tuple(tuple(8 * i + j for j in range(8) if byte >> j & 1) for byte in range(256))
            for i in range((S + 7) // 8)
        )
        empty = (((),) * 256,)
        self._byte_bits8 = (self._byte_bits + empty * 8)[:8]
        self._closed_cache: dict[int, int] = {}
        # open_bytes[i][byte]: the blocks with an undrawn segment among the set bits of ``byte``,
        # the i-th byte of an undrawn mask (sheets of up to 64 segments)
        self._open_bytes = tuple(
            tuple(
                sum(1 << b for b, o in enumerate(self.outline_mask) if o >> (8 * i) & 255 & byte) for byte in range(256)
            )
            for i in range(8)
        )
        # Every trail of n <= 6 segments is a bit of one integer (see trail_tables): a player's
        # trails not crossing a drawn segment are narrowed move by move (see _firsts).
        self.trails = trail_tables(self.adj, sh.seg_ends)
        # every player's start, an empty sheet: (drawn mask, trails clear of it, per n the segments
        # beginning one of n, -1 until asked)
        self.alive0 = (0, self.trails.every, [0] + [self.trail_firsts(self.trails.every, n) for n in range(1, DIE + 1)])
        self.upper_mask = sum(1 << b for b in self.upper)
        self.support_mask = tuple(sum(1 << x for x in sh.supports[b]) for b in range(B))
        # Progress is finite: a player's non-pass choice draws >= 1 segment, writes or marks a block.
        self.max_progress = S + len(self.upper) + B
        # Rounds are not: while someone could act on some roll the game goes on, however many rounds
        # go by without progress (see max_game_length). The safeguard bounds them.
        self.max_rounds = int(self.options["max-rounds"])  # type: ignore[arg-type]
        # A bound on the score: every block marked, the axis bonus, then the full bonus and the
        # two first-to-claim differences, each at most the largest value a block can hold (a die
        # value or a printed one, doubled once by same-value stacking on a sum of two).
        top_value = 2 * max(DIE, *self.printed)
        self._score_bounds = (0.0, float(B + 3 + 3 * top_value))

    def trail_firsts(self, trails: int, n: int) -> int:
        """The segments beginning one of ``trails`` (trail bits) of ``n`` segments, as a mask."""
        t = self.trails
        mine = t.of_length[n]
        data = ((trails & mine) + mine).to_bytes(t.size[n], "little")
        return int(data[t.gaps[n]].translate(_GAP_DIGITS), 2)

    def _witnesses(self, s: int) -> tuple[list[int], ...]:
        """For n = 0..6: up to WITNESSES masks of n-segment trails beginning with ``s`` (spread out)."""
        found: list[list[int]] = [[] for _ in range(DIE + 1)]
        adj = self.adj

        def walk(point: int, mask: int, k: int) -> None:
            if mask not in found[k]:
                found[k].append(mask)
            if k == DIE:
                return
            for bit, other, _ in adj[point]:
                if not mask & bit:
                    walk(other, mask | bit, k + 1)

        bit = 1 << s
        for start in self.seg_ends[s]:
            walk(start, bit, 1)
        out = []
        for masks in found:
            if len(masks) > WITNESSES:
                step = len(masks) / WITNESSES
                masks = [masks[int(i * step)] for i in range(WITNESSES)]
            out.append(masks)
        return tuple(out)

    @property
    def score_bounds(self) -> tuple[float, float]:
        """Scores run from 0 to every block marked plus every bonus at its largest."""
        return self._score_bounds

    @property
    def num_actions(self) -> int:
        return self._num_actions

    @property
    def max_chance_outcomes(self) -> int:
        return DIE

    @property
    def max_game_length(self) -> int:
        """R + P x (R + S + progress), R = ``max-rounds`` (see docs/games/kukulkan.md, "Length bound").

        Without the safeguard no bound exists: a game goes on while someone could act on some
        roll, and the die may miss that roll any number of times. With it there are at most R
        rolls, and per player: one decision completing the choice each round (R), the other
        segments of draws (< S in all), and helps, one per round at most and only in a round
        with a draw, a write or a mark, each of which is progress (<= ``max_progress``).
        """
        rounds = self.max_rounds
        return rounds + self.num_players * (rounds + self.S + self.max_progress)

    def new_initial_state(self) -> KukulkanState:
        return KukulkanState(self)

    def _starts_trail(self, s: int, drawn: int, n: int) -> bool:
        """True if a trail of exactly ``n`` undrawn segments can begin with undrawn segment ``s``."""
        for w in self.witnesses[s][n]:
            if not w & drawn:
                return True
        if n == 1 or (self.ball[s][n - 1] & ~drawn).bit_count() < n:
            return n == 1
        blocked = drawn | (1 << s)
        p, q = self.seg_ends[s]
        return _trail_exists(self.adj, p, blocked, n - 1) or _trail_exists(self.adj, q, blocked, n - 1)

    def starts_mask(self, drawn: int, n: int, cand: int) -> int:
        """The segments of ``cand`` (undrawn ones) that can begin a trail of exactly ``n`` undrawn segments."""
        if n == 1:
            return cand
        out = 0
        if n == 2:
            touching = self.touching
            while cand:
                low = cand & -cand
                cand ^= low
                if touching[low.bit_length() - 1] & ~drawn & ~low:
                    out |= low
            return out
        wit = self.witnesses
        ball = self.ball
        adj = self.adj
        ends = self.seg_ends
        k = n - 1
        undrawn = self.full_mask & ~drawn
        while cand:
            low = cand & -cand
            cand ^= low
            s = low.bit_length() - 1
            for w in wit[s][n]:
                if not w & drawn:
                    out |= low
                    break
            else:
                if (ball[s][k] & undrawn).bit_count() < n:
                    continue
                blocked = drawn | low
                p, q = ends[s]
                found = _trail_find(adj, p, blocked, k) or _trail_find(adj, q, blocked, k)
                if found:
                    out |= low
                    # a witness for next time (the lists are a hint: any trail proves the same)
                    ws = wit[s][n]
                    ws.insert(0, found & ~drawn)
                    if len(ws) > WITNESSES:
                        ws.pop()
        return out

    def first_mask(self, drawn: int, n: int) -> int:
        """Bit mask of :meth:`first_segments` (cached by drawn mask and n)."""
        key = drawn << 3 | n
        hit = self._first_cache.get(key)
        if hit is None:
            hit = self.starts_mask(drawn, n, self.full_mask & ~drawn)
            if len(self._first_cache) >= FIRST_CACHE:
                self._first_cache.clear()
            self._first_cache[key] = hit
        return hit

    def bits(self, mask: int) -> list[int]:
        """The set bits of a segment mask, ascending."""
        if self.S <= 64:
            # one table look-up per byte, unrolled: most first masks have a bit in every byte
            t0, t1, t2, t3, t4, t5, t6, t7 = self._byte_bits8
            b = mask.to_bytes(8, "little")
            return [*t0[b[0]], *t1[b[1]], *t2[b[2]], *t3[b[3]], *t4[b[4]], *t5[b[5]], *t6[b[6]], *t7[b[7]]]
        out: list[int] = []
        for i, table in enumerate(self._byte_bits):
            byte = mask >> (i << 3) & 255
            if byte:
                out += table[byte]
        return out

    def first_segments(self, drawn: int, n: int) -> tuple[int, ...]:
        """Segments that can begin a trail of exactly ``n`` undrawn segments (``drawn``: the drawn mask)."""
        return tuple(self.bits(self.first_mask(drawn, n)))

    def closed(self, drawn: int) -> int:
        """Bit mask of the blocks whose whole outline is in ``drawn`` (cached on sheets of over 64 segments)."""
        if self.S <= 64:
            # a block is open if one of its segments is undrawn: one look-up per byte, unrolled
            o0, o1, o2, o3, o4, o5, o6, o7 = self._open_bytes
            u = (self.full_mask & ~drawn).to_bytes(8, "little")
            return self.all_blocks & ~(
                o0[u[0]] | o1[u[1]] | o2[u[2]] | o3[u[3]] | o4[u[4]] | o5[u[5]] | o6[u[6]] | o7[u[7]]
            )
        hit = self._closed_cache.get(drawn)
        if hit is not None:
            return hit
        mask = 0
        for b, o in enumerate(self.outline_mask):
            if drawn & o == o:
                mask |= 1 << b
        if len(self._closed_cache) > 100_000:
            self._closed_cache.clear()
        self._closed_cache[drawn] = mask
        return mask

    def can_draw(self, drawn: int, n: int) -> bool:
        """True if some trail of exactly ``n`` undrawn segments exists."""
        hit = self._first_cache.get(drawn << 3 | n)
        if hit is not None:
            return bool(hit)
        starts = self._starts_trail
        return any(not drawn >> s & 1 and starts(s, drawn, n) for s in range(self.S))


class KukulkanState(State):
    """A Kukulkán position: every player's sheet, the die, the pending choices."""

    __slots__ = (
        "alive",
        "bonus_due",
        "bonus_pts",
        "claims",
        "current",
        "die",
        "drawn",
        "end",
        "helps",
        "last",
        "lcache",
        "marked",
        "numbered",
        "options",
        "p_done",
        "p_end",
        "p_help",
        "p_kind",
        "p_mask",
        "p_target",
        "p_trail",
        "p_val",
        "phase",
        "round",
        "to_move",
        "values",
    )  # fmt: skip

    game: KukulkanGame
    current: int  # the core's hook: who decides, set with every change of phase

    def __init__(self, game: KukulkanGame):
        super().__init__(game)
        n = game.num_players
        self.phase = ROLL
        self.current = CHANCE
        self.die = 0
        self.round = 0
        self.end = NOT_OVER
        self.drawn = [0] * n
        self.values = list(game.printed) * n  # flat: player * B + block; 0 = blank
        self.numbered = [game.base_mask] * n
        self.marked = [0] * n
        self.helps = [0] * n
        self.claims = [0] * n
        self.bonus_pts = [0] * n
        # every player's bonuses are checked at the next round's end, not only the writers' and
        # markers' (a loaded sheet may have earned one unclaimed)
        self.bonus_due = False
        self.last: tuple[Any, ...] | None = None
        # alive[p]: (drawn mask, the trails clear of it, per n the segments beginning one of n)
        # last answered for p; a cache.
        self.alive: list[tuple[int, int, list[int]]] = [game.alive0] * n
        # options[p]: (writes (action, threshold), marks (action, value), bit t for each
        # threshold t, bit m for each value m that a write or a mark would take, the same for
        # writes alone) of p's sheet, None until asked; a cache that _resolve empties when a
        # write or a closed outline changes it, and updates after a mark (see _sheet_options).
        self.options: list[tuple[Any, ...] | None] = [None] * n
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.game.num_players
        self.p_help = [H_NONE] * n
        self.p_val = [self.die] * n
        self.p_kind = [K_NONE] * n
        self.p_target = [-1] * n
        self.p_trail: list[tuple[int, ...]] = [()] * n
        self.p_mask = [0] * n
        self.p_end = [-1] * n
        self.p_done = [False] * n
        self.to_move: tuple[int, ...] = tuple(range(n)) if self.phase == CHOOSE else ()
        self.lcache: list[list[int] | None] = [None] * n

    def _reset_player(self, p: int) -> None:
        self.p_help[p] = H_NONE
        self.p_val[p] = self.die
        self.p_kind[p] = K_NONE
        self.p_target[p] = -1
        self.p_trail[p] = ()
        self.p_mask[p] = 0
        self.p_end[p] = -1
        self.p_done[p] = False
        self.lcache[p] = None
        if p not in self.to_move:
            self.to_move = tuple(sorted((*self.to_move, p)))

    # ---------------------------------------------------------- who decides
    def players_to_move(self) -> tuple[int, ...]:
        """Players whose choice for this round is not complete yet."""
        return self.to_move

    # ---------------------------------------------------------------- chance
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_ROLLS)

    def sample_chance(self, rng: random.Random) -> int:
        return int(rng.random() * DIE)

    def _chance_legal(self, outcome: int) -> bool:
        return outcome in range(DIE)

    # ------------------------------------------------------- what is possible
    def _writable(self, p: int, closed: int | None = None) -> list[tuple[int, int]]:
        """(block, threshold) for every blank block that may take a number: outline drawn, supports numbered.

        ``closed``: ``game.closed(drawn[p])`` if the caller has it.
        """
        g = self.game
        numbered = self.numbered[p]
        if closed is None:
            closed = g.closed(self.drawn[p])
        cand = g.upper_mask & ~numbered & closed
        if not cand:
            return []
        values = self.values
        off = p * g.B
        supports = g.supports
        support_mask = g.support_mask
        out = []
        while cand:
            low = cand & -cand
            cand ^= low
            b = low.bit_length() - 1
            if support_mask[b] & ~numbered:
                continue
            t = 0
            for x in supports[b]:
                t += values[off + x]
            out.append((b, t))
        return out

    def _markable(self, p: int, closed: int | None = None) -> list[tuple[int, int]]:
        """(block, value) for every numbered, unmarked block that may be marked now (base: outline drawn)."""
        g = self.game
        todo = self.numbered[p] & ~self.marked[p]
        if not todo:
            return []
        if closed is None:
            closed = g.closed(self.drawn[p])
        todo &= g.upper_mask | closed
        off = p * g.B
        values = self.values
        out = []
        while todo:
            low = todo & -todo
            todo ^= low
            b = low.bit_length() - 1
            out.append((b, values[off + b]))
        return out

    def could_act(self, p: int) -> bool:
        """True if some die roll, with a help ``p`` still holds, would let ``p`` draw, write or mark.

        Every value 1..6 can be rolled, and plus/minus one (one-use or permanent) and super-six
        only turn the roll into another of them, so they open nothing a roll of that value
        doesn't. Same-value adds one thing: a write equal to its supports, which matters only
        for a single support showing 1 (no lower value exists). So: an undrawn segment (a roll
        of 1 draws it), an unmarked numbered block once the whole sheet is drawn (a roll of its
        value marks it; every outline is closed then), or a writable blank block over supports
        worth 2 or more (a roll of 1 writes it), or worth 1 while same-value is unused.
        """
        g = self.game
        if self.drawn[p] != g.full_mask:
            return True
        if self.numbered[p] & ~self.marked[p]:
            return True
        same = not self.helps[p] & U_SAME
        return any(t > 1 or same for _, t in self._writable(p, g.all_blocks))

    def _anyone_could_act(self) -> bool:
        """True while some player could act on some roll (the backstop's test; see :meth:`could_act`)."""
        full = self.game.full_mask
        for d in self.drawn:  # most of a game: someone has a segment left, and that is the answer
            if d != full:
                return True
        return any(self.could_act(p) for p in range(self.game.num_players))

    def has_permanent(self, p: int) -> bool:
        """True once ``p`` has the base bonus's permanent plus/minus one."""
        return bool(self.claims[p] & BASE)

    def _legal_actions(self, player: int) -> list[int]:
        cached = self.lcache[player]
        if cached is None:
            # half the decisions are a trail's next segment: asked for without a detour
            if self.p_kind[player] == K_DRAW:
                cached = self.lcache[player] = self._continuations(player)
            else:
                cached = self.lcache[player] = self._compute_legal(player)
        return cached

    def _compute_legal(self, p: int) -> list[int]:
        kind = self.p_kind[p]
        if kind == K_DRAW:
            return self._continuations(p)
        if kind != K_NONE:  # a complete choice has a kind
            return []
        g = self.game
        help_ = self.p_help[p]
        n = self.p_val[p]
        o = self.options[p]
        if o is None:
            o = self._sheet_options(p)
        if help_ == H_SAME:
            return [a for a, t in o[0] if t == n]
        # the segments beginning a trail of n clear of the sheet, once per drawn mask and n
        alive = self.alive[p]
        if alive[0] != self.drawn[p]:
            alive = self._narrow(p)
        firsts = alive[2]
        first = firsts[n]
        if first < 0:
            first = firsts[n] = g.trail_firsts(alive[1], n)
        acts = g.bits(first) if first else []
        for a, t in o[0]:
            if t > n:
                acts.append(a)
        for a, v in o[1]:
            if v == n:
                acts.append(a)
        if help_ != H_NONE:
            return acts
        if not acts:
            acts.append(g.pass_id)
        used = self.helps[p]
        if not used & U_SAME and o[2] >> n & 1:
            acts.append(g.same_id)
        perm = self.claims[p] & BASE
        six = self.die == DIE and not used & U_SUPER
        if perm or not used & U_PLUS or six:
            # a help is offered only for a value that opens a write, a mark or a draw (a trail
            # of that length clear of the sheet: one AND)
            usable = o[3]
            trails = alive[1]
            of_length = g.trails.of_length
            if perm or not used & U_PLUS:
                for m in _PLUS_MINUS[n]:
                    if usable >> m & 1 or trails & of_length[m]:
                        acts.append(g.plus0 + m - 1)
            if six:
                for m in range(1, DIE):
                    if usable >> m & 1 or trails & of_length[m]:
                        acts.append(g.super0 + m - 1)
        return acts

    def _sheet_options(self, p: int) -> tuple[Any, ...]:
        """What ``p``'s sheet allows whatever the value (see ``options``), kept until the sheet changes.

        :meth:`_writable` and :meth:`_markable` as action ids, with the values they make usable.
        """
        g = self.game
        closed = g.closed(self.drawn[p])
        write0, mark0 = g.write0, g.mark0
        writes = [(write0 + b, t) for b, t in self._writable(p, closed)]
        marks = [(mark0 + b, v) for b, v in self._markable(p, closed)]
        same = usable = 0
        for _, t in writes:
            same |= 1 << t
            usable |= (1 << t) - 2  # writing m < t: the values 1 .. t - 1
        by_writes = usable
        for _, v in marks:
            usable |= 1 << v
        o = self.options[p] = (writes, marks, same, usable, by_writes)
        return o

    def _narrow(self, p: int) -> tuple[int, int, list[int]]:
        """``p``'s trails clear of the drawn segments, from the last answer (a drawn mask only grows)."""
        drawn = self.drawn[p]
        d0, trails, _ = self.alive[p]
        if d0 & ~drawn:  # not an earlier sheet of this player's: start from the empty one
            d0, trails, _ = self.game.alive0
        new = drawn ^ d0
        clear = self.game.trails.clear
        while new:
            low = new & -new
            new ^= low
            trails &= clear[low.bit_length() - 1]
        # the first segments by length are found when asked; the list belongs to this drawn mask
        # alone, so states sharing it after a copy agree on every entry
        alive = self.alive[p] = (drawn, trails, [-1] * (DIE + 1))
        return alive

    def _continuations(self, p: int) -> list[int]:
        """Segments that continue ``p``'s trail and leave it completable to exactly n."""
        g = self.game
        trail = self.p_trail[p]
        left = self.p_val[p] - len(trail)
        if left <= 0:
            return []
        blocked = self.drawn[p] | self.p_mask[p]
        adj = g.adj_far
        ends = g.seg_ends[trail[0]] if len(trail) == 1 else (self.p_end[p],)
        out = []
        for e in ends:
            for bit, other, s, far in adj[e]:
                if not blocked & bit and (
                    left == 1 or (far & ~blocked if left == 2 else _trail_from(adj, other, blocked | bit, left - 1))
                ):
                    out.append(s)
        if len(ends) == 2:
            out.sort()
        return out

    # ----------------------------------------------------------------- apply
    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self.die = action + 1
            self.round += 1
            self.phase = CHOOSE
            self.current = SIMULTANEOUS
            self._reset_round()
            return
        g = self.game
        p = player
        self.lcache[p] = None
        if action < g.write0:
            trail = self.p_trail[p]
            if not trail:
                self.p_kind[p] = K_DRAW
                trail = (action,)
                self.p_mask[p] = 1 << action
            else:
                a, b = g.seg_ends[action]
                if len(trail) == 1:
                    x, y = g.seg_ends[trail[0]]
                    joint = x if x == a or x == b else y
                else:
                    joint = self.p_end[p]
                self.p_end[p] = b if a == joint else a
                trail = (*trail, action)
                self.p_mask[p] |= 1 << action
            self.p_trail[p] = trail
            if len(trail) == self.p_val[p]:
                self._complete(p)
        elif action < g.mark0:
            self.p_kind[p] = K_WRITE
            self.p_target[p] = action - g.write0
            self._complete(p)
        elif action < g.pass_id:
            self.p_kind[p] = K_MARK
            self.p_target[p] = action - g.mark0
            self._complete(p)
        elif action == g.pass_id:
            self.p_kind[p] = K_PASS
            self._complete(p)
        elif action == g.same_id:
            self.p_help[p] = H_SAME
        elif action < g.super0:
            self.p_help[p] = H_PERM if self.claims[p] & BASE else H_PLUS
            self.p_val[p] = action - g.plus0 + 1
        else:
            self.p_help[p] = H_SUPER
            self.p_val[p] = action - g.super0 + 1

    def _complete(self, p: int) -> None:
        self.p_done[p] = True
        to_move = self.to_move
        if to_move and to_move[0] == p:  # players usually answer in order
            to_move = self.to_move = to_move[1:]
        elif p in to_move:
            i = to_move.index(p)
            to_move = self.to_move = to_move[:i] + to_move[i + 1 :]
        if not to_move:
            self._resolve()

    def _resolve(self) -> None:
        """Reveal and apply every choice, check the bonuses, end the game or roll again."""
        g = self.game
        B = g.B
        # Bonuses hang on the marked and numbered blocks alone: only a write or a mark can
        # earn one, so only those players are checked (everyone after a load, see bonus_due).
        due = -1 if self.bonus_due else 0
        p_help = self.p_help
        helps = self.helps
        clear = g.trails.clear
        options = self.options
        for p, k in enumerate(self.p_kind):
            h = p_help[p]
            if h:
                helps[p] |= _USES[h]
            if k == K_DRAW:
                before = self.drawn[p]
                drawn = self.drawn[p] = before | self.p_mask[p]
                alive = self.alive[p]
                if alive[0] == before:  # narrowed here, where the new segments are at hand
                    trails = alive[1]
                    for s in self.p_trail[p]:
                        trails &= clear[s]
                    self.alive[p] = (drawn, trails, [-1] * (DIE + 1))
                # the sheet's options change only if the trail closes an outline: one with a
                # segment of the trail (a closed outline has none)
                if options[p] is not None:
                    outlines_of = g.outlines_of
                    for s in self.p_trail[p]:
                        for o in outlines_of[s]:
                            if drawn & o == o:
                                options[p] = None
            elif k == K_WRITE:
                b = self.p_target[p]
                self.values[p * B + b] = self.p_val[p]
                self.numbered[p] |= 1 << b
                options[p] = None
                due |= 1 << p
            elif k == K_MARK:
                b = self.p_target[p]
                self.marked[p] |= 1 << b
                was = options[p]
                if was is not None:
                    # a mark changes only what can be marked: the block leaves the list
                    a = g.mark0 + b
                    marks = [x for x in was[1] if x[0] != a]
                    usable = was[4]
                    for _, v in marks:
                        usable |= 1 << v
                    options[p] = (was[0], marks, was[2], usable, was[4])
                due |= 1 << p
        self.last = (self.p_help, self.p_val, self.p_kind, self.p_target, self.p_trail)
        # with no bonus due none was claimed, and the three normal ones were not all claimed
        # before (the game would be over)
        if due and self._check_bonuses(due) & NORMAL == NORMAL:
            self.end = END_BONUSES
        elif not self._anyone_could_act():
            self.end = END_NO_ROLL
        elif self.round >= g.max_rounds:
            self.end = END_ROUND_LIMIT
        over = self.end != NOT_OVER
        self.phase = OVER if over else ROLL
        self.current = TERMINAL if over else CHANCE
        self.die = 0
        # The pending lists now belong to ``last``; the roll starts fresh ones.
        self.to_move = ()

    def _check_bonuses(self, due: int) -> int:
        """Give the players of bit mask ``due`` the bonuses they now earn; the bonuses claimed by anyone."""
        g = self.game
        B = g.B
        values = self.values
        claims = self.claims
        claimed = 0
        for c in claims:
            claimed |= c
        ac_open = not claimed & AC
        bd_open = not claimed & BD
        self.bonus_due = False
        for p in range(g.num_players):
            if not due >> p & 1:
                continue
            c = claims[p]
            m = self.marked[p]
            off = p * B
            if not c & BASE and g.base_mask & ~m == 0:
                c |= BASE
            if not c & AXIS and g.axis_mask & ~m == 0:
                c |= AXIS
                self.bonus_pts[p] += g.axis_points
            if not c & FULL and self.numbered[p] == g.all_blocks:
                c |= FULL
                self.bonus_pts[p] += max(values[off + b] for b in g.external)
            if ac_open and m & g.ac_mask == g.ac_mask:
                c |= AC
                self.bonus_pts[p] += abs(values[off + g.C] - values[off + g.A])
            if bd_open and m & g.bd_mask == g.bd_mask:
                c |= BD
                self.bonus_pts[p] += abs(values[off + g.D] - values[off + g.Bk])
            claims[p] = c
            claimed |= c
        return claimed

    # ------------------------------------------------------------ why not
    def _why_illegal(self, action: int, player: int) -> Message:
        """Why ``action`` is not legal for ``player`` now (see :meth:`State.why_illegal`): every refusal, by rule."""
        g = self.game
        if player == CHANCE:  # every roll is possible at a roll: only asked at no other node
            return super()._why_illegal(action, player)
        p = player
        n = self.p_val[p]
        if self.p_kind[p] == K_DRAW:
            if action >= g.write0:
                return M("trail_finish", done=len(self.p_trail[p]), n=n)
            return self._why_not_continue(p, action)
        help_ = self.p_help[p]
        if help_ != H_NONE and action >= g.pass_id:
            return M("help_chosen", help=self._help_message(help_))
        if help_ == H_SAME and not g.write0 <= action < g.mark0:
            return M("same_write")
        if action < g.write0:
            if self.drawn[p] >> action & 1:
                return M("drawn", segment=self._segment_message(action))
            return M("no_trail", n=n, segment=self._segment_message(action))
        if action < g.mark0:
            return self._why_not_write(p, action - g.write0, n, help_ == H_SAME)
        if action < g.pass_id:
            return self._why_not_mark(p, action - g.mark0, n)
        if action == g.pass_id:
            return M("pass_possible", n=n)
        used = self.helps[p]
        if action == g.same_id:
            if used & U_SAME:
                return M("help_used", help=self._help_message(H_SAME))
            return M("same_no_block", n=n)
        if action < g.super0:
            m = action - g.plus0 + 1
            if used & U_PLUS and not self.claims[p] & BASE:
                return M("help_used", help=self._help_message(H_PLUS))
            if m not in plus_minus(n):
                low, high = plus_minus(n)
                return M("plus_not_next", n=n, low=low, high=high, m=m)
            return M("help_useless", m=m)
        m = action - g.super0 + 1
        if used & U_SUPER:
            return M("help_used", help=self._help_message(H_SUPER))
        if self.die != DIE:
            return M("super_not_six", die=self.die)
        return M("help_useless", m=m)

    def _why_not_continue(self, p: int, s: int) -> Message:
        g = self.game
        trail = self.p_trail[p]
        n = self.p_val[p]
        segment = self._segment_message(s)
        if self.drawn[p] >> s & 1:
            return M("drawn", segment=segment)
        if self.p_mask[p] >> s & 1:
            return M("trail_repeat", segment=segment)
        ends = g.seg_ends[trail[0]] if len(trail) == 1 else (self.p_end[p],)
        if not set(g.seg_ends[s]) & set(ends):
            points = [self._point_text(e) for e in ends]
            if len(points) == 2:
                return M("trail_not_next_two", segment=segment, left=points[0], right=points[1])
            return M("trail_not_next", segment=segment, point=points[0])
        return M("trail_dead_end", segment=segment, n=n)

    def _why_not_write(self, p: int, b: int, n: int, same: bool) -> Message:
        g = self.game
        block = self._block_message(b)
        value = self.values[p * g.B + b]
        if g.printed[b]:
            return M("write_base", block=block, value=value)
        if self.numbered[p] >> b & 1:
            return M("write_numbered", block=block, value=value)
        missing = [self._segment_message(s) for s in g.sheet.outline[b] if not self.drawn[p] >> s & 1]
        if missing:
            return M("write_outline", block=block, missing=missing, count=len(missing))
        blank = [self._block_message(x) for x in g.supports[b] if not self.numbered[p] >> x & 1]
        if blank:
            return M("write_supports", block=block, blank=blank, count=len(blank))
        total = sum(self.values[p * g.B + x] for x in g.supports[b])
        two = len(g.supports[b]) == 2
        if same:
            return M("write_same_two" if two else "write_same_one", n=n, total=total)
        return M("write_not_lower_two" if two else "write_not_lower_one", n=n, total=total)

    def _why_not_mark(self, p: int, b: int, n: int) -> Message:
        g = self.game
        block = self._block_message(b)
        if not self.numbered[p] >> b & 1:
            return M("mark_blank", block=block)
        if self.marked[p] >> b & 1:
            return M("mark_marked", block=block)
        v = self.values[p * g.B + b]
        if v != n:
            return M("mark_value", block=block, value=v, n=n)
        missing = [self._segment_message(s) for s in g.sheet.outline[b] if not self.drawn[p] >> s & 1]
        return M("mark_base_outline", block=block, missing=missing, count=len(missing))

    def _segment_message(self, s: int) -> Message:
        ends = self.game.seg_ends[s]
        return M("segment", segment=s, points=[list(self.game.sheet.points[e]) for e in ends])

    def _block_message(self, b: int) -> Message:
        label = self.game.sheet.blocks[b].label
        return M("block_labelled", block=b, label=label) if label else M("block", block=b)

    def _point_text(self, point: int) -> str:
        x, y = self.game.sheet.points[point]
        return f"({x}, {y})"

    @staticmethod
    def _help_message(help_: int) -> Message:
        return M(("", "help_same", "help_plus", "help_super", "help_perm")[help_])

    # ------------------------------------------------------ what a choice did
    def _describe(self, action: int, player: int, audience: int | None) -> Message:
        """What the legal ``action`` does (see :meth:`State.describe_action`).

        The core withholds another player's choice until the round is revealed;
        what is left here is public once it is.
        """
        g = self.game
        if player == CHANCE:
            return M("chance_roll", n=action + 1)
        p = player
        n = self.p_val[p]
        if action < g.write0:
            done = len(self.p_trail[p]) + 1
            if done == 1:
                return M("draw_first", n=n, segment=self._segment_message(action))
            return M("draw_next", segment=self._segment_message(action), done=done, n=n)
        if action < g.mark0:
            return M("write", n=n, block=self._block_message(action - g.write0))
        if action < g.pass_id:
            b = action - g.mark0
            return M("mark", block=self._block_message(b), value=self.values[p * g.B + b])
        if action == g.pass_id:
            return M("pass")
        if action == g.same_id:
            return M("use_same")
        if action < g.super0:
            return M("use_perm" if self.claims[p] & BASE else "use_plus", die=self.die, m=action - g.plus0 + 1)
        return M("use_super", m=action - g.super0 + 1)

    # ------------------------------------------------------------------ text
    def _action_text(self, action: int, player: int) -> str:
        g = self.game
        if player == CHANCE:
            return f"roll {action + 1}"
        if action < g.write0:
            return f"draw s{action}"
        if action < g.mark0:
            return f"write b{action - g.write0}"
        if action < g.pass_id:
            return f"mark b{action - g.mark0}"
        if action == g.pass_id:
            return "pass"
        if action == g.same_id:
            return "help same-value"
        if action < g.super0:
            return f"help plus-one {action - g.plus0 + 1}"
        if action < g.num_actions:
            return f"help super-six {action - g.super0 + 1}"
        raise ParseActionError(f"{action} is not an action id of Kukulkán")

    def _parse(self, text: str, player: int) -> int:
        g = self.game
        words = text.split()
        if player == CHANCE:
            if len(words) == 2 and words[0] == "roll" and words[1] in ("1", "2", "3", "4", "5", "6"):
                return int(words[1]) - 1
            raise ParseActionError(f"{text!r} is not a die roll (roll 1 .. roll 6)")
        if words == ["pass"]:
            return g.pass_id
        if len(words) == 2 and words[0] == "draw":
            return self._number(words[1], "s", g.S, "segment")
        if len(words) == 2 and words[0] in ("write", "mark"):
            b = self._block(words[1])
            return (g.write0 if words[0] == "write" else g.mark0) + b
        if words[:1] == ["help"]:
            if words[1:] in (["same-value"], ["same", "value"]):
                return g.same_id
            if len(words) == 3 and words[1] in ("plus-one", "super-six") and words[2].isdigit():
                m = int(words[2])
                if words[1] == "plus-one":
                    if not 1 <= m <= DIE:
                        raise ParseActionError("plus/minus one gives a value from 1 to 6")
                    return g.plus0 + m - 1
                if not 1 <= m < DIE:
                    raise ParseActionError("super-six turns the 6 into 1, 2, 3, 4 or 5")
                return g.super0 + m - 1
            raise ParseActionError(f"{text!r} is not a help (help same-value, help plus-one N, help super-six N)")
        raise ParseActionError(
            f"{text!r} is not a Kukulkán action (try: draw s12, write b7, mark b3, pass, "
            "help plus-one 5, help super-six 3, help same-value)"
        )

    def _number(self, word: str, prefix: str, limit: int, what: str) -> int:
        digits = word[1:] if word.startswith(prefix) else word
        if not digits.isdigit() or not 0 <= int(digits) < limit:
            raise ParseActionError(f"there is no {what} {word!r} ({what}s are {prefix}0 .. {prefix}{limit - 1})")
        return int(digits)

    def _block(self, word: str) -> int:
        if word in ("a", "b", "c", "d"):
            return self.game.sheet.label(word.upper())
        return self._number(word, "b", self.game.B, "block")

    # ----------------------------------------------------------------- state
    def _copy(self) -> KukulkanState:
        new = KukulkanState.__new__(KukulkanState)
        new.game = self.game
        new.phase = self.phase
        new.current = self.current
        new.die = self.die
        new.round = self.round
        new.end = self.end
        new.drawn = self.drawn.copy()
        new.values = self.values.copy()
        new.numbered = self.numbered.copy()
        new.marked = self.marked.copy()
        new.helps = self.helps.copy()
        new.claims = self.claims.copy()
        new.bonus_pts = self.bonus_pts.copy()
        new.bonus_due = self.bonus_due
        new.p_help = self.p_help.copy()
        new.p_val = self.p_val.copy()
        new.p_kind = self.p_kind.copy()
        new.p_target = self.p_target.copy()
        new.p_trail = self.p_trail.copy()
        new.p_mask = self.p_mask.copy()
        new.p_end = self.p_end.copy()
        new.p_done = self.p_done.copy()
        new.to_move = self.to_move
        new.lcache = self.lcache.copy()
        new.alive = self.alive.copy()
        new.options = self.options.copy()
        new.last = self.last
        return new

    def _resample(self, player: int | None, rng: random.Random) -> KukulkanState:
        """A state consistent with ``player``'s view: the other players' pending choices redrawn.

        A player whose choice is complete (the view says so) gets a random complete legal
        choice; one still choosing gets an empty one.
        """
        new = self._copy()
        if self.phase != CHOOSE:
            return new
        for q in range(self.game.num_players):
            if q == player:
                continue
            new._reset_player(q)
            if self.p_done[q]:
                while not new.p_done[q]:
                    legal = new._legal_actions(q)
                    a = legal[int(rng.random() * len(legal))]
                    new._apply(a, q)
        return new

    def _pending_json(self, p: int, help_: int, val: int, kind: int, target: int, trail: tuple[int, ...]) -> dict:
        return {
            "help": _HELP_NAMES[help_],
            "value": val or None,
            "kind": _KIND_NAMES[kind],
            "block": target if target >= 0 else None,
            "trail": list(trail),
        }

    def _dump(self) -> dict[str, Any]:
        g = self.game
        B = g.B
        players = []
        for p in range(g.num_players):
            players.append({
                "drawn": [s for s in range(g.S) if self.drawn[p] >> s & 1],
                "values": self.values[p * B : (p + 1) * B],
                "marked": [b for b in range(B) if self.marked[p] >> b & 1],
                "helps_used": [name for bit, name in _USED_NAMES if self.helps[p] & bit],
                "bonuses": [name for bit, name in _BONUS_NAMES if self.claims[p] & bit],
            })  # fmt: skip
        if self.phase == CHOOSE:
            pending = [
                self._pending_json(p, self.p_help[p], self.p_val[p], self.p_kind[p], self.p_target[p], self.p_trail[p])
                for p in range(g.num_players)
            ]
        else:
            pending = [self._pending_json(p, H_NONE, 0, K_NONE, -1, ()) for p in range(g.num_players)]
        last = None
        if self.last is not None:
            h, v, k, t, tr = self.last
            last = [self._pending_json(p, h[p], v[p], k[p], t[p], tr[p]) for p in range(g.num_players)]
        return {
            "phase": _PHASES[self.phase],
            "round": self.round,
            "die": self.die or None,
            "end": ENDS[self.end].code if self.end != NOT_OVER else None,
            "players": players,
            "pending": pending,
            "last_round": last,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        g = self.game
        n = g.num_players
        B = g.B
        if data["phase"] not in _PHASES:
            raise RecordError(f"unknown phase {data['phase']!r}")
        self.phase = _PHASES.index(data["phase"])
        self.current = _WHO[self.phase]
        self.round = int(data["round"])
        die = data["die"]
        self.die = 0 if die is None else int(die)
        if (self.phase == CHOOSE) != (1 <= self.die <= DIE) or self.round < 0:
            raise RecordError("saved Kukulkán state: the die must show 1..6 exactly while players choose")
        ends = {e.code: i for i, e in enumerate(ENDS)} | _OLD_END_TEXTS | {None: NOT_OVER}
        end = data["end"]
        if not isinstance(end, (str, type(None))) or end not in ends or (self.phase == OVER) != (end is not None):
            raise RecordError(f"saved Kukulkán state: bad end reason {end!r}")
        self.end = ends[end]
        if self.round > g.max_rounds or (self.round == g.max_rounds and self.phase == ROLL):
            raise RecordError(f"saved Kukulkán state: round {self.round} is past the round limit, {g.max_rounds}")
        players = check_sequence("players", data["players"], n)
        self.values = []
        self.drawn, self.numbered, self.marked, self.helps, self.claims = [], [], [], [], []
        for p, pl in enumerate(players):
            drawn = self._mask(pl["drawn"], g.S, "drawn segments")
            values = check_sequence("values", pl["values"], B)
            vals = [int(v) for v in values]
            for b in range(B):
                if g.printed[b] and vals[b] != g.printed[b]:
                    raise RecordError(f"saved Kukulkán state: base block b{b} must show {g.printed[b]}")
                if not 0 <= vals[b] <= DIE:
                    raise RecordError(f"saved Kukulkán state: block b{b} has value {vals[b]}")
            numbered = sum(1 << b for b in range(B) if vals[b])
            for b in g.upper:
                if numbered >> b & 1 and (
                    drawn & g.outline_mask[b] != g.outline_mask[b] or any(not vals[s] for s in g.supports[b])
                ):
                    raise RecordError(f"saved Kukulkán state: player {p + 1}'s b{b} is numbered before its time")
            marked = self._mask(pl["marked"], B, "marked blocks")
            if marked & ~numbered:
                raise RecordError(f"saved Kukulkán state: player {p + 1} marked a blank block")
            for b in g.base_blocks:
                if marked >> b & 1 and drawn & g.outline_mask[b] != g.outline_mask[b]:
                    raise RecordError(f"saved Kukulkán state: player {p + 1} marked base block b{b} before closing it")
            helps = self._names(pl["helps_used"], _USED_NAMES, "helps")
            claims = self._names(pl["bonuses"], _BONUS_NAMES, "bonuses")
            self.values.extend(vals)
            self.drawn.append(drawn)
            self.numbered.append(numbered)
            self.marked.append(marked)
            self.helps.append(helps)
            self.claims.append(claims)
        self.bonus_pts = [self._bonus_points(p) for p in range(n)]
        self.bonus_due = True
        self._reset_round()
        pending = check_sequence("pending", data["pending"], n)
        for p, pd in enumerate(pending):
            self._load_pending(p, pd)
        if self.phase == CHOOSE:
            self.to_move = tuple(p for p in range(n) if not self.p_done[p])
            if not self.to_move:
                raise RecordError("saved Kukulkán state: every choice is complete but the round is not resolved")
        elif any(self.p_kind[p] != K_NONE or self.p_help[p] != H_NONE for p in range(n)):
            raise RecordError("saved Kukulkán state: a choice is pending outside a round")
        last = data["last_round"]
        if last is None:
            self.last = None
        else:
            # the round in progress (who is still to move included) survives loading the last one
            keep = (self.p_help, self.p_val, self.p_kind, self.p_target, self.p_trail, self.p_mask,
                    self.p_end, self.p_done, self.to_move)  # fmt: skip
            self._reset_round()
            for p, pd in enumerate(check_sequence("last_round", last, n)):
                self._load_pending(p, pd, check=False)
            self.last = (self.p_help, self.p_val, self.p_kind, self.p_target, self.p_trail)
            (self.p_help, self.p_val, self.p_kind, self.p_target, self.p_trail, self.p_mask,
             self.p_end, self.p_done, self.to_move) = keep  # fmt: skip
        self.lcache = [None] * n
        self.alive = [g.alive0] * n
        self.options = [None] * n
        self._check_end()

    def _check_end(self) -> None:
        """A saved game that is over must have ended as it says (a RecordError if not)."""
        end = self.end
        if end == NOT_OVER:
            return
        claimed = 0
        for c in self.claims:
            claimed |= c
        if end == END_BONUSES:
            ok = claimed & NORMAL == NORMAL
        elif end == END_NO_ROLL:
            ok = not self._anyone_could_act()
        elif end == END_ROUND_LIMIT:
            ok = self.round == self.game.max_rounds
        else:  # the earlier backstop: a round in which every player passed
            ok = self.last is not None and all(k == K_PASS for k in self.last[2])
        if not ok:
            raise RecordError(f"saved Kukulkán state: the game did not end as it says ({ENDS[end].text})")

    def _reached_by(self, replay: State) -> bool:
        """A game over by the backstop before 2026-11-24 is reached by a replay that left it going on."""
        mine = self._dump()
        if self.end == END_ALL_PASSED and isinstance(replay, KukulkanState) and replay.phase == ROLL:
            # the same sheets and round, the game going on under today's end rule
            mine["phase"], mine["end"] = _PHASES[ROLL], None
        return replay._dump() == mine

    def _load_pending(self, p: int, pd: Mapping[str, Any], check: bool = True) -> None:
        g = self.game
        helps = {name: i for i, name in enumerate(_HELP_NAMES)}
        kinds = {name: i for i, name in enumerate(_KIND_NAMES)}
        if pd["help"] not in helps or pd["kind"] not in kinds:
            raise RecordError(f"saved Kukulkán state: bad pending choice of player {p + 1}")
        self.p_help[p] = helps[pd["help"]]
        self.p_kind[p] = kinds[pd["kind"]]
        self.p_val[p] = 0 if pd["value"] is None else int(pd["value"])
        self.p_target[p] = -1 if pd["block"] is None else int(pd["block"])
        trail = tuple(int(s) for s in check_sequence("trail", pd["trail"]))
        if not check:
            self.p_trail[p] = trail
            return
        if self.phase == CHOOSE and not 1 <= self.p_val[p] <= DIE:
            raise RecordError(f"saved Kukulkán state: player {p + 1} is choosing without a value")
        if self.p_kind[p] in (K_WRITE, K_MARK) and not 0 <= self.p_target[p] < g.B:
            raise RecordError(f"saved Kukulkán state: player {p + 1}'s choice names no block")
        if (self.p_kind[p] == K_DRAW) != bool(trail) or len(trail) > self.p_val[p]:
            raise RecordError(f"saved Kukulkán state: player {p + 1}'s trail does not match the choice")
        # replay the trail to check it and find its end
        self.p_trail[p] = ()
        self.p_kind[p] = K_NONE
        for s in trail:
            if not 0 <= s < g.S or (
                s not in self._continuations(p)
                if self.p_trail[p]
                else s not in g.first_segments(self.drawn[p], self.p_val[p])
            ):
                raise RecordError(f"saved Kukulkán state: player {p + 1}'s trail is not a trail at s{s}")
            if self.drawn[p] >> s & 1:
                raise RecordError(f"saved Kukulkán state: player {p + 1}'s trail redraws s{s}")
            # like _apply, without completing
            a, b = g.seg_ends[s]
            if self.p_trail[p]:
                if len(self.p_trail[p]) == 1:
                    x, y = g.seg_ends[self.p_trail[p][0]]
                    joint = x if x in (a, b) else y
                else:
                    joint = self.p_end[p]
                self.p_end[p] = b if a == joint else a
            self.p_trail[p] = (*self.p_trail[p], s)
            self.p_mask[p] |= 1 << s
            self.p_kind[p] = K_DRAW
        kind = self.p_kind[p] = kinds[pd["kind"]]
        self.p_done[p] = kind in (K_WRITE, K_MARK, K_PASS) or (kind == K_DRAW and len(trail) == self.p_val[p])

    def _mask(self, items: object, limit: int, what: str) -> int:
        seq = check_sequence(what, items)
        mask = 0
        for x in seq:
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < limit or mask >> x & 1:
                raise RecordError(f"saved Kukulkán state: bad entry {x!r} in {what}")
            mask |= 1 << x
        return mask

    def _names(self, items: object, table: tuple[tuple[int, str], ...], what: str) -> int:
        known = dict((name, bit) for bit, name in table)
        mask = 0
        for x in check_sequence(what, items):
            if x not in known:
                raise RecordError(f"saved Kukulkán state: unknown {what} entry {x!r}")
            mask |= known[x]
        return mask

    def _bonus_points(self, p: int) -> int:
        g = self.game
        c = self.claims[p]
        v = self.values[p * g.B : (p + 1) * g.B]
        m = self.marked[p]
        conditions = (
            (BASE, g.base_mask & ~m == 0),
            (AXIS, g.axis_mask & ~m == 0),
            (FULL, self.numbered[p] == g.all_blocks),
            (AC, m & g.ac_mask == g.ac_mask),
            (BD, m & g.bd_mask == g.bd_mask),
        )
        for bit, ok in conditions:
            if c & bit and not ok:
                raise RecordError(f"saved Kukulkán state: player {p + 1} claims a bonus not earned")
        pts = 0
        if c & AXIS:
            pts += g.axis_points
        if c & FULL:
            pts += max(v[b] for b in g.external)
        if c & AC:
            pts += abs(v[g.C] - v[g.A])
        if c & BD:
            pts += abs(v[g.D] - v[g.Bk])
        return pts

    # ------------------------------------------------------------------ view
    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` sees (``None``: a spectator).

        Every sheet is public (players can look at each other's pyramids and bonuses
        are announced). Hidden: the other players' choices this round, until all are
        in; only whether each player's choice is complete is shown.
        """
        g = self.game
        B = g.B
        sheets = []
        for p in range(g.num_players):
            sheets.append({
                "drawn": [s for s in range(g.S) if self.drawn[p] >> s & 1],
                "values": [v or None for v in self.values[p * B : (p + 1) * B]],
                "marked": [b for b in range(B) if self.marked[p] >> b & 1],
                "helps_used": [name for bit, name in _USED_NAMES if self.helps[p] & bit],
                "permanent_plus_minus": bool(self.claims[p] & BASE),
                "bonuses": [name for bit, name in _BONUS_NAMES if self.claims[p] & bit],
                "bonus_points": self.bonus_pts[p],
                "marked_count": self.marked[p].bit_count(),
                "score": self.score(p),
            })  # fmt: skip
        choice = None
        if player is not None and 0 <= player < g.num_players and self.phase == CHOOSE:
            p = player
            choice = self._pending_json(p, self.p_help[p], self.p_val[p], self.p_kind[p], self.p_target[p],
                                        self.p_trail[p])  # fmt: skip
            choice["complete"] = self.p_done[p]
        last = None
        if self.last is not None:
            h, v, k, t, tr = self.last
            last = [self._pending_json(p, h[p], v[p], k[p], t[p], tr[p]) for p in range(g.num_players)]
        claimed = [[p for p in range(g.num_players) if self.claims[p] & bit] for bit, _ in _BONUS_NAMES]
        out: dict[str, Any] = {
            "game": "kukulkan",
            "player": player,
            "players": g.num_players,
            "phase": _PHASES[self.phase],
            "round": self.round,
            "max_rounds": g.max_rounds,
            "die": self.die or None,
            "sheet": g.sheet.to_json(),
            "sheets": sheets,
            "chosen": list(self.p_done) if self.phase == CHOOSE else [False] * g.num_players,
            "to_move": list(self.to_move),
            "choice": choice,
            "last_round": last,
            "claimed_by": {name: who for (_, name), who in zip(_BONUS_NAMES, claimed, strict=True)},
        }
        if self.phase == OVER:
            out["end"] = ENDS[self.end].to_json()
            out["scores"] = list(self._scores())
            out["ranks"] = list(self.outcome().ranks)
        return out

    # --------------------------------------------------------------- scoring
    def score(self, player: int) -> int:
        """Points so far: 1 per marked numbered block plus bonuses."""
        return self.marked[player].bit_count() + self.bonus_pts[player]

    def _scores(self) -> tuple[float, ...]:
        return tuple(float(self.score(p)) for p in range(self.game.num_players))

    def _end_reason(self) -> EndReason:
        return ENDS[self.end]

    def _rank_keys(self) -> list[tuple[float, ...]]:
        return [(float(self.score(p)), float(self.marked[p].bit_count())) for p in range(self.game.num_players)]

    # ----------------------------------------------------- score breakdown
    def _score_breakdown(self, audience: int | None) -> ScoreBreakdown:
        """Per player: the marked blocks, then each bonus claimed (the base bonus gives a help, no points).

        Before the end it is the score so far. Every sheet is public; the choices
        of the running round are not on the sheets yet.
        """
        g = self.game
        players = []
        for p in range(g.num_players):
            v = self.values[p * g.B : (p + 1) * g.B]
            c = self.claims[p]
            count = self.marked[p].bit_count()
            terms = [ScoreTerm(M("score_marked", count=count), float(count))]
            if c & BASE:
                terms.append(ScoreTerm(M("score_base"), 0.0))
            if c & AXIS:
                terms.append(ScoreTerm(M("score_axis"), float(g.axis_points)))
            if c & FULL:
                top = max(v[b] for b in g.external)
                terms.append(ScoreTerm(M("score_full", value=top), float(top)))
            if c & AC:
                terms.append(ScoreTerm(M("score_ac", c=v[g.C], a=v[g.A]), float(abs(v[g.C] - v[g.A]))))
            if c & BD:
                terms.append(ScoreTerm(M("score_bd", d=v[g.D], b=v[g.Bk]), float(abs(v[g.D] - v[g.Bk]))))
            players.append(PlayerScore.of(p, terms))
        return ScoreBreakdown(self.phase == OVER, tuple(players), (M("note_tie"),))
