"""Driving a game: chance from a seeded RNG, bots fed determinisations, records out.

Every random stream of a match is derived one way from its secret root seed
(:mod:`ziggurat.core.seeds`): chance from ``(seed, "chance")``; each seat's bot
from the seat's key ``(seed, "bot", p)`` (one stream for the game, or, for a bot
that asks for it, a fresh stream per decision from the key and the decision
number); each seat's determinisations from ``(seed, "determinise", p)``. A bot
never sees the root or the chance seed, so it cannot rebuild the deck. Every
stream's position is a function of the record (root seed and actions), so a
game resumed from its record goes on exactly as the uninterrupted one: the
streams are brought up to date by going over the seat's past decisions again
(:meth:`Match.catch_up`).

>>> from ziggurat.core.registry import make_game
>>> a = Match(make_game("kuhnah", 3), seed=7); a.run_bots(["random"] * 3)
>>> b = Match(make_game("kuhnah", 3), seed=7); b.run_bots(["random"] * 3)
>>> a.state == b.state
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ziggurat.core.bot import Bot
from ziggurat.core.errors import ConfigError
from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from ziggurat.core.record import GameRecord
from ziggurat.core.registry import make_bot
from ziggurat.core.seeds import derive_seed, derived_rng, stream_seed


class Match:
    """One game in progress with its (secret) root seed.

    Chance outcomes come from ``derived_rng(seed, "chance")``, one draw per
    chance node, so resuming a saved game continues the same stream.
    """

    def __init__(self, game: Game, seed: int, state: State | None = None):
        self.game = game
        self.seed = seed
        self.state = state if state is not None else game.new_initial_state()
        self.chance_rng = derived_rng(seed, "chance")
        for player, _ in self.state.history:
            if player == CHANCE:
                self.chance_rng.random()
        self._counted: tuple[State | None, int] = (None, 0)
        self._decisions = [0] * game.num_players
        self._bot_keys: list[int | None] = [None] * game.num_players
        # per seat: the determinisation stream and how many decisions it has served
        self._views: dict[int, tuple[random.Random, int]] = {}

    @classmethod
    def from_record(cls, record: GameRecord) -> Match:
        """Resume a saved game where it stopped."""
        state = record.replay()
        return cls(state.game, record.seed if record.seed is not None else 0, state)

    # ------------------------------------------------------------- streams
    def decision_number(self, player: int) -> int:
        """How many actions ``player`` has taken so far (the number of their next decision)."""
        state = self.state
        history = state.history
        seen_state, seen = self._counted
        if seen_state is not state or seen > len(history):
            seen_state, seen = state, 0
            self._decisions = [0] * self.game.num_players
        decisions = self._decisions
        for actor, _ in history[seen:]:
            if actor >= 0:
                decisions[actor] += 1
        self._counted = (state, len(history))
        return decisions[player]

    def bot_seed(self, player: int, decision: int | None = None) -> int:
        """The seed a bot of ``player`` gets (for ``decision``; without it, the one it is built with).

        The seat's key is one way from the root (SHA-256); the seed of each
        decision is a cheap scramble of the key and the decision number.
        """
        key = self._bot_keys[player]
        if key is None:
            key = self._bot_keys[player] = derive_seed(self.seed, "bot", player)
        return key if decision is None else stream_seed(key, decision)

    def make_bot(self, name: str, player: int, **params: Any) -> Bot:
        """A registered bot for ``player``, seeded apart from the chance stream."""
        return make_bot(name, self.game, player, self.bot_seed(player), **params)

    # ------------------------------------------------------------- driving
    def resolve_chance(self) -> None:
        """Apply chance outcomes until a player (or nobody) is to move."""
        state = self.state
        rng = self.chance_rng
        while state.current_player() == CHANCE:
            state.apply_trusted(state.sample_chance(rng), CHANCE)  # drawn here, so legal: no check needed

    def determinisation(self, player: int) -> State:
        """What a bot for ``player`` is shown now: a state consistent with its view."""
        if not self.game.spec.has_hidden_information:
            return self.state.clone()
        return self.state.resample(player, self._view_rng(player, self.decision_number(player)))

    def _view_rng(self, player: int, decision: int) -> random.Random:
        """``player``'s determinisation stream, brought up to ``decision`` (past ones drawn again if need be)."""
        rng, served = self._views.get(player) or (derived_rng(self.seed, "determinise", player), 0)
        if served < decision:
            replay = self.game.new_initial_state()
            n = 0
            for actor, action in self.state.history:
                if actor == player:
                    if n >= served:
                        replay.resample(player, rng)
                    n += 1
                    if n >= decision:
                        break
                replay.apply_action(action, None if actor == CHANCE else actor)
        self._views[player] = (rng, max(served, decision + 1))
        return rng

    def shown_to(self, bot: Bot, player: int) -> State:
        """The state ``bot``, in seat ``player``, decides on: a determinisation, or the live state if it needs none.

        A bot with ``needs_determinisation = False`` reads only its legal actions
        and its own view, and changes nothing, so any state consistent with its
        view gives the same choice: the live one costs nothing.
        """
        if bot.needs_determinisation:
            return self.determinisation(player)
        return self.state

    def decide(self, bot: Bot, player: int) -> int:
        """``bot``'s action for ``player`` now, from what it is shown (and a fresh stream if it asks for one)."""
        if bot.fresh_stream_per_decision:
            bot.reseed(self.bot_seed(player, self.decision_number(player)))
        action = bot.choose(self.shown_to(bot, player))
        bot.thought += 1
        return action

    def catch_up(self, bot: Bot, player: int) -> None:
        """Bring ``bot``, seated at ``player``, up to the game so far (a resumed game, a bot given mid-game).

        A bot that ``remembers`` (its stream, a search tree) thinks again the seat's
        past decisions it has not thought yet (it has thought ``bot.thought`` of them:
        none if it is new, all if it played the game so far), so it holds what it
        would hold had it played the whole game; then a resumed game goes on exactly
        as the uninterrupted one, whether its bots were given by name or as objects.
        A bot that carries nothing from one decision to the next needs none of this.
        A bot that has thought more of this seat's decisions than were made cannot
        be taken back: a ConfigError, unless the game has not reached the seat yet
        (the bot goes on to a new game as it is).
        """
        made = self.decision_number(player)
        done = bot.thought
        if done == made:
            return
        if not bot.remembers or (done > made and made == 0):
            bot.thought = made
            return
        if done > made:
            raise ConfigError(
                f"the bot for player {player + 1} has thought {done} decisions, but that seat has made only {made} "
                "in this game: seat a new bot (it thinks the past decisions again) or the one that played them"
            )
        saved, counted, decisions, views = self.state, self._counted, self._decisions.copy(), self._views
        # the past decisions are thought on the positions of the time, with the determinisation stream they had
        self.state, self._views = self.game.new_initial_state(), {}
        try:
            seen = 0
            for actor, action in saved.history:
                if actor == player:
                    if seen >= done:
                        self.decide(bot, player)
                    seen += 1
                    if seen == made:
                        break
                self.state.apply_action(action, None if actor == CHANCE else actor)
        finally:
            stream = self._views.get(player)
            self.state, self._counted, self._decisions, self._views = saved, counted, decisions, views
            if stream is not None and player not in views:
                views[player] = stream  # where the next live decision draws from: no need to draw it all again

    def apply(self, action: int, player: int | None = None) -> None:
        """Apply a player's action, then any chance that follows."""
        self.state.apply_action(action, player)
        self.resolve_chance()

    def seat_bots(self, bots: Sequence[Bot | str], params: Any = None) -> list[Bot]:
        """Bots for every seat: names are made here (seeded apart); every bot is caught up with the game so far.

        ``params`` maps a bot name to its options. A bot object is used as it is,
        brought up to date first (:meth:`catch_up`): a new one thinks the seat's
        past decisions, one that played them goes on.
        """
        if len(bots) != self.game.num_players:
            raise ValueError(f"{len(bots)} bots for {self.game.num_players} players")
        seats = []
        for p, b in enumerate(bots):
            if isinstance(b, str):
                b = self.make_bot(b, p, **dict((params or {}).get(b, {})))
            self.catch_up(b, p)
            seats.append(b)
        return seats

    def run_bots(
        self,
        bots: Sequence[Bot | str],
        on_action: Callable[[State, int, int], None] | None = None,
        max_steps: int | None = None,
    ) -> None:
        """Play to the end (or ``max_steps`` decisions) with a bot in every seat.

        Bots given by name are made by :meth:`seat_bots`; bot objects are caught up
        with the game so far by it (a bot that asks for a fresh stream per decision
        gets its stream from the match all the same).
        """
        seats = self.seat_bots(bots)
        # a bot that needs neither a determinisation nor a fresh stream decides on the live state
        # as it is: asked directly, without going through decide (the same choice, a little sooner),
        # unless a subclass changed what bots are shown
        direct = type(self).decide is Match.decide and type(self).shown_to is Match.shown_to
        plain = [direct and not (b.needs_determinisation or b.fresh_stream_per_decision) for b in seats]
        state = self.state
        steps = 0
        while True:
            cur = state.current_player()
            if cur == CHANCE:
                self.resolve_chance()
                continue
            if cur == TERMINAL or (max_steps is not None and steps >= max_steps):
                return
            for player in (cur,) if cur >= 0 else state.players_to_move():
                bot = seats[player]
                if plain[player]:
                    action = bot.choose(state)
                    bot.thought += 1
                else:
                    action = self.decide(bot, player)
                if on_action is not None:
                    on_action(state, player, action)
                state.apply_action(action, player)
                steps += 1

    def record(self, seats: Sequence[str] = ()) -> GameRecord:
        """The record of the game so far (it holds the root seed: it is the owner's)."""
        return GameRecord.from_state(self.state, self.seed, seats)


def random_playout(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end in place with uniformly random actions and chance.

    Every action is drawn from the position's own legal actions or chance
    outcomes, so it is applied by the unchecked fast path (``apply_trusted``);
    the result is the same as with ``apply_action``.
    """
    while True:
        cur = state.current_player()
        if cur >= 0:
            legal = state._legal_actions(cur)  # the hook itself: who moves is known, nothing to cache
            state.apply_trusted(legal[int(rng.random() * len(legal))], cur)
        elif cur == CHANCE:
            state.apply_trusted(state.sample_chance(rng), CHANCE)
        elif cur == SIMULTANEOUS:
            for p in state.players_to_move():
                legal = state._legal_actions(p)
                state.apply_trusted(legal[int(rng.random() * len(legal))], p)
        else:
            return state
