"""Parameters: the rulebook's numbers, each declared once and tunable.

A game declares its tunable numbers (starting jade, cubes per colour, storage
limits, ...) with :func:`param` among its :class:`~ziggurat.core.spec.OptionSpec`
options: a name, a type (``int`` or ``float``), the range it may take, the
printed value as its default and a line of documentation. A parameter is an
option like any other (``make_game(..., options={"start-jade": 7})``; a record
carries it in its options and replays with it), flagged ``param`` so that the
lab can tell the rulebook's numbers from the other settings:

* ``--param NAME=VALUE`` on ``play``, ``simulate`` and ``arena`` sets one
  (:func:`parse_assignments`); a value out of its range is refused by the
  option's own check, and values that do not fit together (Pyramix's cubes must
  fill the pyramid) by the game's setup, both with a clear error;
* a game whose parameters are all at their printed values is *printed*
  (:func:`is_printed`); one that is not says so where it is shown
  (:func:`non_printed_note`) and is never rated;
* ``--sweep NAME=a,b,c`` lists settings to compare (:func:`parse_sweep`,
  :func:`grid`).

>>> from ziggurat.core.registry import make_game
>>> game = make_game("kuhnah", 3, {"start-jade": 6})
>>> is_printed(game), changed_params(game)
(False, {'start-jade': 6})
>>> non_printed_note(game)
'non-printed parameters: start-jade=6 (printed 8)'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ziggurat.core.errors import OptionError
from ziggurat.core.spec import GameSpec, OptionSpec, OptionValue

if TYPE_CHECKING:
    from ziggurat.core.game import Game

KINDS = ("int", "float")


def param(
    name: str,
    kind: str,
    default: int | float,
    minimum: int | float,
    maximum: int | float,
    help: str,
) -> OptionSpec:
    """Declare a parameter: ``default`` is the printed value, ``minimum``..``maximum`` its range.

    >>> p = param("start-jade", "int", 8, 1, 30, "jade each player starts with")
    >>> p.param, p.parse("7")
    (True, 7)
    """
    if kind not in KINDS:
        raise ValueError(f"parameter {name!r}: kind must be int or float, not {kind!r}")
    if not minimum <= default <= maximum:
        raise ValueError(f"parameter {name!r}: printed value {default} is outside its range {minimum}..{maximum}")
    if not help:
        raise ValueError(f"parameter {name!r} needs a line of documentation")
    return OptionSpec(name, kind, default, help=help, minimum=minimum, maximum=maximum, param=True)


def param_values(game: Game) -> dict[str, OptionValue]:
    """Every parameter of ``game`` with its value, in declaration order."""
    return {p.name: game.options[p.name] for p in game.spec.params}


def changed_params(game: Game) -> dict[str, OptionValue]:
    """The parameters of ``game`` that differ from their printed values."""
    return {p.name: game.options[p.name] for p in game.spec.params if game.options[p.name] != p.default}


def is_printed(game: Game) -> bool:
    """Whether every parameter of ``game`` has its printed value (only such games are rated)."""
    return not changed_params(game)


def non_printed_note(game: Game) -> str | None:
    """A line saying which parameters are not the rulebook's, or ``None`` for a printed game."""
    changed = changed_params(game)
    if not changed:
        return None
    printed = {p.name: p.default for p in game.spec.params}
    parts = ", ".join(f"{k}={_text(v)} (printed {_text(printed[k])})" for k, v in changed.items())
    return f"non-printed parameters: {parts}"


def _text(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def find_param(spec: GameSpec, name: str) -> OptionSpec:
    """The parameter called ``name`` (an option that is not a parameter is a clear error)."""
    try:
        opt = spec.option(name.strip())
    except OptionError:
        raise OptionError(f"{spec.name} has no parameter {name.strip()!r} ({_known(spec)})") from None
    if not opt.param:
        raise OptionError(f"{opt.name!r} is an option of {spec.name}, not a parameter: use --option {opt.name}=VALUE")
    return opt


def _known(spec: GameSpec) -> str:
    names = ", ".join(p.name for p in spec.params)
    return f"parameters: {names}" if names else "it has none"


def _split(item: str, flag: str) -> tuple[str, str]:
    if "=" not in item:
        raise OptionError(f"{flag} takes NAME=VALUE, not {item!r}")
    name, value = item.split("=", 1)
    return name.strip(), value.strip()


def parse_assignments(spec: GameSpec, items: Iterable[str], flag: str = "--param") -> dict[str, OptionValue]:
    """``["start-jade=7", ...]`` -> ``{"start-jade": 7}``, each name a parameter and each value in range."""
    out: dict[str, OptionValue] = {}
    for item in items:
        name, raw = _split(item, flag)
        opt = find_param(spec, name)
        if opt.name in out:
            raise OptionError(f"{flag} sets {opt.name!r} twice")
        out[opt.name] = opt.parse(raw)
    return out


def parse_sweep(spec: GameSpec, items: Iterable[str]) -> list[tuple[str, list[OptionValue]]]:
    """``["start-jade=6,8,10"]`` -> ``[("start-jade", [6, 8, 10])]``: the values each swept parameter takes.

    >>> from ziggurat.core.registry import get_game
    >>> parse_sweep(get_game("kuhnah").game_class.spec, ["start-jade=6,8"])
    [('start-jade', [6, 8])]
    """
    out: list[tuple[str, list[OptionValue]]] = []
    for item in items:
        name, raw = _split(item, "--sweep")
        opt = find_param(spec, name)
        if any(n == opt.name for n, _ in out):
            raise OptionError(f"--sweep names {opt.name!r} twice")
        words = [w.strip() for w in raw.split(",")]
        if not raw or any(not w for w in words):
            raise OptionError(f"--sweep {opt.name}= takes values separated by commas, not {raw!r}")
        values = [opt.parse(w) for w in words]
        if len(set(values)) != len(values):
            raise OptionError(f"--sweep {opt.name}= lists a value twice: {raw!r}")
        out.append((opt.name, values))
    return out


def grid(sweeps: Sequence[tuple[str, Sequence[OptionValue]]]) -> list[dict[str, OptionValue]]:
    """Every combination of swept values, the first parameter varying slowest.

    >>> grid([("a", [1, 2]), ("b", [3, 4])])
    [{'a': 1, 'b': 3}, {'a': 1, 'b': 4}, {'a': 2, 'b': 3}, {'a': 2, 'b': 4}]
    """
    names = [n for n, _ in sweeps]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(v for _, v in sweeps))]


def setting_label(values: Mapping[str, OptionValue]) -> str:
    """``{"start-jade": 7, "remove-2": 25}`` -> ``"start-jade=7 remove-2=25"`` (``"printed"`` for none)."""
    return " ".join(f"{k}={_text(v)}" for k, v in values.items()) or "printed"
