"""The SVG writer keeps what it worked out (attribute names, coordinates, short values) and writes the same bytes.

The reference below is the writer as it was before it kept anything: every board must come out byte for byte
as it did, whether its values are met for the first time or again.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ziggurat.core import svg
from ziggurat.core.svg import Svg, esc, fmt


def reference_fmt(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def reference_attrs(attrs: Mapping[str, object]) -> str:
    out = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        if key == "cls":
            key = "class"
        if value is True:
            out.append(f' {key}="{key}"')
        elif isinstance(value, float):
            out.append(f' {key}="{reference_fmt(value)}"')
        else:
            out.append(f' {key}="{escape(str(value), quote=True)}"')
    return "".join(out)


NAMES = st.sampled_from(["x", "cls", "class_", "data_key", "stroke_width", "font_size", "fill", "aria_label", "rx"])
FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.sampled_from([0.0, -0.0, 1.0, 2.5, 1 / 3])
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    FLOATS,
    FLOATS.map(np.float64),
    st.text(alphabet=st.sampled_from(list("ab 1&<>\"'é#")), max_size=80),
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(NAMES, VALUES, max_size=6))
def test_attributes_are_written_as_before_the_first_time_and_again(attrs: dict[str, object]) -> None:
    expected = reference_attrs(attrs)
    assert svg._attrs(attrs) == expected
    assert svg._attrs(attrs) == expected  # now from what was kept


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.integers(), FLOATS))
def test_escaping_is_html_escape(value: object) -> None:
    assert esc(value) == escape(str(value), quote=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(FLOATS, FLOATS), min_size=1, max_size=6))
def test_polygon_points_are_written_as_before(points: list[tuple[float, float]]) -> None:
    for _ in range(2):
        s = Svg(10, 10)
        s.polygon(points, fill="#fff")
        expected = " ".join(f"{reference_fmt(x)},{reference_fmt(y)}" for x, y in points)
        assert s._parts == [f'<polygon points="{escape(expected, quote=True)}" fill="#fff"/>']


def test_fmt_is_unchanged() -> None:
    assert [fmt(v) for v in (12.0, 1 / 3, -0.0, 2.50, 1e20)] == ["12", "0.33", "0", "2.5", "100000000000000000000"]


def test_what_is_kept_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svg, "_KEEP", 50)
    monkeypatch.setattr(svg, "_numbers", {})
    monkeypatch.setattr(svg, "_values", {})
    monkeypatch.setattr(svg, "_names", {})
    for i in range(500):
        svg._attrs({f"n{i}": i + 0.5, "fill": f"#{i:06x}"})
    assert len(svg._numbers) <= 50 and len(svg._values) <= 50 and len(svg._names) <= 50
    long_text = "a tooltip's sentence, far longer than a colour or a class name: " * 2
    svg._attrs({"aria_label": long_text})
    assert long_text not in svg._values


def test_a_kept_fragment_adds_its_markup_and_its_smallest_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svg, "_fragments", {})
    monkeypatch.setattr(svg, "_KEEP_DRAWN", 10)
    calls = []

    def draw(f: Svg) -> None:
        calls.append(1)
        f.text(1, 2, "7", font_size="9")
        f.text(1, 2, "B", font_size="5", cls="zg-glyph")  # a glyph: not a text to keep readable

    for _ in range(3):
        s = Svg(10, 10)
        s.text(0, 0, "big", font_size="12")
        s.fragment(("brick", 1), draw)
        assert s.min_font == 9
        assert s.render().count('<text x="1" y="2" font-size="9">7</text>') == 1
    assert len(calls) == 1  # drawn once, then kept
    for i in range(100):
        Svg(10, 10).fragment(("other", i), draw)
    assert len(svg._fragments) <= 10
    held: list[object] = []

    def left_open(f: Svg) -> None:
        group = f.group()
        group.__enter__()
        held.append(group)  # not closed when it is dropped

    with pytest.raises(ValueError, match="left open"):
        Svg(10, 10).fragment(("open",), left_open)
