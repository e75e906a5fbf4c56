"""Helpers for the games' tensor writers (see ``GameEntry.tensor_writer``).

A writer gathers the places and values of an observation's non-zero entries
in Python lists and stores them with one NumPy assignment;
:func:`indices` turns the list of places into an index array (``np.fromiter``
with the length known is about twice as fast as letting NumPy convert the list).

>>> import numpy as np
>>> out = np.zeros(5, np.float32)
>>> out[indices([1, 3])] = [0.5, 1.0]
>>> out.tolist()
[0.0, 0.5, 0.0, 1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def indices(places: Sequence[int]) -> np.ndarray:
    """``places`` as a NumPy index array (``np.intp``)."""
    return np.fromiter(places, np.intp, len(places))
