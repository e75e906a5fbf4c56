"""Terminal play: humans and bots around one table, hot seat included; and replays.

Everything a human is shown is drawn from ``state.view(player)``; chance
outcomes are never printed (they may be hidden: a card removed unseen), and the
choices made at a simultaneous node are printed only once all are in. The log
names what moved (``State.describe_action``), a refused move says why
(``State.why_illegal``, through the error it raises), and the end shows each
player's score term by term (``State.score_breakdown``); ``score`` at the prompt
shows the standing as the player to move sees it. Text that
comes from a user, a file or a record is never read as terminal markup: the
consoles here print with ``markup=False``.

Hot seat (several humans at one keyboard) runs on the terminal's alternate
screen, wiped (scrollback too) before the keyboard changes hands, so nobody can
scroll back to the previous player's hand; it is refused when the output is not
a terminal. In a simultaneous round each player makes their whole choice in one
go, so the keyboard changes hands once per player per round.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ziggurat.core import SIMULTANEOUS, GameRecord, Match, ZigguratError, get_game
from ziggurat.core.export import audience_steps, record_moments
from ziggurat.core.game import Game, State
from ziggurat.core.outcome import ScoreBreakdown

ALT_SCREEN_ON = "\x1b[?1049h"
ALT_SCREEN_OFF = "\x1b[?1049l"
WIPE = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scrollback


class QuitGame(Exception):
    """A human asked to stop, input ended, or Ctrl-C was pressed (``interrupted``)."""

    def __init__(self, interrupted: bool = False):
        super().__init__("interrupted" if interrupted else "quit")
        self.interrupted = interrupted


def is_terminal(file: TextIO | Any) -> bool:
    """Whether ``file`` is really a terminal (not what an environment variable claims)."""
    try:
        return os.isatty(file.fileno())
    except (AttributeError, OSError, ValueError):
        return False


class PlaySession:
    """One game in the terminal. ``input_fn`` is replaceable for tests.

    ``match`` continues a game already under way (``ziggurat play --resume``);
    bots that carry something between decisions think their earlier ones again.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        seed: int,
        console: Console,
        watch: bool = False,
        input_fn: Callable[[str], str] = input,
        match: Match | None = None,
    ):
        self.match = match if match is not None else Match(game, seed)
        self.seats = list(seats)
        self.console = console
        self.watch = watch
        self.input_fn = input_fn
        self.entry = get_game(game.spec.id)
        self.bots = {p: self.match.make_bot(name, p) for p, name in enumerate(seats) if name != "human"}
        for p, bot in self.bots.items():
            self.match.catch_up(bot, p)
        self.humans = [p for p, name in enumerate(seats) if name == "human"]
        self.hot_seat = len(self.humans) > 1
        if self.hot_seat and not is_terminal(console.file):
            raise ZigguratError(
                "hot seat (several humans) needs a terminal: the screen is wiped between players, "
                "which a file or a pipe cannot do"
            )
        self._at_keyboard: int | None = None
        self._alt = False

    def label(self, player: int) -> str:
        """``Player 2 (random)``."""
        return f"Player {player + 1} ({self.seats[player]})"

    def say(self, text: str, style: str = "") -> None:
        """Print ``text`` as it is (no markup, no highlighting)."""
        self.console.print(Text(text, style=style), soft_wrap=True)

    def draw(self, player: int | None) -> None:
        """Draw the table as ``player`` sees it (None: spectator)."""
        if self.entry.render is not None:
            self.console.print(self.entry.render(self.match.state.view(player), player))

    def _raw(self, code: str) -> None:
        self.console.file.write(code)
        self.console.file.flush()

    def run(self) -> bool:
        """Play to the end; return False if the game stopped early (quit, end of input, Ctrl-C).

        A stop raises nothing: the match keeps everything played so far, ready
        to be saved. ``self.interrupted`` tells a Ctrl-C from a quit.
        """
        m = self.match
        self.interrupted = False
        if self.hot_seat:
            self._raw(ALT_SCREEN_ON + WIPE)
            self._alt = True
        try:
            self.say(m.game.describe() + " — " + ", ".join(map(self.label, range(len(self.seats)))), "bold")
            self._play()
        except QuitGame as stop:
            self.interrupted = stop.interrupted
            self._leave_screen()
            self.say("Game stopped.", "yellow")
            return False
        except KeyboardInterrupt:
            self.interrupted = True
            self._leave_screen()
            self.say("Game stopped.", "yellow")
            return False
        self._leave_screen()
        self.finish()
        return True

    def _leave_screen(self) -> None:
        if self._alt:
            self._raw(WIPE + ALT_SCREEN_OFF)
            self._alt = False

    def _play(self) -> None:
        m = self.match
        m.resolve_chance()
        held: list[str] = []
        while not m.state.is_terminal():
            state = m.state
            if state.is_simultaneous_node():
                round_players = set(state.players_to_move())
                for p in state.players_to_move():
                    # the player's whole choice for the round, in one go (one hand-over per round)
                    while (
                        state.current_player() == SIMULTANEOUS
                        and p in state.players_to_move()
                        and set(state.players_to_move()) <= round_players
                    ):
                        held.append(self._move(p))
            else:
                self.say(self._move(state.current_player()))
            if held and not state.is_simultaneous_node():
                self.say("Revealed together:", "bold")
                for line in held:
                    self.say("  " + line)
                held.clear()
            m.resolve_chance()
            if self.watch and not self.humans:
                self.draw(None)

    def _move(self, p: int) -> str:
        """``p`` decides and the action is applied; return the line telling what they did.

        The line names what moved as ``p`` saw it; a choice of a simultaneous
        round is printed only once the round is revealed (``_play`` holds it).
        """
        state = self.match.state
        action = self.match.decide(self.bots[p], p) if p in self.bots else self.ask(p)
        line = f"{self.label(p)}: {state.describe_action(action, p, audience=p)}"
        state.apply_action(action, p)
        return line

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
            table.add_row(Text(self.label(p)), f"{score:g}", str(outcome.ranks[p]))
        self.console.print(table)
        self.console.print(breakdown_table(self.match.state.score_breakdown(None), self.label))
        self.say(f"The game ended: {outcome.end.text}.")
        winners = " and ".join(self.label(p) for p in outcome.winners)
        self.say(f"Winner: {winners}" if len(outcome.winners) == 1 else f"Shared win: {winners}")

    def _hand_over(self, player: int) -> None:
        """With several humans at one keyboard, wipe the screen until the next one is there."""
        if self.hot_seat and self._at_keyboard != player:
            self._raw(WIPE)
            self.say(f"Pass the keyboard to {self.label(player)}.", "bold")
            self._read(f"{self.label(player)}, press Enter when only you can see the screen: ")
            self._raw(WIPE)
        self._at_keyboard = player

    def _read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except EOFError:
            raise QuitGame from None
        except KeyboardInterrupt:
            raise QuitGame(interrupted=True) from None

    def ask(self, player: int) -> int:
        """Show ``player`` their view and legal actions; return the chosen id."""
        self._hand_over(player)
        state = self.match.state
        self.draw(player)
        choices = state.legal_action_texts(player)
        self.say(f"{self.label(player)}, choose:", "bold")
        self.console.print(Columns([Text(f"{i:>3}. {text}") for i, (_, text) in enumerate(choices, 1)], padding=(0, 3)))
        while True:
            raw = self._read("number or action text (? help, q quit)> ").strip()
            if not raw:
                continue
            if raw.lower() in ("q", "quit", "exit"):
                raise QuitGame
            if raw in ("?", "help"):
                self.say(
                    "Type the number in front of an action, or the action text itself (a move that is "
                    "not allowed says why). 'score' shows how the scores stand. "
                    "'q' stops the game (with --save the record keeps what was played; "
                    "ziggurat play --resume FILE goes on)."
                )
                continue
            if raw.lower() == "score":
                try:
                    standing = state.score_breakdown(player)
                except ZigguratError as exc:
                    self.say(str(exc), "red")
                else:
                    self.console.print(breakdown_table(standing, self.label))
                continue
            if raw.isascii() and raw.isdigit():
                index = int(raw)
                if 1 <= index <= len(choices):
                    return choices[index - 1][0]
                self.say(f"There is no choice {index}: pick 1 to {len(choices)}.", "red")
                continue
            try:
                return state.action_from_text(raw, player)
            except ZigguratError as exc:
                self.say(f"Not allowed: {exc}" if getattr(exc, "message", None) is not None else str(exc), "red")


def breakdown_table(breakdown: ScoreBreakdown, label: Callable[[int], str]) -> Table:
    """Every player's score term by term (``label(p)`` names a seat), the notes under it."""
    title = "Score breakdown" if breakdown.final else "Scores as they stand (if the game ended now)"
    table = Table(title=title, show_lines=False)
    table.add_column("seat")
    table.add_column("term")
    table.add_column("points", justify="right")
    for ps in breakdown.players:
        for i, term in enumerate(ps.terms):
            points = "?" if term.points is None else f"{term.points:g}"
            table.add_row(Text(label(ps.player) if i == 0 else ""), Text(term.label.text), points)
        total = "?" if ps.total is None else f"{ps.total:g}"
        table.add_row(Text(label(ps.player) if not ps.terms else ""), Text("total", style="bold"), total,
                      end_section=True)  # fmt: skip
    if breakdown.notes:
        table.caption = Text("\n".join(n.text for n in breakdown.notes))
    return table


def replay_record(record: GameRecord, console: Console, player: int | None = None, pause: bool | None = None) -> State:
    """Step through ``record`` as ``player`` (None: a spectator) saw it at the table.

    Only what that audience could see at each moment is printed: its view,
    and the moves as they reached it (others' simultaneous choices only once
    revealed: a game saved in the middle of a round never shows them).
    """
    final = record.replay()  # checks the whole record before showing anything
    game = final.game
    if player is not None and not 0 <= player < game.num_players:
        raise ZigguratError(f"--player must be between 1 and {game.num_players}")
    if pause is None:
        pause = sys.stdin.isatty()
    entry = get_game(game.spec.id)
    names = record.seats if len(record.seats) == game.num_players else ["?"] * game.num_players
    labels = [f"Player {p + 1} ({name})" for p, name in enumerate(names)]
    who = "a spectator" if player is None else labels[player]
    console.print(Text(f"Replay: {game.describe()}, as {who} saw it", style="bold"), soft_wrap=True)
    for _, log, state in audience_steps(record_moments(record), player):
        for item in log:
            if item.kind != "start":
                console.print(Text(item.describe(labels)), soft_wrap=True)
        if entry.render is not None:
            console.print(entry.render(state.view(player), player))
        if pause and not state.is_terminal():
            try:
                answer = input("Enter for the next move, q to stop> ")
            except (EOFError, KeyboardInterrupt):
                return final
            if answer.strip().lower() in ("q", "quit"):
                return final
    if final.is_terminal():
        outcome = final.outcome()
        console.print(
            Text(
                "Final: "
                + ", ".join(
                    f"Player {p + 1} {s:g} (rank {r})"
                    for p, (s, r) in enumerate(zip(outcome.scores, outcome.ranks, strict=True))
                )
            )
        )
        console.print(breakdown_table(final.score_breakdown(player), labels.__getitem__))
    return final
