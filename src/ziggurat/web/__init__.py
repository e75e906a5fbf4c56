"""The web pages: templates, the stylesheet and the small ES modules (clicks, socket).

Boards themselves are drawn by each game (``games/<id>/web.py``) from a view; the
server (``ziggurat.server``) puts them into these pages.
"""
