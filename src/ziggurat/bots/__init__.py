"""Bots: every module here registers its bots on import."""

from ziggurat.bots import greedy, ismcts, random_bot

__all__ = ["greedy", "ismcts", "random_bot"]
