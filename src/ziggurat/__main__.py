"""``python -m ziggurat`` is the ``ziggurat`` command."""

from ziggurat.cli.main import main

main()
