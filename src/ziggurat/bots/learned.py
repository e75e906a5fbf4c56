"""The learned bot: a policy network trained on the batched environment, seated like any bot.

A *policy file* (``.npz``, written by :func:`save_policy`, read without pickle)
holds a small multilayer perceptron — the actor of a trained agent, see
``examples/train_kuhnah.py`` — and what it was trained for: the game, the number
of players and the options (its ``meta``). The bot encodes what its seat sees,
``state.view(seat)``, exactly as the adapters and :class:`~ziggurat.fast.VectorGame`
do (:func:`~ziggurat.interop.encoding.encode_array`), runs the network with
``torch`` and plays the legal action of highest score (``sample=true``: draws
one from the masked softmax with its seeded stream). It never reads the full
state and never picks an illegal action.

Parameters: ``path=FILE`` (default: the policy shipped for the game and player
count in ``ziggurat/bots/policies/``, e.g. ``kuhnah-2p.npz``) and ``sample``.
Needs the ``train`` extra (``pip install 'ziggurat[train]'``, CPU torch);
without it, asking for the bot is a clear error and the web lobby does not offer it.
"""

from __future__ import annotations

import importlib.util
import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ziggurat.core.bot import Bot
from ziggurat.core.errors import ConfigError
from ziggurat.core.game import Game, State
from ziggurat.core.registry import register_bot

FORMAT = "ziggurat-policy"
VERSION = 1
ACTIVATIONS = ("tanh", "relu")
POLICY_DIR = Path(__file__).with_name("policies")
EXTRA_HINT = "the learned bot needs the train extra: pip install 'ziggurat[train]' (CPU torch)"


def import_torch() -> Any:
    """``torch``, or a clear :class:`~ziggurat.core.errors.ConfigError` naming the extra when it is missing."""
    try:
        import torch
    except ImportError:
        raise ConfigError(f"{EXTRA_HINT}; torch is not installed") from None
    return torch


def torch_installed() -> bool:
    """True when ``torch`` can be imported (checked without importing it)."""
    try:
        return importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):
        return False


def shipped_policy(game_id: str, players: int) -> Path:
    """Where the shipped policy for ``game_id`` with ``players`` players lies (it may not exist)."""
    return POLICY_DIR / f"{game_id}-{players}p.npz"


def shipped_policies() -> list[Path]:
    """The policy files shipped with the package."""
    return sorted(POLICY_DIR.glob("*.npz")) if POLICY_DIR.is_dir() else []


def available() -> bool:
    """Whether the learned bot can play here: the ``train`` extra is installed and a policy is shipped."""
    return torch_installed() and bool(shipped_policies())


def fits(game: Game) -> bool:
    """Whether the learned bot can sit at ``game`` without a ``path``: torch is there and a shipped policy fits."""
    if not torch_installed():
        return False
    path = shipped_policy(game.spec.id, game.num_players)
    if not path.is_file():
        return False
    try:
        load_policy(path).check_fits(game)
    except ConfigError:
        return False
    return True


@dataclass(frozen=True)
class Policy:
    """A policy network read from a file: layer weights (``out x in``), biases, activation and ``meta``."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    activation: str
    meta: Mapping[str, Any]

    @property
    def obs_size(self) -> int:
        """Length of the observation it reads."""
        return int(self.weights[0].shape[1])

    @property
    def num_actions(self) -> int:
        """Number of action ids it scores."""
        return int(self.weights[-1].shape[0])

    def check_fits(self, game: Game) -> None:
        """A clear ConfigError unless this policy was trained for ``game`` (id, players, options, sizes)."""
        from ziggurat.interop.encoding import tensor_size

        meta = self.meta
        want = f"{meta.get('game')} with {meta.get('players')} players"
        if meta.get("game") != game.spec.id or meta.get("players") != game.num_players:
            raise ConfigError(f"this policy was trained for {want}, not {game.spec.id} with {game.num_players} players")
        options = game.params()["options"]
        if dict(meta.get("options") or {}) != options:
            raise ConfigError(
                f"this policy was trained for {want} with options {dict(meta.get('options') or {})}, not {options}"
            )
        size, actions = tensor_size(game), game.num_actions
        if (self.obs_size, self.num_actions) != (size, actions):
            raise ConfigError(
                f"this policy reads {self.obs_size} features and scores {self.num_actions} actions; "
                f"{game.describe()} has {size} and {actions}"
            )


def save_policy(
    path: str | Path,
    weights: Sequence[np.ndarray],
    biases: Sequence[np.ndarray],
    activation: str,
    meta: Mapping[str, Any],
) -> Path:
    """Write a policy file (no pickle): float32 layers ``w0, b0, w1, b1, ...`` and ``meta`` as JSON text."""
    if activation not in ACTIVATIONS:
        raise ConfigError(f"activation must be one of {', '.join(ACTIVATIONS)}, not {activation!r}")
    if len(weights) != len(biases) or not weights:
        raise ConfigError("a policy needs one bias per weight matrix, and at least one layer")
    header = {**dict(meta), "format": FORMAT, "version": VERSION, "activation": activation, "layers": len(weights)}
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(header, sort_keys=True))}
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{i}"] = np.ascontiguousarray(w, np.float32)
        arrays[f"b{i}"] = np.ascontiguousarray(b, np.float32)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
    load_policy(out, cache=False)  # what was written reads back
    return out


_CACHE: dict[tuple[str, int, int], Policy] = {}


def load_policy(path: str | Path, cache: bool = True) -> Policy:
    """Read and check a policy file; a missing, corrupt or inconsistent file is a clear ConfigError."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"no policy file at {str(p)!r}" + (" (it is a folder)" if p.is_dir() else ""))
    st = p.stat()
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    if cache and key in _CACHE:
        return _CACHE[key]
    bad = f"{str(p)!r} is not a policy file"
    try:
        with np.load(p, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise ConfigError(f"{bad} (unreadable: {exc})") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError) as exc:
        raise ConfigError(f"{bad} (no readable meta: {exc!r})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ConfigError(f"{bad} (its meta does not say format {FORMAT!r})")
    if meta.get("version") != VERSION:
        raise ConfigError(f"{bad} of version {VERSION} (it says version {meta.get('version')!r})")
    activation, layers = meta.get("activation"), meta.get("layers")
    if activation not in ACTIVATIONS:
        raise ConfigError(f"{bad} (unknown activation {activation!r})")
    if isinstance(layers, bool) or not isinstance(layers, int) or layers < 1:
        raise ConfigError(f"{bad} (layers must be a whole number from 1, not {layers!r})")
    weights, biases = [], []
    width = None
    for i in range(layers):
        w, b = arrays.get(f"w{i}"), arrays.get(f"b{i}")
        if w is None or b is None:
            raise ConfigError(f"{bad} (layer {i} is missing)")
        if w.dtype != np.float32 or b.dtype != np.float32 or w.ndim != 2 or b.shape != (w.shape[0],):
            raise ConfigError(f"{bad} (layer {i}: weights {w.dtype}{w.shape}, bias {b.dtype}{b.shape})")
        if width is not None and w.shape[1] != width:
            raise ConfigError(f"{bad} (layer {i} reads {w.shape[1]} values, the layer before gives {width})")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ConfigError(f"{bad} (layer {i} holds a value that is not finite)")
        width = w.shape[0]
        weights.append(w)
        biases.append(b)
    policy = Policy(tuple(weights), tuple(biases), str(activation), meta)
    if cache:
        _CACHE[key] = policy
    return policy


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.lower() in ("true", "1", "yes")
    raise ConfigError(f"learned option {name} takes true or false, not {value!r}")


class LearnedBot(Bot):
    """Plays a trained policy network from its seat's view (see the module docstring)."""

    name = "learned"
    needs_determinisation = False  # reads its view and legal actions only

    def __init__(
        self,
        game: Game,
        player: int,
        seed: int | str | None = None,
        path: str | Path | None = None,
        sample: bool | str = False,
        **params: Any,
    ):
        super().__init__(game, player, seed, **params)
        self.sample = _flag("sample", sample)
        torch = import_torch()
        if path is None or str(path) == "":
            shipped = shipped_policy(game.spec.id, game.num_players)
            if not shipped.is_file():
                raise ConfigError(
                    f"no policy is shipped for {game.spec.id} with {game.num_players} players: "
                    "train one (examples/train_kuhnah.py) and give path=FILE"
                )
            path = shipped
        self.path = Path(path)
        self.policy = load_policy(self.path)
        self.policy.check_fits(game)
        self._torch = torch
        self._layers = [(torch.from_numpy(w), torch.from_numpy(b)) for w, b in zip(*self._params(), strict=True)]
        self._act = torch.tanh if self.policy.activation == "tanh" else torch.relu

    def _params(self) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
        return self.policy.weights, self.policy.biases

    def scores(self, state: State) -> np.ndarray:
        """The network's score of every action id from this seat's view (float32, illegal ones included)."""
        from ziggurat.interop.encoding import encode_array

        torch = self._torch
        x = torch.from_numpy(encode_array(self.game, state.view(self.player)))  # float32, the game's fast writer
        with torch.no_grad():
            for i, (w, b) in enumerate(self._layers):
                x = torch.nn.functional.linear(x, w, b)
                if i < len(self._layers) - 1:
                    x = self._act(x)
        return np.asarray(x.numpy(), dtype=np.float32)

    def choose(self, state: State) -> int:
        """The legal action of highest score (lowest id on a tie), or one drawn from the masked softmax."""
        legal = state.legal_actions(self.player)
        if not legal:
            raise ValueError(f"player {self.player + 1} has no legal action in this position")
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(state)[np.asarray(legal)].astype(np.float64)
        if not self.sample:
            return int(legal[int(np.argmax(scores))])
        p = np.exp(scores - scores.max())
        cumulative = np.cumsum(p / p.sum())
        k = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"))
        return int(legal[min(k, len(legal) - 1)])


register_bot("learned", LearnedBot, "a trained policy network (the train extra; path=FILE)")
