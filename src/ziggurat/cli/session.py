"""Terminal play: humans and bots around one table, hot seat included; and replays.

Everything a human is shown is drawn from ``state.view(player)``; chance
outcomes are never printed (they may be hidden: a card removed unseen), and the
choices made at a simultaneous node are printed only once all are in.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ziggurat.core import CHANCE, SIMULTANEOUS, GameRecord, Match, ZigguratError, get_game
from ziggurat.core.game import Game, State


class QuitGame(Exception):
    """A human asked to stop (or input ended)."""


class PlaySession:
    """One game in the terminal. ``input_fn`` is replaceable for tests."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        seed: int,
        console: Console,
        watch: bool = False,
        input_fn: Callable[[str], str] = input,
    ):
        self.match = Match(game, seed)
        self.seats = list(seats)
        self.console = console
        self.watch = watch
        self.input_fn = input_fn
        self.entry = get_game(game.spec.id)
        self.bots = {p: self.match.make_bot(name, p) for p, name in enumerate(seats) if name != "human"}
        self.humans = [p for p, name in enumerate(seats) if name == "human"]
        self._at_keyboard: int | None = None

    def label(self, player: int) -> str:
        """``Player 2 (random)``."""
        return f"Player {player + 1} ({self.seats[player]})"

    def draw(self, player: int | None) -> None:
        """Draw the table as ``player`` sees it (None: spectator)."""
        if self.entry.render is not None:
            self.console.print(self.entry.render(self.match.state.view(player), player))

    def run(self) -> bool:
        """Play to the end; return False if a human quit early."""
        m = self.match
        self.console.print(f"[bold]{m.game.describe()}[/] — " + ", ".join(map(self.label, range(len(self.seats)))))
        try:
            m.resolve_chance()
            held: list[str] = []
            while not m.state.is_terminal():
                state = m.state
                simultaneous = state.is_simultaneous_node()
                for p in state.players_to_move():
                    if p in self.bots:
                        action = m.decide(self.bots[p], p)
                    else:
                        action = self.ask(p)
                    line = f"{self.label(p)}: {state.action_to_text(action, p)}"
                    state.apply_action(action, p)
                    if simultaneous:
                        held.append(line)
                    else:
                        self.console.print(line, highlight=False)
                if held and not state.is_simultaneous_node():
                    self.console.print("Revealed together:", style="bold")
                    for line in held:
                        self.console.print("  " + line, highlight=False)
                    held.clear()
                m.resolve_chance()
                if self.watch and not self.humans:
                    self.draw(None)
        except QuitGame:
            self.console.print("Game stopped.", style="yellow")
            return False
        self.finish()
        return True

    def finish(self) -> None:
        """Show the final table, scores and ranks."""
        self.console.rule("Game over")
        self.draw(None)
        outcome = self.match.state.outcome()
        table = Table(title="Final result")
        table.add_column("seat")
        table.add_column("score", justify="right")
        table.add_column("rank", justify="right")
        order = sorted(range(len(self.seats)), key=lambda p: outcome.ranks[p])
        for p in order:
            score = outcome.scores[p]
            table.add_row(self.label(p), f"{score:g}", str(outcome.ranks[p]))
        self.console.print(table)
        winners = " and ".join(self.label(p) for p in outcome.winners)
        self.console.print(f"Winner: {winners}" if len(outcome.winners) == 1 else f"Shared win: {winners}")

    def _hand_over(self, player: int) -> None:
        """With several humans at one keyboard, hide the table until the next one is there."""
        if len(self.humans) > 1 and self._at_keyboard != player:
            self.console.clear()
            self.console.print(f"[bold]Pass the keyboard to {self.label(player)}.[/]")
            self._read(f"{self.label(player)}, press Enter when only you can see the screen: ")
            self.console.clear()
        self._at_keyboard = player

    def _read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    def ask(self, player: int) -> int:
        """Show ``player`` their view and legal actions; return the chosen id."""
        self._hand_over(player)
        state = self.match.state
        self.draw(player)
        choices = state.legal_action_texts(player)
        self.console.print(f"[bold]{self.label(player)}[/], choose:")
        self.console.print(Columns([Text(f"{i:>3}. {text}") for i, (_, text) in enumerate(choices, 1)], padding=(0, 3)))
        while True:
            raw = self._read("number or action text (? help, q quit)> ").strip()
            if not raw:
                continue
            if raw.lower() in ("q", "quit", "exit"):
                raise QuitGame
            if raw in ("?", "help"):
                self.console.print(
                    "Type the number in front of an action, or the action text itself. "
                    "'q' stops the game (a --save file keeps what was played)."
                )
                continue
            if raw.isdigit():
                index = int(raw)
                if 1 <= index <= len(choices):
                    return choices[index - 1][0]
                self.console.print(f"[red]There is no choice {index}: pick 1 to {len(choices)}.[/]")
                continue
            try:
                return state.action_from_text(raw, player)
            except ZigguratError as exc:
                self.console.print(f"[red]{exc}[/]", highlight=False, soft_wrap=True)


def replay_record(record: GameRecord, console: Console, player: int | None = None, pause: bool | None = None) -> State:
    """Step through ``record`` showing the view of ``player`` (None: spectator)."""
    final = record.replay()  # checks the whole record before showing anything
    game = final.game
    if player is not None and not 0 <= player < game.num_players:
        raise ZigguratError(f"--player must be between 1 and {game.num_players}")
    if pause is None:
        pause = sys.stdin.isatty()
    entry = get_game(game.spec.id)
    seats = record.seats or ["?"] * game.num_players
    console.print(f"[bold]Replay: {game.describe()}[/] (seed {record.seed})")
    state = game.new_initial_state()
    for n, (actor, action) in enumerate(record.actions, 1):
        text = state.action_to_text(action, actor)
        state.apply_action(action, None if actor == CHANCE else actor)
        if actor == CHANCE:
            continue
        console.print(f"move {n}: Player {actor + 1} ({seats[actor]}): {text}", highlight=False)
        if state.current_player() == SIMULTANEOUS:
            continue
        if entry.render is not None:
            console.print(entry.render(state.view(player), player))
        if pause:
            try:
                answer = input("Enter for the next move, q to stop> ")
            except (EOFError, KeyboardInterrupt):
                return state
            if answer.strip().lower() in ("q", "quit"):
                return state
    if state.is_terminal():
        outcome = state.outcome()
        console.print(
            "Final: "
            + ", ".join(
                f"Player {p + 1} {s:g} (rank {r})"
                for p, (s, r) in enumerate(zip(outcome.scores, outcome.ranks, strict=True))
            )
        )
    return state
