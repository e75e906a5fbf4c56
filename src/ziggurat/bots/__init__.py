"""Bots: every module here registers its bots on import."""

from ziggurat.bots import greedy, ismcts, learned, random_bot

__all__ = ["greedy", "ismcts", "learned", "random_bot"]
