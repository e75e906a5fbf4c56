"""Bots: every module here registers its bots on import."""

from ziggurat.bots import random_bot

__all__ = ["random_bot"]
