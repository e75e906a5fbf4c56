"""Hand-built K'uh Nah positions for rule tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ziggurat.core import make_game
from ziggurat.games.kuhnah.cards import load_cards
from ziggurat.games.kuhnah.rules import PLACE, TURN, KuhNahGame, KuhNahState, _key


def deck_file(tmp_path: Path, symbols: Mapping[str, tuple[str, str]], name: str = "deck.toml") -> Path:
    """The shipped card list with some cards' symbols replaced; returns the file path."""
    base = load_cards()
    lines = ['animals = ["bat", "monkey", "quetzal", "serpent", "jaguar"]', 'wild = "jaguar"', ""]
    for card in base.cards:
        left, right = symbols.get(card.id, (card.left, card.right))
        lines += [
            "[[card]]",
            f'id = "{card.id}"',
            f"value = {card.value}",
            f'left = "{left}"',
            f'right = "{right}"',
            "",
        ]
    path = tmp_path / name
    path.write_text("\n".join(lines))
    return path


def position(
    game: KuhNahGame,
    quarry: Sequence[str],
    pyramids: Mapping[int, Mapping[tuple[int, int], str]] | None = None,
    jade: Sequence[int] | None = None,
    quarry_jade: Sequence[int] = (0, 0),
    to_move: int = 0,
    removed: int | None = None,
    deck: Sequence[str] | None = None,
) -> KuhNahState:
    """A state in the middle of play.

    ``pyramids[p][(row, pos)]`` names the card at ``row`` (1 = base) and
    ``pos`` (1 = over the leftmost base card...), as the rulebook draws them.
    Unplaced, un-quarried cards go to the deck (or ``deck`` lists them) and the
    rest are removed.
    """
    state = game.new_initial_state()
    idx = game.cards.index
    state.phase = TURN
    state.to_move = to_move
    state.quarry = [idx(c) for c in quarry]
    state.quarry_jade = list(quarry_jade)
    state.jade = list(jade) if jade is not None else [8] * game.num_players
    used = set(state.quarry)
    for p, cells in (pyramids or {}).items():
        base = [pos for (row, pos) in cells if row == 1]
        state.base_left[p] = 0
        state.base_right[p] = max(base) - 1 if base else -1
        for (row, pos), name in cells.items():
            state.cells[p][_key(row - 1, pos - 1)] = idx(name)
            used.add(idx(name))
    state.recount()
    rest = [c for c in range(game.num_cards) if c not in used]
    if deck is not None:
        state.deck = sorted(idx(c) for c in deck)
        state.removed = sorted(c for c in rest if c not in state.deck)
    else:
        n_removed = game.removed_count if removed is None else removed
        state.removed = rest[:n_removed]
        state.deck = rest[n_removed:]
    return state


def taking(state: KuhNahState, slot: int) -> KuhNahState:
    """Apply 'take' of Quarry card ``slot`` (0 or 1) for the player to move."""
    state.apply_action(2 + slot)
    assert state.phase == PLACE
    return state


def game_with(players: int = 2, **options: object) -> KuhNahGame:
    """A K'uh Nah game (typed)."""
    game = make_game("kuhnah", players, options)
    assert isinstance(game, KuhNahGame)
    return game
