"""Nothing hidden crosses the wire: every frame a seat receives is built from what it may see.

Two tests over real WebSockets (uvicorn on loopback), for every game:

* whole games between automatic players (each seat a random player on its own
  socket, plus spectators), recording every frame each audience is sent: every
  frame's view and actions are exactly the engine's ``view(audience)`` and legal
  actions at some moment of the game, in order, one frame per change the
  audience can see; frames carry only the known fields, and never the table's
  seed;
* twin tables: two tables with the same public history but different hidden
  information (one starts from a real position, the other from a redraw of it
  consistent with one seat's view, ``resample``), played with the same moves and
  the same seed: the seat that cannot see the difference, and a spectator, are
  sent byte-identical frames (data and HTML, board included) until the game
  itself shows them something different.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest

from tests.server.util import ThreadedServer
from tests.server.wire import Socket
from ziggurat.core import CHANCE, Match, game_ids, get_game, make_game

FRAME_KEYS = {"type", "n", "seat", "status", "seats", "view", "actions", "undo", "log", "html", "ack"}
CASES = [("kuhnah", 3), ("pyramix", 2), ("lucent", 3), ("kukulkan", 2), ("nakum", 2), ("lucent", 4), ("kuhnah", 2)]


def create(server: ThreadedServer, game: str, players: int, seed: int, position: dict | None = None) -> dict:
    body: dict[str, Any] = {"game": game, "seats": ["me"] + ["human"] * (players - 1), "name": "P1", "seed": seed}
    if position is not None:
        body["position"] = position
    r = httpx.post(server.url + "/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    tokens = {created["seat"]: created["token"]}
    for inv in created["invites"]:
        c = httpx.post(server.url + "/api/seats/claim", json={"token": inv["token"], "name": f"P{inv['seat'] + 1}"})
        assert c.status_code == 200
        tokens[inv["seat"]] = c.json()["token"]
    return {"id": created["id"], "tokens": tokens}


async def open_all(server: ThreadedServer, table: dict, players: int, fmt: str = "data") -> dict[Any, Socket]:
    sockets: dict[Any, Socket] = {}
    for seat in range(players):
        sockets[seat] = await Socket(server.ws_url, table["id"], table["tokens"][seat], fmt).open()
    sockets[None] = await Socket(server.ws_url, table["id"], None, fmt).open()
    return sockets


async def step(sockets: dict[Any, Socket], rng: random.Random, choose: Any = None) -> bool:
    """Every seat to move plays once; then every socket is drained. False once the game is over."""
    status = sockets[None].last["status"]  # type: ignore[index]
    if status["phase"] == "over":
        return False
    for seat in status["to_move"]:
        await sockets[seat].sync()
        mine = sockets[seat].last
        assert mine is not None and mine["actions"], "a seat to move must be offered actions"
        action = choose(seat, mine) if choose else rng.choice(mine["actions"])["id"]
        if action is None:
            return False
        answer = await sockets[seat].act(action, mine["n"])
        assert answer["type"] == "ack", answer
    for s in sockets.values():
        await s.sync()
    return True


def rest_points(table_id: str, server: ThreadedServer) -> tuple[Any, list[Any]]:
    """The states of the stored game at rest (after each decision and the chance that follows it)."""
    record = server.app.state.server.store.load_table(table_id)
    game = make_game(record.game, record.players, record.options)
    state = game.state_from_json(record.position) if record.position else game.new_initial_state()
    points = []
    rows = record.rows
    for i, row in enumerate(rows):
        state.apply_action(row.action_id, None if row.seat == CHANCE else row.seat)
        if i + 1 == len(rows) or rows[i + 1].seat != CHANCE:
            points.append(state.clone())
    return record, points


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_every_frame_is_a_view_of_its_audience(wire_server: ThreadedServer, game: str, players: int) -> None:
    seed = random.Random(game).getrandbits(62) | (1 << 61)  # 19 digits: never in a frame by chance
    table = create(wire_server, game, players, seed)

    async def play() -> dict[Any, Socket]:
        sockets = await open_all(wire_server, table, players)
        html = await Socket(wire_server.ws_url, table["id"], table["tokens"][0], "html").open()
        rng = random.Random(1)
        while await step(sockets, rng):
            await html.sync()
        await html.sync()
        sockets["html"] = html
        for s in sockets.values():
            await s.close()
        return sockets

    sockets = asyncio.run(play())
    record, points = rest_points(table["id"], wire_server)
    assert points[-1].is_terminal()
    for audience in [*range(players), None]:
        sock = sockets[audience]
        frames = [json.loads(t) for t in sock.frames]
        assert frames[-1]["status"]["phase"] == "over"
        k = 0
        for f in frames:
            assert set(f) <= FRAME_KEYS, set(f) - FRAME_KEYS
            assert f["seat"] == audience
            # the frame is the audience's view at some later moment of the game, with its legal actions
            while k < len(points):
                expected_view = points[k].view(audience)
                legal = points[k].legal_action_texts(audience) if audience in points[k].players_to_move() else []
                if f["view"] == expected_view and [(a["id"], a["text"]) for a in f["actions"]] == legal:
                    break
                k += 1
            assert k < len(points), f"{game}: a frame for {audience} matches no view of the game"
        # one frame per change this audience could see: its event numbers grow one log entry at a time
        assert [f["n"] for f in frames] == sorted({f["n"] for f in frames})
        assert sum(len(f["log"]) for f in frames) == frames[-1]["n"]
        assert str(record.seed) not in "".join(sock.frames)
    html_frames = [json.loads(t) for t in sockets["html"].frames]
    assert all(f["html"]["board"].startswith(("<svg", "<pre")) for f in html_frames)
    assert str(record.seed) not in "".join(sockets["html"].frames)


def twin_positions(game: str, players: int, seat: int, seed: int) -> tuple[dict, dict] | None:
    """A mid-game state and a redraw of its hidden part as ``seat`` sees it (None if nothing is hidden)."""
    rng = random.Random(seed)
    match = Match(make_game(game, players), seed=seed)
    match.resolve_chance()
    steps = rng.randrange(3, 12)
    for _ in range(steps):
        if match.state.is_terminal():
            break
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
            if match.state.is_simultaneous_node() and rng.random() < 0.5:
                break  # stop mid-round sometimes: the others' pending choices are hidden
        if match.state.is_chance_node():
            match.resolve_chance()
    if match.state.is_terminal() or match.state.is_chance_node():
        return None
    true_state = match.state
    for attempt in range(20):
        other = true_state.resample(seat, random.Random(seed * 100 + attempt))
        if other._dump() != true_state._dump():
            assert other.view(seat) == true_state.view(seat)
            return true_state.to_json(), other.to_json()
    return None


HIDDEN = [g for g in game_ids() if get_game(g).game_class.spec.has_hidden_information]


@pytest.mark.parametrize("game", HIDDEN)
def test_twin_tables_send_identical_bytes_to_whoever_cannot_tell_them_apart(
    wire_server: ThreadedServer, game: str
) -> None:
    players = 3 if get_game(game).game_class.spec.max_players >= 3 else 2
    compared = 0
    tried = 0
    for seed in range(1, 40):
        seat = seed % players
        twins = twin_positions(game, players, seat, seed)
        if twins is None:
            continue
        tried += 1
        compared += asyncio.run(_twin_run(wire_server, game, players, seat, seed, *twins))
        if tried >= 3:
            break
    assert tried >= 3, f"{game}: no twin positions found"
    assert compared >= 6, f"{game}: only {compared} identical frames compared"


async def _twin_run(
    server: ThreadedServer, game: str, players: int, seat: int, seed: int, real: dict, redrawn: dict
) -> int:
    """Play the twins with the same moves; return how many frames were compared identical."""
    a = create(server, game, players, seed, real)
    b = create(server, game, players, seed, redrawn)
    kinds = {"data": (seat, "data"), "html": (seat, "html"), "spec": (None, "data"), "spec-html": (None, "html")}
    watch_a = {k: await Socket(server.ws_url, a["id"], a["tokens"].get(s), f).open() for k, (s, f) in kinds.items()}
    watch_b = {k: await Socket(server.ws_url, b["id"], b["tokens"].get(s), f).open() for k, (s, f) in kinds.items()}
    play_a = await open_all(server, a, players)
    play_b = await open_all(server, b, players)
    everything = [*watch_a.values(), *watch_b.values(), *play_a.values(), *play_b.values()]
    rng = random.Random(seed)
    try:
        for _ in range(400):
            for sock in everything:
                await sock.sync()
            if _diverged(game, watch_a, watch_b):
                break
            status = play_a[None].last["status"]  # type: ignore[index]
            if status["phase"] == "over" or play_b[None].last["status"] != status:  # type: ignore[index]
                break
            moves = {}  # the same moves on both tables; a move legal in one only ends the comparison
            for p in status["to_move"]:
                ours = {x["id"] for x in play_a[p].last["actions"]}  # type: ignore[index]
                theirs = {x["id"] for x in play_b[p].last["actions"]}  # type: ignore[index]
                common = sorted(ours & theirs)
                if not common:
                    break
                moves[p] = rng.choice(common)
            if len(moves) != len(status["to_move"]):
                break
            for p, action in moves.items():
                ra = await play_a[p].act(action, play_a[p].last["n"])  # type: ignore[index]
                rb = await play_b[p].act(action, play_b[p].last["n"])  # type: ignore[index]
                assert ra["type"] == rb["type"] == "ack", (ra, rb)
        for sock in everything:
            await sock.sync()
        _diverged(game, watch_a, watch_b)
        return sum(_same_prefix(watch_a[k].frames, watch_b[k].frames) for k in kinds)
    finally:
        for sock in everything:
            await sock.close()


def _same_prefix(xs: list[str], ys: list[str]) -> int:
    n = 0
    for x, y in zip(xs, ys, strict=False):
        if x != y:
            break
        n += 1
    return n


def _diverged(game: str, watch_a: dict[str, Socket], watch_b: dict[str, Socket]) -> bool:
    """True once the twins showed a watcher something different; fails if frames differ but the game does not."""
    diverged = False
    for key in watch_a:
        fa, fb = watch_a[key].frames, watch_b[key].frames
        k = _same_prefix(fa, fb)
        if k < min(len(fa), len(fb)):
            x, y = json.loads(fa[k]), json.loads(fb[k])
            assert x["view"] != y["view"] or x["actions"] != y["actions"] or x["log"] != y["log"], (
                f"{game}: frame {k} for {key} differs between the twins though its view, actions and log agree"
            )
            diverged = True
    return diverged
