"""One package per game; each exposes ``ENTRY`` and is found by the registry."""
