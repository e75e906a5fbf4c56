"""Hot seat in a real terminal (a pseudo-terminal): the alternate screen, wiped scrollback, one hand-over per round."""

from __future__ import annotations

import itertools
import os
import pty
import select
import subprocess
import sys
import time

from ziggurat.cli.session import ALT_SCREEN_OFF, ALT_SCREEN_ON, WIPE

HAND_OVER = "press Enter when only you can see the screen"
ASK = "number or action text"


class Terminal:
    """``ziggurat`` running on a pseudo-terminal: what it wrote, and a way to answer its prompts."""

    def __init__(self, *args: str):
        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "160", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ziggurat", *args], stdin=slave, stdout=slave, stderr=slave, env=env
        )
        os.close(slave)
        self.out = ""
        self.read_upto = 0
        self.mark_end = 0

    def read_until(self, *marks: str, timeout: float = 30.0) -> str:
        """Read until one of ``marks`` appears in what is new since the last answer; return it."""
        end = time.monotonic() + timeout
        while True:
            new = self.out[self.read_upto :]
            found = sorted((new.index(m), m) for m in marks if m in new)
            if found:  # the earliest mark first: one chunk of output may hold several
                position, mark = found[0]
                self.mark_end = self.read_upto + position + len(mark)
                return mark
            remaining = end - time.monotonic()
            assert remaining > 0, f"timed out waiting for {marks}; last output: {new[-500:]!r}"
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    return ""
                self.out += chunk.decode("utf-8", "replace")

    def answer(self, text: str) -> None:
        self.read_upto = len(self.out)
        os.write(self.master, text.encode() + b"\r")

    def close(self, timeout: float = 30.0) -> int:
        """Read everything until the program ends (it would block on a full terminal otherwise)."""
        end = time.monotonic() + timeout
        try:
            while time.monotonic() < end:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if ready:
                    try:
                        chunk = os.read(self.master, 65536)
                    except OSError:  # the other end is closed: the program ended
                        break
                    if not chunk:
                        break
                    self.out += chunk.decode("utf-8", "replace")
                elif self.proc.poll() is not None:
                    break
            return self.proc.wait(timeout=max(0.1, end - time.monotonic()))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self.master)


def test_kukulkan_hot_seat_hands_over_once_per_player_per_round_on_a_wiped_alternate_screen() -> None:
    term = Terminal("play", "kukulkan", "--seats", "human,human", "--seed", "5")
    rounds = 0
    hand_overs: list[int] = []  # the round of each hand-over
    try:
        while rounds < 3:
            mark = term.read_until(HAND_OVER, ASK, "Revealed together")
            if mark == HAND_OVER:
                hand_overs.append(rounds)
                term.answer("")
            elif mark == ASK:
                term.answer("1")
            elif mark == "Revealed together":
                rounds += 1
                term.read_upto = term.mark_end
            else:
                raise AssertionError("the game ended early: " + term.out[-500:])
        while term.read_until(HAND_OVER, ASK) == HAND_OVER:
            term.answer("")
        term.answer("q")
    finally:
        code = term.close()
    out = term.out
    assert code == 1, out[-500:]
    assert out.index(ALT_SCREEN_ON) < out.index(HAND_OVER), "the game runs on the alternate screen"
    assert ALT_SCREEN_OFF in out[out.rindex(HAND_OVER) :], "and leaves it at the end"
    assert [hand_overs.count(r) for r in range(3)] == [2, 2, 2], hand_overs
    # the screen and the scrollback are wiped before and after every hand-over
    pieces = out.split(HAND_OVER)
    for before, after in itertools.pairwise(pieces):
        assert WIPE in before[-400:], "wiped before the next player comes"
        assert WIPE in after[:200], "wiped again once they confirm"
    assert "Traceback" not in out


def test_one_human_against_bots_needs_no_terminal_tricks() -> None:
    term = Terminal("play", "kuhnah", "--seats", "human,random", "--seed", "5")
    try:
        term.read_until(ASK)
        term.answer("q")
    finally:
        code = term.close()
    assert code == 1
    assert ALT_SCREEN_ON not in term.out and HAND_OVER not in term.out
