"""Building Nakum positions by hand for the rule tests."""

from __future__ import annotations

from collections.abc import Sequence

from ziggurat.core import CHANCE, make_game
from ziggurat.games.nakum.rules import NakumGame, NakumState

MARKET = ("m1", "m2", "m3", "m4", "m5")
OFFERS = ("o1", "o2")
HANDS = (("h1", "h2", "h3"), ("h4", "h5", "h6"), ("h7", "h8", "h9"), ("h10", "h14", "h15"))


def game_with(players: int = 2, **options: object) -> NakumGame:
    """A configured game."""
    game = make_game("nakum", players, options)
    assert isinstance(game, NakumGame)
    return game


def chance(state: NakumState, text: str) -> None:
    """Apply a chance outcome by its text."""
    assert state.current_player() == CHANCE, state.phase
    state.apply_text(text, CHANCE)


def dealt(
    players: int = 2,
    offers: Sequence[str] = OFFERS,
    market: Sequence[str] = MARKET,
    hands: Sequence[Sequence[str]] = HANDS,
    **options: object,
) -> NakumState:
    """Setup dealt: the heritage choice (simultaneous) is next."""
    state = game_with(players, **options).new_initial_state()
    assert isinstance(state, NakumState)
    for o in offers:
        chance(state, f"offering {o}")
    for m in market:
        chance(state, f"market {m}")
    for i in range(3):
        for p in range(players):
            chance(state, f"deal {hands[p][i]}")
    return state


def started(
    players: int = 2,
    tiles: Sequence[tuple[int, str]] = ((1, "maizal"),),
    choices: Sequence[str] | None = None,
    **kw: object,
) -> NakumState:
    """The first Day is about to start: heritage played, the given tiles revealed at setup.

    ``tiles`` are (position, key) pairs; with 2 players the setup reveals one, with 3-4 two.
    Extra tiles beyond the setup's reveals are laid face up directly.
    """
    state = dealt(players, **kw)  # type: ignore[arg-type]
    hands = kw.get("hands", HANDS)
    for p in range(players):
        card = choices[p] if choices else hands[p][0]  # type: ignore[index]
        state.apply_text(f"heritage {card}", p)
    setup = 1 if players == 2 else 2
    for pos, key in tiles[:setup]:
        state.apply_text(f"reveal {pos}")
        chance(state, f"tile {key}")
    for pos, key in tiles[setup:]:
        lay(state, pos, key)
    return state


def lay(state: NakumState, pos: int, key: str) -> None:
    """Put tile ``key`` face up at position ``pos`` (1-based) directly."""
    t = state.game.tile_index[key]
    state.layout[pos - 1] = t
    state.tile_pos[t] = pos - 1
    state.revealed += 1
    state._legal = None


def give(state: NakumState, player: int, maize: int = 0, skins: int = 0, masks: int = 0) -> None:
    """Set a player's resources."""
    state.res[3 * player : 3 * player + 3] = [maize, skins, masks]
    state._legal = None


def texts(state: NakumState, player: int | None = None) -> list[str]:
    """Legal action texts."""
    return [t for _, t in state.legal_action_texts(player)]


def all_revealed(state: NakumState) -> None:
    """Lay every remaining tile face up."""
    keys = [t.key for i, t in enumerate(state.game.tiles) if state.tile_pos[i] < 0]
    free = [p + 1 for p in range(8) if state.layout[p] < 0]
    for pos, key in zip(free, keys, strict=True):
        lay(state, pos, key)
