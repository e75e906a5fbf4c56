"""Batch simulation, statistics, plots and reports; process and Ray backends."""

from ziggurat.analysis.simulate import RunResult, Setup, Task, arena, game_seed, play_game, run_tasks, simulate
from ziggurat.analysis.stats import bradley_terry, wilson

__all__ = [
    "RunResult",
    "Setup",
    "Task",
    "arena",
    "bradley_terry",
    "game_seed",
    "play_game",
    "run_tasks",
    "simulate",
    "wilson",
]
