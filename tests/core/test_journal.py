"""The journal: what each audience has seen happen, with simultaneous choices held back until revealed."""

from __future__ import annotations

import random

import pytest

from ziggurat.core import Match, make_game
from ziggurat.core.journal import Entry, Journal


def test_public_moves_reach_everyone_in_order() -> None:
    m = Match(make_game("kuhnah", 3), seed=2)
    m.resolve_chance()
    j = Journal(3)
    texts = []
    for _ in range(6):
        p = m.state.current_player()
        a = m.state.legal_actions()[0]
        texts.append(m.state.action_to_text(a, p))
        j.play(m.state, a)
        m.resolve_chance()
    for audience in (0, 1, 2, None):
        assert [e.text for e in j.entries(audience)] == texts
        assert j.count(audience) == 6


def kukulkan_round(seed: int) -> tuple[Match, Journal, dict[int, list[str]]]:
    m = Match(make_game("kukulkan", 2), seed=seed)
    m.resolve_chance()
    return m, Journal(2), {0: [], 1: []}


def test_simultaneous_choices_are_private_until_the_round_ends() -> None:
    m, j, made = kukulkan_round(4)
    rng = random.Random(1)
    # seat 1 chooses everything for the round; seat 2 has not chosen yet
    while 0 in m.state.players_to_move():
        legal = m.state.legal_actions(0)
        a = legal[rng.randrange(len(legal))]
        made[0].append(m.state.action_to_text(a, 0))
        j.play(m.state, a, 0)
    mine = [e for e in j.entries(0) if e.kind == "move"]
    assert [e.text for e in mine] == made[0] and all(e.private for e in mine)
    for other in (1, None):
        assert [e.kind for e in j.entries(other)] == ["ready"]  # only that seat 1 is ready
    # the round ends when seat 2 has chosen: everyone sees every choice
    while 1 in m.state.players_to_move():
        legal = m.state.legal_actions(1)
        a = legal[rng.randrange(len(legal))]
        made[1].append(m.state.action_to_text(a, 1))
        j.play(m.state, a, 1)
    assert [e.text for e in j.entries(1) if e.kind == "move" and e.seat == 0] == made[0]
    assert [e.text for e in j.entries(0) if e.kind == "move" and e.seat == 1] == made[1]
    spectator = [(e.seat, e.text) for e in j.entries(None) if e.kind == "move"]
    assert spectator == [(0, t) for t in made[0]] + [(1, t) for t in made[1]]
    assert not any(e.private for e in j.entries(None))


def test_event_numbers_do_not_tell_how_many_choices_others_made() -> None:
    counts = set()
    for seed in range(6):
        m, j, _ = kukulkan_round(seed)
        rng = random.Random(seed)
        while 0 in m.state.players_to_move():
            legal = m.state.legal_actions(0)
            j.play(m.state, legal[rng.randrange(len(legal))], 0)
        counts.add(j.count(1))
    assert counts == {1}  # whatever seat 1 drew, seat 2 has seen one thing: "ready"


def test_a_private_choice_taken_back_is_never_shown() -> None:
    j = Journal(2)
    m, _, _ = kukulkan_round(5)
    a = m.state.legal_actions(0)[0]
    text = m.state.action_to_text(a, 0)
    j.play(m.state, a, 0)
    j.undo(0, text, private=True, choosing_again=False)
    assert [e.kind for e in j.entries(0)] == ["move", "undo"]
    assert j.entries(1) == [] and j.entries(None) == []
    j._reveal()
    assert j.entries(1) == []


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        (Entry("move", 1, "take 9a"), "Bea: take 9a"),
        (Entry("ready", 0), "Ana is ready"),
        (Entry("choosing", 0), "Ana is choosing again"),
        (Entry("undo", 1, "jade 9a"), "Bea took back jade 9a"),
        (Entry("join", 1, "Bea"), "Bea sits at seat 2"),
        (Entry("start"), "The game begins"),
        (Entry("end", None, "Game over"), "Game over"),
    ],
)
def test_entries_read_as_sentences(entry: Entry, line: str) -> None:
    assert entry.describe(["Ana", "Bea"]) == line


def test_moves_carry_their_description_revealed_with_the_move() -> None:
    """Replays and exports log what moved; another seat gets a choice's description only once it is revealed."""
    m, j, _ = kukulkan_round(4)
    described = []
    while 0 in m.state.players_to_move():
        a = m.state.legal_actions(0)[0]
        described.append(m.state.describe_action(a, 0, audience=0))
        j.play(m.state, a, 0)
    assert [e.message for e in j.entries(0) if e.kind == "move"] == described
    assert [(e.kind, e.message) for e in j.entries(1)] == [("ready", None)], "seat 2 sees only that seat 1 is ready"
    while 1 in m.state.players_to_move():
        j.play(m.state, m.state.legal_actions(1)[0], 1)
    shown = [e for e in j.entries(1) if e.kind == "move" and e.seat == 0]
    assert [e.message for e in shown] == described
    assert shown[0].describe(["Ana", "Bo"]) == f"Ana: {described[0].text}"
    assert shown[0].to_json()["message"] == described[0].to_json()
    assert "message" not in Entry("ready", 0).to_json()


def test_json_since_is_each_audiences_entries_as_json_made_once() -> None:
    """What a server sends: every audience's entries from its event number on, as to_json, each made once."""
    m, j, _ = kukulkan_round(3)
    rng = random.Random(3)
    for _ in range(40):
        if m.state.is_terminal():
            break
        m.resolve_chance()
        p = m.state.players_to_move()[0]
        j.play(m.state, rng.choice(m.state.legal_actions(p)), p)
        if rng.random() < 0.1:
            j.undo(p, "x", False, False)
        for a in j.audiences():
            for start in (0, max(0, j.count(a) - 2), j.count(a)):
                assert j.json_since(a, start) == [e.to_json() for e in j.entries(a)[start:]]
    spectator = {id(e): k for k, e in enumerate(j.entries(None))}
    shared = [(k, spectator[id(e)]) for k, e in enumerate(j.entries(1)) if e.kind == "move" and id(e) in spectator]
    assert shared
    for k, s in shared:
        assert j.json_since(1, 0)[k] is j.json_since(None, 0)[s], "one JSON for an entry both see"
