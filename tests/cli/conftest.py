"""CLI tests read the output as text: give rich a wide, fixed terminal."""

import os

os.environ["COLUMNS"] = "200"
os.environ["LINES"] = "60"
