"""The pyramid's geometry: 56 places of a three-sided pyramid of cubes standing on a corner.

A place is ``(x, y, z)``, whole numbers >= 0 with ``x + y + z <= 5``. The 21 places
with ``x + y + z = 5`` are the base layer, in the tray. A cube at ``p`` rests on
``p + ex``, ``p + ey``, ``p + ez`` (its *supports*); the cubes resting on it are at
``p - ex``, ``p - ey``, ``p - ez`` (the places its three upper faces look at).

Layers are lettered from the tray up: ``a`` (21 places), ``b`` (15), ``c`` (10),
``d`` (6), ``e`` (3), ``f`` (the top cube). In a layer, places are numbered in
reading order of its triangle: row ``x = s`` (one place) first, then row ``s - 1``
and so on, each row by increasing ``y``. The place index (the action id) runs
through layer ``a`` first, so ``a1`` is 0 and ``f1`` is 55.

Drawn as upright triangles, a cube sits over the three places (row ``x + 1``,
column ``y``), (row ``x``, column ``y``) and (row ``x``, column ``y + 1``) of the
layer below.

>>> LABELS[0], POSITIONS[0], LABELS[55], POSITIONS[55]
('a1', (5, 0, 0), 'f1', (0, 0, 0))
>>> [LABELS[q] for q in SUPPORTS[INDEX[(0, 0, 0)]]]
['e1', 'e3', 'e2']
"""

from __future__ import annotations

HEIGHT = 5  # x + y + z of the base layer
LAYER_LETTERS = "abcdef"


def _positions() -> list[tuple[int, int, int]]:
    out = []
    for s in range(HEIGHT, -1, -1):
        for x in range(s, -1, -1):
            for y in range(s - x + 1):
                out.append((x, y, s - x - y))
    return out


POSITIONS: tuple[tuple[int, int, int], ...] = tuple(_positions())
NUM_POSITIONS = len(POSITIONS)  # 56
INDEX: dict[tuple[int, int, int], int] = {p: i for i, p in enumerate(POSITIONS)}
NUM_BASE = sum(1 for p in POSITIONS if sum(p) == HEIGHT)  # 21; indices 0..20


def _layer(p: tuple[int, int, int]) -> int:
    return HEIGHT - sum(p)


LAYER: tuple[int, ...] = tuple(_layer(p) for p in POSITIONS)  # 0 = tray .. 5 = top


def _labels() -> list[str]:
    labels = []
    counter = [0] * (HEIGHT + 1)
    for p in POSITIONS:
        h = _layer(p)
        counter[h] += 1
        labels.append(f"{LAYER_LETTERS[h]}{counter[h]}")
    return labels


LABELS: tuple[str, ...] = tuple(_labels())
LABEL_INDEX: dict[str, int] = {label: i for i, label in enumerate(LABELS)}
LAYER_SIZES: tuple[int, ...] = tuple(LAYER.count(h) for h in range(HEIGHT + 1))


def _shift(p: tuple[int, int, int], axis: int, d: int) -> int:
    q = list(p)
    q[axis] += d
    t = (q[0], q[1], q[2])
    return INDEX.get(t, -1) if min(t) >= 0 else -1


# UP[3 * p + i]: the place p - e_i (resting on p through its face i), or -1 off the pyramid.
UP: list[int] = [_shift(p, i, -1) for p in POSITIONS for i in range(3)]
# DOWN[3 * p + i]: the place p + e_i (a support of p), or -1 for a base cube.
DOWN: list[int] = [_shift(p, i, +1) for p in POSITIONS for i in range(3)]
# SUPPORTS[p]: the supports that exist (three, none for the base).
SUPPORTS: list[tuple[int, ...]] = [tuple(q for q in DOWN[3 * p : 3 * p + 3] if q >= 0) for p in range(NUM_POSITIONS)]
# FACES[p]: every place touching p on one of its six faces (p ± e_i).
FACES: list[tuple[int, ...]] = [
    tuple(q for q in UP[3 * p : 3 * p + 3] + DOWN[3 * p : 3 * p + 3] if q >= 0) for p in range(NUM_POSITIONS)
]


def _tray_neighbours(p: tuple[int, int, int]) -> tuple[int, ...]:
    out = []
    for i in range(3):
        for j in range(3):
            if i != j:
                q = list(p)
                q[i] += 1
                q[j] -= 1
                if min(q) >= 0:
                    out.append(INDEX[(q[0], q[1], q[2])])
    return tuple(sorted(out))


# TRAY_NEIGHBOURS[p] for a base place: the base places sharing an edge with it (p + e_i - e_j).
TRAY_NEIGHBOURS: list[tuple[int, ...]] = [_tray_neighbours(p) if i < NUM_BASE else () for i, p in enumerate(POSITIONS)]


def layer_rows(layer: int) -> list[list[int]]:
    """Place indices of a layer (0 = tray) as rows of its triangle, top row (one place) first."""
    s = HEIGHT - layer
    return [[INDEX[(x, y, s - x - y)] for y in range(s - x + 1)] for x in range(s, -1, -1)]


def parse_place(text: str) -> int:
    """Index of a place written as a label (``a3``) or coordinates (``1,2,2``, ``(1 2 2)``).

    Raises ValueError with a message naming what is wrong.

    >>> parse_place("b2"), parse_place("(3,0,1)")
    (22, 22)
    """
    t = text.strip().lower()
    if t in LABEL_INDEX:
        return LABEL_INDEX[t]
    bare = t.strip("()[] ").replace(",", " ").split()
    if len(bare) == 3 and all(w.isdigit() for w in bare):
        p = (int(bare[0]), int(bare[1]), int(bare[2]))
        if p not in INDEX:
            raise ValueError(f"there is no place {p}: coordinates x,y,z are whole numbers with x+y+z <= {HEIGHT}")
        return INDEX[p]
    if len(t) >= 2 and t[0] in LAYER_LETTERS and t[1:].isdigit():
        h = LAYER_LETTERS.index(t[0])
        n = LAYER_SIZES[h]
        last = f"{t[0]}{n}"
        span = f"{t[0]}1..{last}" if n > 1 else last
        raise ValueError(f"there is no place {t!r}: layer {t[0]} has {n} place{'s' if n > 1 else ''} ({span})")
    raise ValueError(f"{text!r} is not a place (write a label like a3 or f1, or coordinates like 1,2,2)")
