"""Load test of the web app: many tables played at once over real WebSockets on loopback.

Starts ``ziggurat serve`` (bots off) on SQLite and/or a throwaway PostgreSQL,
creates ``--tables`` tables whose every seat is an automatic player on its own
WebSocket (a random legal move as soon as it is its turn, sent with its event
number), plus one spectator socket per table, and plays for ``--seconds`` (a
finished table is replaced by a new one). Prints moves per second and three
latencies: the server's own (from receiving a move to having sent its frame to
every connection of the table it holds, p50/p99), the mover's round trip (send
-> acknowledgement) and "everyone" (send -> the last connection of the table,
players and spectator, has the move), and the CPU time per move of the server
processes (``cpu ms/mv``) and of the load generator itself (``gen ms/mv``: it
shares the machine's cores, so what it spends is taken from the server). Two more
columns say where a slow move's time went: ``db wait p99``, a move group's wait for
the database (from the log writer's hand-over to its commit), and ``loop lag p99``,
how late the server's event loop ran a timer (a busy or blocked process).

The load generator is made to cost little while measuring the same thing: every
seat and spectator has its own real socket with compression as configured, and
every frame is received and inflated in full; the players parse theirs (orjson),
the spectator reads only whether a frame carries a move and whether the game is
over; the HTTP client keeps no cookies (the server sets one per seat created).

With ``--bot-tables 50`` the server also plays that many tables of bots only
(``--bot``, IS-MCTS level 1 by default, no delay, a new table as soon as one
ends) in its bot workers, to see what a flood of bot tables costs the people
playing: their moves' latency is what is measured.

With ``--processes 2`` (PostgreSQL only) two server processes share the
database, and the sockets of each table are spread over both, so that most
moves reach some of their audience through the other process (LISTEN/NOTIFY,
then the move log): "everyone" then includes that hop.

With ``--split-cores`` the load generator runs on the first half of the machine's
cores and the server side (its processes, PostgreSQL, Redis) on the others, as if the
clients were other machines: without it the scheduler shares every core between the
two, and a server thread waits behind the load generator's time slices.

    python benchmarks/server.py --tables 200 --seconds 20 --db sqlite postgresql
    python benchmarks/server.py --db postgresql --processes 1 2

Figures, not a test: timing never fails anything.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.pg import TempPostgres
from tests.server.redis_server import TempRedis
from tests.server.util import LiveServer


class Player:
    """One seat's socket: plays a random legal move whenever the frame says it is its turn."""

    def __init__(self, bench: Bench, table: Tracker, port: int, token: str | None, rng: random.Random):
        self.bench = bench
        self.tracker = table
        self.table = table.id
        self.port = port
        self.token = token
        self.rng = rng
        self.ws: websockets.ClientConnection | None = None
        self.sent_at: dict[str, float] = {}
        self.counter = 0

    async def run(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            pass
        except websockets.ConnectionClosed as exc:
            if not self.bench.stopping:
                print(f"player of table {self.table}: connection closed {exc!r}", file=sys.stderr)
        except Exception as exc:  # a broken benchmark should say so
            print(f"player of table {self.table}: {exc!r}", file=sys.stderr)

    async def _run(self) -> None:
        url = f"ws://127.0.0.1:{self.port}/api/tables/{self.table}/ws"
        async with websockets.connect(url, max_size=2**24) as ws:
            self.ws = ws
            hello = {"type": "hello", "since": 0, "format": self.bench.fmt}
            if self.token:
                hello["token"] = self.token
            await ws.send(orjson.dumps(hello).decode())
            if self.token is None:
                await self._watch(ws)
                return
            bench, tracker, sent_at = self.bench, self.tracker, self.sent_at
            async for text in ws:
                msg = orjson.loads(text)
                kind = msg["type"]
                if kind == "frame":
                    if any(e["kind"] == "move" for e in msg["log"]):
                        tracker.seen(self)
                    started = sent_at.pop(msg.get("ack"), None)
                    if started is not None:
                        bench.acked(time.perf_counter() - started)
                    if msg["status"]["phase"] == "over":
                        return
                    if msg["actions"] and not bench.stopping:
                        if bench.think:
                            await asyncio.sleep(bench.think * (0.5 + self.rng.random()))
                        action = self.rng.choice(msg["actions"])["id"]
                        self.counter += 1
                        mid = f"{self.counter}"
                        sent_at[mid] = now = time.perf_counter()
                        tracker.sent(now)
                        act = f'{{"type":"act","action":{int(action)},"n":{int(msg["n"])},"id":"{mid}"}}'
                        await ws.send(act)
                elif kind == "ack":
                    started = sent_at.pop(msg["id"], None)
                    if started is not None:
                        bench.acked(time.perf_counter() - started)
                elif kind == "error" and msg.get("id"):
                    sent_at.pop(msg["id"], None)
                    bench.errors += 1
                if bench.stopping and not sent_at:
                    return

    async def _watch(self, ws: websockets.ClientConnection) -> None:
        """The spectator: every frame is received (and inflated) in full, but read only as far as it needs:
        whether it carries a move (its log is last in the frame) and whether the game is over (the status,
        whose phase comes before the view, is near the front)."""
        tracker = self.tracker
        async for text in ws:
            if self.bench.stopping:
                return
            if not text.startswith('{"type":"frame"'):
                continue
            if self.bench.fmt == "html":  # its rendered log comes after the data: read it whole
                frame = orjson.loads(text)
                if any(e["kind"] == "move" for e in frame["log"]):
                    tracker.seen(self)
                if frame["status"]["phase"] == "over":
                    self.bench.finished(self.table)
                    return
                continue
            log = text.rfind('"log":[')
            if text.find('{"kind":"move"', log) >= 0:
                tracker.seen(self)
            if text.find('"phase":"over"', 0, text.find('"view":')) >= 0:
                self.bench.finished(self.table)
                return


class Tracker:
    """One table's connections: when a move was sent, and who has not seen it yet ("everyone" latency)."""

    def __init__(self, bench: Bench, table_id: str):
        self.bench = bench
        self.id = table_id
        self.players: list[Player] = []
        self.started: float | None = None
        self.waiting: set[int] = set()

    def sent(self, at: float) -> None:
        self.started = at
        self.waiting = {id(p) for p in self.players}

    def seen(self, player: Player) -> None:
        if self.started is None:
            return
        self.waiting.discard(id(player))
        if not self.waiting:
            self.bench.everyone.append(time.perf_counter() - self.started)
            self.started = None


class Bench:
    """The load generator: keeps ``tables`` tables busy for ``seconds``."""

    def __init__(
        self,
        ports: list[int],
        game: str,
        players: int,
        tables: int,
        seconds: float,
        seed: int,
        think: float,
        bot_tables: int = 0,
        bot: str = "ismcts:1",
        pids: list[int] | None = None,
        stagger: float = 0.0,
        fmt: str = "data",
    ):
        self.stagger = stagger
        self.fmt = fmt
        self.ports = ports
        self.pids = pids or []
        self.bot_tables = bot_tables
        self.bot = bot
        self.bot_games = 0
        self.think = think
        self.game = game
        self.players = players
        self.tables = tables
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.moves = 0
        self.errors = 0
        self.rtts: list[float] = []
        self.everyone: list[float] = []
        self.created = 0
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.clients = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=60) for p in ports]
        self.games_done = 0

    def acked(self, rtt: float) -> None:
        self.moves += 1
        self.rtts.append(rtt)

    def finished(self, _table: str) -> None:
        self.games_done += 1
        if not self.stopping:
            self._spawn(asyncio.ensure_future(self.new_table()))

    def _spawn(self, task: asyncio.Future[None]) -> None:
        self.tasks.add(task)  # type: ignore[arg-type]
        task.add_done_callback(self.tasks.discard)  # type: ignore[arg-type]

    async def new_table(self, delay: float = 0.0) -> None:
        if delay:
            await asyncio.sleep(delay)
        try:
            await self._new_table()
        except httpx.HTTPError:
            # e.g. the server closed a kept-alive connection just as it was used again: counted, and another
            # table takes this one's place (the run keeps its number of tables)
            self.errors += 1
            if not self.stopping:
                self._spawn(asyncio.ensure_future(self.new_table(delay=0.1)))

    async def _new_table(self) -> None:
        # table k is created on process k, and its connections go to processes k, k+1, ... in turn
        k = self.created
        self.created += 1
        n = len(self.ports)
        client = self.clients[k % n]
        seats = ["me"] + ["human"] * (self.players - 1)
        r = await client.post("/api/tables", json={"game": self.game, "seats": seats, "name": "bench"})
        client.cookies.clear()  # the seats' cookies: the sockets send tokens (a jar of every table's grows slow)
        created = r.json()
        tokens = [created["token"]]
        for inv in created["invites"]:
            seated = await client.post("/api/seats/claim", json={"token": inv["token"], "name": f"p{inv['seat']}"})
            client.cookies.clear()
            tokens.append(seated.json()["token"])
        tracker = Tracker(self, created["id"])
        for i, token in enumerate([*tokens, None]):
            rng = random.Random(self.rng.random()) if token else self.rng
            tracker.players.append(Player(self, tracker, self.ports[(k + i) % n], token, rng))
        for p in tracker.players:
            self._spawn(asyncio.ensure_future(p.run()))

    async def bots_only(self) -> None:
        """Keep ``bot_tables`` tables of bots playing (a finished one is replaced at once)."""
        client = self.clients[0]
        body = {"game": self.game, "seats": [self.bot] * self.players}

        async def create() -> str:
            return str((await client.post("/api/tables", json=body)).json()["id"])

        ids = [await create() for _ in range(self.bot_tables)]
        while not self.stopping:
            await asyncio.sleep(0.5)
            for i, table_id in enumerate(ids):
                if (await client.get(f"/api/tables/{table_id}")).json()["status"] == "over":
                    self.bot_games += 1
                    ids[i] = await create()

    async def run(self) -> dict[str, float]:
        if self.bot_tables:
            self._spawn(asyncio.ensure_future(self.bots_only()))
        # tables started together also end together, every few seconds a wave of games ending and new
        # tables joining at once; --stagger spreads the starts over that many seconds (then the warm-up)
        for k in range(self.tables):
            self._spawn(asyncio.ensure_future(self.new_table(delay=self.stagger * k / self.tables)))
        await asyncio.sleep(self.stagger + 1.0)  # warm up, then measure
        for client in self.clients:
            await client.post("/api/metrics/reset")
        start_moves, start, start_cpu = self.moves, time.perf_counter(), cpu_seconds(self.pids)
        start_gen = time.process_time()
        self.rtts.clear()
        self.everyone.clear()
        await asyncio.sleep(self.seconds)
        elapsed = time.perf_counter() - start
        moves = self.moves - start_moves
        used = cpu_seconds(self.pids) - start_cpu
        generated = time.process_time() - start_gen
        metrics = [(await c.get("/api/metrics")).json() for c in self.clients]
        self.stopping = True
        await asyncio.sleep(0.5)
        for t in list(self.tasks):
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for client in self.clients:
            await client.aclose()
        rtts = sorted(self.rtts)
        everyone = sorted(self.everyone)
        return {
            "moves_per_s": moves / elapsed,
            "cpu_ms_per_move": 1000 * used / moves if moves else float("nan"),
            "gen_ms_per_move": 1000 * generated / moves if moves else float("nan"),
            "server_p50_ms": max(m["latency_ms"]["p50"] for m in metrics),
            "server_p99_ms": max(m["latency_ms"]["p99"] for m in metrics),
            "wait_p99_ms": max(m["log_wait_ms"]["p99"] or 0.0 for m in metrics),
            "lag_p99_ms": max(m["loop_lag_ms"]["p99"] or 0.0 for m in metrics),
            "rtt_p50_ms": percentile(rtts, 0.5),
            "rtt_p99_ms": percentile(rtts, 0.99),
            "all_p50_ms": percentile(everyone, 0.5),
            "all_p99_ms": percentile(everyone, 0.99),
            "errors": self.errors,
            "games": self.games_done,
            "commits": sum(m["log_commits"] for m in metrics),
            "groups": sum(m["log_groups"] for m in metrics),
            "bot_games": self.bot_games,
        }


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) the server processes have used so far, in seconds (Linux /proc)."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted seconds, in milliseconds (nan when empty)."""
    if not sorted_values:
        return float("nan")
    return 1000 * sorted_values[int(q * (len(sorted_values) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--game", default="kuhnah")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--db", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"])
    parser.add_argument(
        "--processes", type=int, nargs="+", default=[1], help="server processes (above 1: PostgreSQL only)"
    )
    parser.add_argument(
        "--bus",
        nargs="+",
        default=["notify"],
        choices=["notify", "redis"],
        help="how processes hear of each other's moves (PostgreSQL only): LISTEN/NOTIFY or Redis pub/sub",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=[0.0, 0.15],
        nargs="+",
        help="seconds a player waits before moving (0: as fast as possible; 0.15: about 1,300 moves/s offered)",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="seconds over which the tables' starts are spread (0: all at once, so their games end in waves)",
    )
    parser.add_argument(
        "--format",
        default="data",
        choices=["data", "html"],
        help="the frames the sockets ask for: data (bots, other clients) or html (the browser's page: the board"
        " drawn for each seat, the side panel rendered)",
    )
    parser.add_argument("--bot-tables", type=int, default=0, help="tables of bots only played meanwhile")
    parser.add_argument("--bot", default="ismcts:1", help="the bot at every seat of those tables")
    parser.add_argument(
        "--compression",
        nargs="+",
        default=["on"],
        choices=["on", "off"],
        help="WebSocket compression (permessage-deflate) on the server (the sockets ask for it, as browsers do)",
    )
    parser.add_argument(
        "--split-cores",
        action="store_true",
        help="the load generator on the first half of the cores, the server side (its processes, PostgreSQL,"
        " Redis) on the others, as if the clients were other machines (Linux; at least two cores)",
    )
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    if args.split_cores and len(cores) < 2:
        parser.error("--split-cores needs at least two cores")
    generator_cores, server_cores = cores[: len(cores) // 2], cores[len(cores) // 2 :]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(
        f"{args.tables} tables of {args.game} ({args.players} players, every seat on its own socket + a spectator;"
        f" {args.format} frames)"
        + (
            f"; the load generator on cores {generator_cores}, the server side on {server_cores}"
            if args.split_cores
            else ""
        )
    )
    print(
        f"{'database':<11} {'bus':<6} {'procs':>5} {'zip':>3} {'think':>5} {'moves/s':>8}"
        f" {'cpu ms/mv':>9} {'gen ms/mv':>9} {'server p50':>10} {'p99 (ms)':>9}"
        f" {'rtt p50':>8} {'p99 (ms)':>9} {'all p50':>8} {'p99 (ms)':>9} games"
        f" {'db wait p99':>11} {'loop lag p99':>12}"
    )
    runs = [
        (k, b, n, z, t)
        for k in args.db
        for b in (args.bus if k == "postgresql" else ["-"])
        for n in args.processes
        for z in args.compression
        for t in args.think
        if n == 1 or k == "postgresql"
    ]
    for kind, bus, processes, zipped, think in runs:
        if args.split_cores:  # what this thread starts now inherits the server's cores
            os.sched_setaffinity(0, server_cores)
        pg = None
        redis = TempRedis().start() if bus == "redis" else None
        folder = tempfile.mkdtemp(prefix="ziggurat-bench-")
        if kind == "sqlite":
            url = f"sqlite:///{folder}/bench.db"
        else:
            pg = TempPostgres().start()
            url = pg.create_database("bench")
        # a load generator on one address: the per-address quotas of a public server are lifted
        lifted = [f"{name}=1000000" for name in ("tables_per_hour", "open_tables", "search_bots")]
        lifted += [f"{name}=1000000" for name in ("sockets_per_address", "connections_per_address")]
        extra = [arg for item in lifted for arg in ("--limit", item)]
        if zipped == "off":
            extra.append("--no-ws-compression")
        servers = [
            LiveServer(url, bus=redis.url if redis else None, bot_workers=1 if args.bot_tables else 0, extra=extra)
            for _ in range(processes)
        ]  # bots at once, metrics on
        if args.split_cores:
            os.sched_setaffinity(0, generator_cores)
        try:
            bench = Bench(
                [s.port for s in servers],
                args.game,
                args.players,
                args.tables,
                args.seconds,
                args.seed,
                think,
                args.bot_tables,
                args.bot,
                [s.proc.pid for s in servers if s.proc is not None],
                args.stagger,
                args.format,
            )
            r = asyncio.run(bench.run())
        finally:
            for server in servers:
                server.kill()
            if pg is not None:
                pg.stop()
            if redis is not None:
                redis.stop()
        print(
            f"{kind:<11} {bus:<6} {processes:>5} {zipped:>3} {think:>5} {r['moves_per_s']:>8.0f}"
            f" {r['cpu_ms_per_move']:>9.3f} {r['gen_ms_per_move']:>9.3f} {r['server_p50_ms']:>10.2f}"
            f" {r['server_p99_ms']:>9.2f} {r['rtt_p50_ms']:>8.2f} {r['rtt_p99_ms']:>9.2f}"
            f" {r['all_p50_ms']:>8.2f} {r['all_p99_ms']:>9.2f} {r['games']:>5}"
            f" {r['wait_p99_ms']:>11.2f} {r['lag_p99_ms']:>12.2f}"
            f"   (errors {r['errors']}, {r['groups']} moves in {r['commits']} commits"
            + (f"; {r['bot_games']} bot-only games meanwhile)" if args.bot_tables else ")")
        )


if __name__ == "__main__":
    main()
