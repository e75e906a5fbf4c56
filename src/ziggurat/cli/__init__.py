"""The ``ziggurat`` command line."""
