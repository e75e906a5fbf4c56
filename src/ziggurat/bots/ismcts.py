"""Information-set Monte Carlo tree search over the core contract, for every game.

The search is *single-observer* IS-MCTS (Cowling, Powley & Whitehouse 2012)
with availability counts:

* every iteration draws a determinisation ``state.resample(me, rng)`` (a full
  state consistent with what the searching player sees) and walks one shared
  tree with it, so the statistics pool over the states the player cannot tell
  apart; an action that is legal in some determinisations only is judged by
  UCB with its *availability* count (how often it could have been chosen)
  instead of the parent's visit count;
* chance nodes are sampled (``state.sample_chance``) and branch in the tree by
  outcome, so an action's meaning after a draw is not mixed with another draw;
* a simultaneous node is *decoupled*: each player still to choose picks from
  their own statistics at that node (UCB), blind to the others' picks, and the
  tree continues below the joint choice;
* any number of players: each node keeps the reward of the player who moved
  into it (max-n), rewards come from :meth:`State.returns` (rank based, in
  [-1, 1]) blended with the player's normalised score margin, so a search that
  is sure to win or lose still prefers the bigger margin.

Why single-observer: the contract gives action ids, not the "what did the
observer see of it" projection that multi-observer IS-MCTS needs to build the
opponents' trees; SO-ISMCTS needs nothing beyond ``resample`` and is cheap.
Its known weakness (opponent nodes are keyed by their actual actions, so the
opponents play as if they saw the determinisation) matters little when the
hidden part is a deck order or a private count.

Tree reuse: in games without hidden information or simultaneous moves, the
subtree reached by the moves played since the previous search is kept.

>>> from ziggurat.core import make_game, Match
>>> m = Match(make_game("kuhnah", 2), seed=3); m.resolve_chance()
>>> bot = ISMCTSBot(m.game, m.state.current_player(), seed=1, iterations=50)
>>> bot.choose(m.determinisation(bot.player)) in m.state.legal_actions()
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ziggurat.bots.greedy import evaluator_for, heuristic_for
from ziggurat.core.bot import Bot
from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from ziggurat.core.match import random_playout
from ziggurat.core.outcome import ranks_from_keys, returns_from_ranks
from ziggurat.core.registry import entry_for, register_bot

PLAYOUTS = ("random", "heuristic")
REWARDS = ("mixed", "returns", "margin")
CUTS = ("end", "chance")
DEFAULTS: dict[str, Any] = {
    "c": 1.0,
    "playout": "random",
    "epsilon": 0.2,
    "reward": "mixed",
    "reuse": True,
    "depth": None,
    "cut": "end",
    "prior": 1.0,
    "prior_visits": 4,
}
SIM_EXPLORE = 0.1  # share of uniformly random picks at simultaneous nodes
PRIOR_VISITS = 20.0  # the heuristic's bonus halves after this many visits of its action


class _Node:
    __slots__ = ("avail", "children", "prior", "sim", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.prior = -2  # the heuristic's action here (-2: not asked yet, -1: none)
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        # decoupled statistics at a simultaneous node: player -> action -> [visits, total, avail]
        self.sim: dict[int, dict[int, list[float]]] | None = None


def search_defaults(game: Game) -> Mapping[str, Any]:
    """The IS-MCTS options the game registered as its defaults (none for an unregistered game)."""
    entry = entry_for(game)
    return entry.search if entry is not None else {}


def _key(actor: int, action: int) -> int:
    return (action << 4) | (actor & 15)


def _float(name: str, value: object, low: float, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"ismcts option {name} takes a number, not {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"ismcts option {name} takes a number, not {value!r}") from None
    if not low <= number <= high or math.isnan(number):
        raise ValueError(f"ismcts option {name} must be between {low} and {high}, not {value!r}")
    return number


class ISMCTSBot(Bot):
    """IS-MCTS with a budget of ``iterations`` and/or ``seconds`` per move.

    Options: ``iterations`` (default 1000 when no ``seconds``), ``seconds``,
    ``c`` (UCB exploration, default 1.0 for rewards in [-1, 1]), ``playout``
    (``random`` or ``heuristic``: the game's greedy policy with probability
    1 - ``epsilon``), ``epsilon`` (0.2), ``reward`` (``mixed``, ``returns`` or
    ``margin``), ``reuse`` (keep the subtree between moves where sound, default
    true), ``prior`` (progressive bias: a bonus, fading with visits, for the
    heuristic's action at each tree node, default 1; 0 = off; asked once a
    node has ``prior_visits`` visits, default 4: most leaves are never
    revisited, so a costly heuristic is not paid for them), ``depth`` (cut
    playouts after that many decisions, 0 = judge the new leaf itself;
    default: no limit) and ``cut`` (``end``: play to the end or ``depth``;
    ``chance``: also stop at the next chance event, e.g. Nakum's Night). A
    playout cut short is judged by the game's registered ``value`` instead of
    its final scores. A game may register its own defaults for these options
    (``GameEntry.search``); options given here win. The same seed and an
    iteration budget give the same moves.
    """

    name = "ismcts"

    def __init__(
        self,
        game: Game,
        player: int,
        seed: int | str | None = None,
        iterations: int | str | None = None,
        seconds: float | str | None = None,
        **options: Any,
    ):
        chosen = {name: options.pop(name) for name in list(options) if name in DEFAULTS}
        super().__init__(game, player, seed, **options)  # anything left over is not an option: an error
        settings = {**DEFAULTS, **search_defaults(game), **chosen}
        c, playout, epsilon, reward = settings["c"], settings["playout"], settings["epsilon"], settings["reward"]
        reuse, depth, cut = settings["reuse"], settings["depth"], settings["cut"]
        prior, prior_visits = settings["prior"], settings["prior_visits"]
        if iterations is None and seconds is None:
            iterations = 1000
        self.iterations = None if iterations is None else int(_float("iterations", iterations, 1, 10**9))
        self.seconds = None if seconds is None else _float("seconds", seconds, 0.0, 10**6)
        self.c = _float("c", c, 0.0, 100.0)
        self.epsilon = _float("epsilon", epsilon, 0.0, 1.0)
        self.depth = None if depth in (None, "none", "") else int(_float("depth", depth, 0, 10**9))
        if playout not in PLAYOUTS:
            raise ValueError(f"ismcts option playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
        if cut not in CUTS:
            raise ValueError(f"ismcts option cut must be one of {', '.join(CUTS)}, not {cut!r}")
        if reward not in REWARDS:
            raise ValueError(f"ismcts option reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if isinstance(reuse, str):
            if reuse.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"ismcts option reuse takes true or false, not {reuse!r}")
            reuse = reuse.lower() in ("true", "1", "yes")
        self.playout = str(playout)
        self.reward = str(reward)
        self.stop_at_chance = cut == "chance"
        spec = game.spec
        self.hidden = spec.has_hidden_information
        self.reuse = bool(reuse) and not spec.has_hidden_information and not spec.has_simultaneous_moves
        self.sign = -1.0 if spec.lower_score_wins else 1.0
        self.prior = _float("prior", prior, 0.0, 100.0)
        self.prior_visits = int(_float("prior_visits", prior_visits, 0, 10**9))
        self._heuristic = None
        if playout == "heuristic" or self.prior > 0:
            self._heuristic = heuristic_for(game)
        self._playout_policy = self._heuristic if playout == "heuristic" else None
        self._value = evaluator_for(game)
        self._margin_scale = 1.0
        self._margin_mean = 0.0
        self._margin_n = 0
        self._tree: tuple[list[tuple[int, int]], _Node] | None = None
        self.last_iterations = 0

    # ------------------------------------------------------------------ API
    fresh_stream_per_decision = True  # a new stream costs little beside a search

    @property
    def remembers(self) -> bool:
        """True when the tree is kept between moves (a resumed game lets the bot think them again)."""
        return self.reuse

    def choose(self, state: State) -> int:
        """The most visited legal action after the search."""
        me = self.player
        legal = state.legal_actions(me)
        if not legal:
            raise ValueError(f"player {me + 1} has no legal action in this position")
        if len(legal) == 1:
            return legal[0]
        root = self._reused_root(state)
        if root is None:
            # a new tree scales its rewards afresh: a decision then depends on nothing from the one before,
            # and a resumed game needs none of the earlier searches again
            root = _Node()
            self._margin_scale, self._margin_mean, self._margin_n = 1.0, 0.0, 0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        n = 0
        while True:
            if limit is not None and n >= limit:
                break
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(state, root)
            n += 1
        self.last_iterations = n
        action = self._best(state, root, legal)
        if self.reuse:
            self._tree = (state.history.copy(), root)
        return action

    def root_stats(self, state: State, root: _Node) -> dict[int, tuple[int, float]]:
        """(visits, mean reward) of each root action (for tests and curious users)."""
        me = self.player
        if state.current_player() == SIMULTANEOUS:
            table = (root.sim or {}).get(me, {})
            return {a: (int(e[0]), e[1] / e[0] if e[0] else 0.0) for a, e in table.items()}
        out = {}
        for a in state.legal_actions(me):
            child = root.children.get(_key(me, a))
            if child is not None:
                out[a] = (child.visits, child.total / child.visits if child.visits else 0.0)
        return out

    # -------------------------------------------------------------- helpers
    def _reused_root(self, state: State) -> _Node | None:
        """The kept subtree for ``state`` (with the reward scale it was built with), or None."""
        if not self.reuse or self._tree is None:
            return None
        history, node = self._tree
        self._tree = None
        n = len(history)
        if state.history[:n] != history:
            return None
        for actor, action in state.history[n:]:
            child = node.children.get(_key(actor, action))
            if child is None:
                return None
            node = child
        return node

    def _best(self, state: State, root: _Node, legal: list[int]) -> int:
        me = self.player
        best, best_key = legal[0], (-1.0, -math.inf)
        if state.current_player() == SIMULTANEOUS:
            table = (root.sim or {}).get(me, {})
            for a in legal:
                e = table.get(a)
                if e is not None and e[0] > 0:
                    k = (e[0], e[1] / e[0])
                    if k > best_key:
                        best, best_key = a, k
            return best
        children = root.children
        for a in legal:
            child = children.get(_key(me, a))
            if child is not None and child.visits > 0:
                k = (float(child.visits), child.total / child.visits)
                if k > best_key:
                    best, best_key = a, k
        return best

    def _iterate(self, root_state: State, root: _Node) -> None:
        rng = self.rng
        c = self.c
        bias = self.prior
        prior_visits = self.prior_visits
        log = math.log
        sqrt = math.sqrt
        det = root_state.resample(self.player, rng) if self.hidden else root_state.clone()
        node = root
        path: list[tuple[_Node, int]] = []
        simpath: list[tuple[list[float], int]] = []
        while True:
            cur = det.current_player()
            if cur >= 0:
                legal = det.legal_actions()
                children = node.children
                prior = node.prior
                if prior == -2 and (node.visits >= prior_visits or node is root):
                    prior = node.prior = self._prior_action(det, cur, legal)
                untried = []
                best_child = None
                best_action = -1
                best_value = -math.inf
                for a in legal:
                    child = children.get((a << 4) | cur)
                    if child is None:
                        untried.append(a)
                        continue
                    child.avail += 1
                    if not untried:
                        value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                        if a == prior:
                            value += bias / (1.0 + child.visits / PRIOR_VISITS)
                        if value > best_value:
                            best_value, best_child, best_action = value, child, a
                if untried:
                    if prior in untried:
                        a = prior
                    else:
                        a = untried[int(rng.random() * len(untried))]
                    child = _Node()
                    child.avail = 1
                    children[(a << 4) | cur] = child
                    det.apply_trusted(a, cur)
                    path.append((child, cur))
                    break
                assert best_child is not None
                det.apply_trusted(best_action, cur)
                path.append((best_child, cur))
                node = best_child
            elif cur == CHANCE:
                outcome = det.sample_chance(rng)
                det.apply_trusted(outcome, CHANCE)
                key = (outcome << 4) | 15
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                node = child
            elif cur == SIMULTANEOUS:
                if node.sim is None:
                    node.sim = {}
                joint = []
                for p in det.players_to_move():
                    legal = det.legal_actions(p)
                    table = node.sim.setdefault(p, {})
                    untried = [a for a in legal if a not in table]
                    for a in legal:
                        e = table.get(a)
                        if e is not None:
                            e[2] += 1
                    if untried:
                        a = untried[int(rng.random() * len(untried))]
                        table[a] = [0, 0.0, 1]
                    elif rng.random() < SIM_EXPLORE:
                        # some uniform exploration: with identical statistics, deterministic UCB would
                        # keep symmetric players in lockstep for ever (always tying, learning nothing)
                        a = legal[int(rng.random() * len(legal))]
                    else:
                        a, best_value = legal[0], -math.inf
                        for b in legal:
                            e = table[b]
                            value = e[1] / e[0] + c * sqrt(log(e[2]) / e[0])
                            if value > best_value:
                                a, best_value = b, value
                    det.apply_trusted(a, p)
                    simpath.append((table[a], p))
                    joint.append(a)
                    if det.current_player() != SIMULTANEOUS:
                        break
                joint_key = tuple(joint)
                child = node.children.get(joint_key)
                if child is None:
                    child = node.children[joint_key] = _Node()
                    path.append((child, -1))
                    break
                path.append((child, -1))
                node = child
            else:  # TERMINAL
                break
        if det.current_player() != TERMINAL:
            self._playout(det)
        reward = self._rewards(det)
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            if mover >= 0:
                n.total += reward[mover]
        for e, p in simpath:
            e[0] += 1
            e[1] += reward[p]

    def _prior_action(self, state: State, player: int, legal: list[int]) -> int:
        h = self._heuristic
        if self.prior <= 0 or h is None or len(legal) < 2:
            return -1
        a = h(state, player, self.rng)
        return a if a in legal else -1

    def _playout(self, state: State) -> None:
        rng = self.rng
        h = self._playout_policy
        if h is None and self.depth is None and not self.stop_at_chance:
            random_playout(state, rng)  # the loop below without its checks: the same draws, the same end
            return
        eps = self.epsilon
        left = self.depth if self.depth is not None else -1
        stop_at_chance = self.stop_at_chance
        while True:
            cur = state.current_player()
            if left == 0 and cur != CHANCE:
                return
            if stop_at_chance and cur == CHANCE:
                return
            left -= 1
            if cur >= 0:
                legal = state.legal_actions()
                if h is not None and rng.random() >= eps:
                    state.apply_action(h(state, cur, rng))
                else:
                    state.apply_trusted(legal[int(rng.random() * len(legal))], cur)
            elif cur == CHANCE:
                state.apply_trusted(state.sample_chance(rng), CHANCE)
            elif cur == SIMULTANEOUS:
                for p in state.players_to_move():
                    if h is not None and rng.random() >= eps:
                        state.apply_action(h(state, p, rng), p)
                    else:
                        legal = state.legal_actions(p)
                        state.apply_trusted(legal[int(rng.random() * len(legal))], p)
            else:
                return

    def _rewards(self, state: State) -> list[float]:
        """Per-player reward in [-1, 1] at a terminal state, or where a playout was cut (``depth``, ``cut``)."""
        mode = self.reward
        if state.is_terminal():
            outcome = state.outcome()  # scores once: returns() and scores() would each count them
            returns = list(outcome.returns)
            scores: Sequence[float] = outcome.scores
        else:  # a playout cut short: the game's evaluation stands in for the final scores
            value = self._value
            scores = [value(state, p) for p in range(state.num_players)]
            sign = self.sign
            returns = list(returns_from_ranks(ranks_from_keys([(sign * v,) for v in scores])))
        if mode == "returns":
            return returns
        sign = self.sign
        n = len(scores)
        # plain loops: this runs once per iteration for a handful of players
        if n == 1:
            margins = [sign * scores[0] - self._margin_mean]
        else:
            signed = [sign * x for x in scores]
            margins = []
            for p in range(n):
                best_other = -math.inf
                for q in range(n):
                    if q != p and signed[q] > best_other:
                        best_other = signed[q]
                margins.append(signed[p] - best_other)
        # a running mean of |margin| sets the scale, so margins of any game land in (-1, 1)
        self._margin_n += 1
        k = self._margin_n
        widest = 0.0
        for m in margins:
            if abs(m) > widest:
                widest = abs(m)
        self._margin_scale += (widest - self._margin_scale) / k
        self._margin_mean += (sign * scores[0] - self._margin_mean) / k
        scale = self._margin_scale if self._margin_scale > 1e-9 else 1.0
        tanh = math.tanh
        shaped = []
        for m in margins:
            shaped.append(tanh(m / scale))
        if mode == "margin":
            return shaped
        mixed = []
        for r, s in zip(returns, shaped, strict=True):
            mixed.append(0.75 * r + 0.25 * s)
        return mixed


register_bot("ismcts", ISMCTSBot, "information-set Monte Carlo tree search (iterations=, seconds=, playout=)")
