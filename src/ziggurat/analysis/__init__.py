"""Batch simulation, statistics, plots and reports; process and Ray backends."""

from ziggurat.analysis.columns import GameTable
from ziggurat.analysis.simulate import RunResult, Setup, Task, arena, game_seed, play_game, run_tasks, simulate
from ziggurat.analysis.stats import bradley_terry, wilson
from ziggurat.analysis.tally import RunTally

__all__ = [
    "GameTable",
    "RunResult",
    "RunTally",
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
