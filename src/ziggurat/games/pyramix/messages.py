"""Pyramix's messages: why a cube may not be taken, what a move did, how a score comes about (English templates).

Ids are ``pyramix.<key>``; see :mod:`ziggurat.core.message` for the template
syntax. A ``cube`` parameter is a nested message (``pyramix.cube`` "the blue
ankh", or ``pyramix.cobra``), a ``kind`` one a cube's kind (``pyramix.kind``
"blue ankh", ``pyramix.kind_cobra``); ``colour`` and ``icon`` are the box file's words;
a ``place`` is a label (``a1`` .. ``f1``: the layer's letter from the tray up,
then the place in the layer) and ``layer`` counts from 1, the tray.
"""

from __future__ import annotations

from ziggurat.core.message import Catalog

# names of pieces and places, nested in the other messages
NAMES = {
    "cube": "the {colour} {icon}",
    "cobra": "the cobra",
    "kind": "{colour} {icon}",
    "kind_cobra": "cobra",
}

# why a move is not legal (State.why_illegal)
REFUSALS = {
    "empty": "there is no cube at {place}: that place is empty",
    "covered_one": "{cube} at {place} shows only one face: {covering} {count:rests|rest} on it; "
    "a cube must show two or three faces",
    "covered_none": "{cube} at {place} shows no face: {covering} rest on it; a cube must show two or three faces",
    "base_gap": "removing {cube} at {place} would leave a base space empty for good: nothing above it can slide in",
    "cobra_touch": "{cube} at {place} touches {count:a cobra|cobras} (at {cobras}); "
    "only a cobra may be taken next to a cobra",
    "box_empty": "every {colour} {icon} is in the pyramid already",
    "box_empty_cobra": "every cobra is in the pyramid already",
}

# what a move or a chance outcome did (State.describe_action)
MOVES = {
    "take": "takes {cube} at {place} (layer {layer})",
    "take_cascade": "takes {cube} at {place} (layer {layer}); the line above it slides down one step ({line})",
    "stack": "a cube is stacked at {place}: {kind}",
}

# the terms and notes of a score breakdown (State.score_breakdown)
SCORING = {
    "score_taken": "{count} × {colour} {icon} taken, {each} {each:point|points} each",
    "score_cobras": "{count} × cobra taken, no points",
    "score_tray": "{count} × {colour} {icon} left in the tray, collected with the most {colour} {majority}s, "
    "{each} {each:point|points} each",
    "note_cleared": "the {count:cobra|cobras} in the tray at {cobras} {count:puts|put} {places} out of play",
    "note_leader": "{colour}: player {player} has the most {colour} {majority}s ({ankhs}) and collects "
    "the {colour} cubes left in the tray",
    "note_tie": "{colour}: tied at {ankhs} {colour} {majority}{ankhs:|s}; nobody collects the {colour} cubes "
    "left in the tray",
    "note_none": "{colour}: nobody has {colour} {majority}s; nobody collects the {colour} cubes left in the tray",
    "note_above": "{count} {count:cube|cubes} left above the tray {count:scores|score} for nobody",
}

# why the game ended (State.end_reason; the game's spec.ends, as end_<code>)
ENDS = {
    "end_no_removal": "the player to move had no cube they could remove",
}

M = Catalog("pyramix", {**NAMES, **REFUSALS, **MOVES, **SCORING, **ENDS})
