"""The shared guard on documents from outside: every limit at its edge, and the error that names it."""

from __future__ import annotations

import contextlib
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ziggurat.core import DocumentError, ZigguratError, load_json
from ziggurat.core.documents import INT64, MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, check_document


def nested(depth: int, inner: str = "") -> str:
    """``depth`` lists inside each other (alternating with objects, as a real document might)."""
    text = inner
    for level in range(depth):
        text = f"[{text}]" if level % 2 else f'{{"k": {text or "1"}}}'
    return text


def test_a_document_is_read_as_json_is() -> None:
    doc = {"game": "kuhnah", "players": 2, "seed": 2**63 - 1, "x": [1.5, None, True, "é😀"]}
    assert load_json(json.dumps(doc), "doc") == doc
    assert load_json(json.dumps(doc).encode(), "doc") == doc
    assert load_json(json.dumps(doc, ensure_ascii=True), "doc") == doc


@pytest.mark.parametrize("depth", [1, 2, MAX_DEPTH - 1, MAX_DEPTH])
def test_nesting_up_to_the_limit_is_read(depth: int) -> None:
    load_json(nested(depth), "doc")
    load_json("[" * depth + "]" * depth, "doc")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 500, 990, 5_000, 100_000])
def test_nesting_beyond_the_limit_is_refused_whatever_the_depth(depth: int) -> None:
    """Deeper than Python's recursion limit (a RecursionError inside json) or not, the same clear error."""
    for text in ("[" * depth + "]" * depth, nested(depth)):
        with pytest.raises(DocumentError, match=rf"x\.json: nested more than {MAX_DEPTH} levels deep"):
            load_json(text, "x.json")


def test_the_depth_limit_can_be_tightened() -> None:
    load_json("[[[]]]", "body", max_depth=3)
    with pytest.raises(DocumentError, match="nested more than 2 levels"):
        load_json("[[[]]]", "body", max_depth=2)
    with pytest.raises(DocumentError, match="nested more than 2 levels"):
        load_json('{"a": {"b": {}}}', "body", max_depth=2)


def test_integers_up_to_a_hundred_digits_are_read_longer_ones_refused() -> None:
    top = "9" * MAX_INT_DIGITS
    assert load_json(f"[{top}, -{top}]", "doc") == [int(top), -int(top)]
    for digits in (MAX_INT_DIGITS + 1, 1000, 4300):
        with pytest.raises(DocumentError, match=f"holds a number of {digits} digits"):
            load_json("[" + "1" * digits + "]", "doc")
        with pytest.raises(DocumentError, match=f"holds a number of {digits} digits"):
            load_json('{"seed": -' + "1" * digits + "}", "doc")
    # beyond what Python itself reads (4,300 digits): its ValueError becomes the same kind of message
    with pytest.raises(DocumentError, match=f"holds a number of more than {MAX_INT_DIGITS} digits"):
        load_json('{"seed": ' + "9" * 5000 + "}", "doc")
    assert load_json('"' + "9" * 5000 + '"', "doc") == "9" * 5000  # digits in text are text


@pytest.mark.parametrize("text", ["[NaN]", "[Infinity]", '{"a": -Infinity}', "[1e999]", "[-1e400]", "[1E+309]"])
def test_numbers_that_are_not_finite_are_refused(text: str) -> None:
    with pytest.raises(DocumentError, match=r"(not a JSON number|not finite)"):
        load_json(text, "doc")


def test_finite_numbers_of_any_spelling_are_read() -> None:
    assert load_json("[1e308, -1e-400, 0.5e2, 1E+2, 1" + "0" * 99 + ".0]", "doc")[:4] == [1e308, -0.0, 50.0, 100.0]


@pytest.mark.parametrize("text", ['["\\ud800"]', '{"\\udc00": 1}', '{"a": {"b": ["x\\udfffy"]}}'])
def test_lone_surrogates_are_refused(text: str) -> None:
    with pytest.raises(DocumentError, match="not Unicode"):
        load_json(text, "doc")


def test_a_string_holding_a_raw_surrogate_is_refused() -> None:
    """A str decoded elsewhere with surrogateescape holds lone surrogates as characters, not escapes."""
    text = b'["caf\xe9"]'.decode("utf-8", "surrogateescape")
    with pytest.raises(DocumentError, match="not Unicode"):
        load_json(text, "doc")


def test_a_surrogate_pair_is_a_character() -> None:
    assert load_json('["\\ud83d\\ude00"]', "doc") == ["😀"]


@pytest.mark.parametrize("raw", [b"\xff\xfe{}", b'{"a": "\xc3"}', b"\xed\xa0\x80"])
def test_bytes_that_are_not_utf8_are_refused(raw: bytes) -> None:
    with pytest.raises(DocumentError, match="not UTF-8 text"):
        load_json(raw, "doc")


def test_size_is_counted_in_bytes_of_utf8() -> None:
    load_json('"' + "x" * 98 + '"', "body", max_bytes=100)
    with pytest.raises(DocumentError, match=r"too large \(101 bytes; at most 100\)"):
        load_json('"' + "x" * 99 + '"', "body", max_bytes=100)
    with pytest.raises(DocumentError, match=r"too large \(102 bytes; at most 100\)"):  # 50 two-byte letters
        load_json('"' + "é" * 50 + '"', "body", max_bytes=100)
    with pytest.raises(DocumentError, match="too large"):
        load_json(b" " * (MAX_BYTES + 1), "doc")
    with pytest.raises(DocumentError, match="too large"):
        load_json('"' + "x" * MAX_BYTES + '"', "doc")


@pytest.mark.parametrize("text", ["", "{", '{"a": 1,}', "[1 2]", "'x'", "\x00", '{"a": tru}'])
def test_text_that_is_not_json_is_a_clear_error(text: str) -> None:
    with pytest.raises(DocumentError, match=r"^doc: invalid JSON"):
        load_json(text, "doc")


def test_the_error_is_a_ziggurat_error_and_a_value_error_naming_its_source() -> None:
    with pytest.raises(DocumentError) as info:
        load_json("[" * 100, "request body")
    assert isinstance(info.value, ZigguratError) and isinstance(info.value, ValueError)
    assert info.value.source == "request body"
    assert str(info.value) == f"request body: {info.value.problem}"


def test_check_document_walks_what_a_caller_built() -> None:
    check_document({"a": (1, [2, {"b": None}])}, "doc")
    deep: list = []
    inner = deep
    for _ in range(10_000):  # deeper than any recursion could walk
        inner.append([])
        inner = inner[0]
    with pytest.raises(DocumentError, match="nested more than"):
        check_document(deep, "doc")
    with pytest.raises(DocumentError, match="101 digits"):
        check_document({"a": [10**100]}, "doc")
    with pytest.raises(DocumentError, match="more than 100 digits"):
        check_document({"a": [10**20000]}, "doc")  # too big for str(): not even printed
    with pytest.raises(DocumentError, match="not finite"):
        check_document([math.nan], "doc")
    with pytest.raises(DocumentError, match="not Unicode"):
        check_document({"\ud800": 1}, "doc")
    check_document({"\ud800": 1}, "doc", surrogates=False)


def test_int64_mode_is_tomls_range() -> None:
    low, high = INT64
    check_document({"a": [low, high]}, "x.toml", int64=True)
    for value in (low - 1, high + 1):
        with pytest.raises(DocumentError, match="outside"):
            check_document({"a": value}, "x.toml", int64=True)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=30,
)


@given(doc=JSON)
def test_every_json_value_within_the_limits_round_trips(doc: object) -> None:
    text = json.dumps(doc)
    try:
        value = load_json(text, "doc")
    except DocumentError as exc:  # only a number of more than a hundred digits is out of bounds here
        assert "digits" in str(exc)
        return
    assert value == json.loads(text)


@given(text=st.text(max_size=300) | st.binary(max_size=300))
def test_any_text_is_a_document_or_a_document_error(text: str | bytes) -> None:
    with contextlib.suppress(DocumentError):
        load_json(text, "doc")
