"""Message text that never fails: every detail value of an error, shortened, escaped
and bounded (:func:`safe_text`, :func:`safe_repr`).  Re-exported by
:mod:`remi_rules.errors`."""

from __future__ import annotations

import math
from typing import Final

__all__ = ["MAX_DETAIL_CHARS", "MAX_REASON_CHARS", "SENTENCE_KEYS", "safe_repr", "safe_text"]

MAX_DETAIL_CHARS: Final = 60
"""The longest a detail value appears in a message: a longer one (a 5,000-character
token, a huge number, a deep structure) is shortened around an ellipsis (``…``)."""

MAX_REASON_CHARS: Final = 240
"""The same bound for the details that hold an explanation sentence (``why``,
``reason``, ``known``, ``choices``)."""

SENTENCE_KEYS: Final = frozenset({"why", "reason", "known", "choices", "knobs"})
# An int with more bits than this is written by its magnitude (str() of an int past
# 4,300 digits raises ValueError, and a long one is no use in a message anyway).
_INT_BITS: Final = 190  # about 57 decimal digits


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    tail = limit - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def _int_text(value: int) -> str:
    if value.bit_length() <= _INT_BITS:
        return int.__repr__(value)
    exponent = math.log10(abs(value))  # exact enough for a magnitude, for any size
    digits = math.floor(exponent)
    mantissa = f"{10 ** (exponent - digits):.3f}"
    if mantissa == "10.000":
        mantissa, digits = "1.000", digits + 1
    sign = "-" if value < 0 else ""
    return f"{sign}{mantissa}e+{digits}"


def safe_text(value: object, limit: int = MAX_DETAIL_CHARS) -> str:
    """``value`` as message text that never fails and is at most ``limit`` characters.

    Strings and the usual ``format(value)`` text are kept when short and shortened
    around an ellipsis otherwise; an int too long to write is given by its magnitude
    (``1.000e+5000``); control characters are escaped; an object whose
    ``__str__`` or ``__format__`` raises is named by its type.

    >>> safe_text("7R"), safe_text(10**5000), safe_text("1" * 100, 9)
    ('7R', '1.000e+5000', '11111…111')
    """
    if type(value) is bool or value is None:
        text = str(value)
    elif isinstance(value, int):
        text = _int_text(int(value))
    else:
        try:
            text = value if type(value) is str else format(value, "")
            if not isinstance(text, str):
                raise TypeError("__format__ did not return a str")
        except Exception:
            text = f"<{_type_name(value)}>"
    if not text.isprintable():
        text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text[: limit * 4])
    return _shorten(text, limit)


def safe_repr(value: object, limit: int = MAX_DETAIL_CHARS) -> str:
    """Like :func:`safe_text`, from ``repr(value)`` (strings quoted)."""
    if isinstance(value, int) and type(value) is not bool:
        return _int_text(int(value))
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError("__repr__ did not return a str")
    except Exception:
        text = f"<{_type_name(value)}>"
    return _shorten(text, limit)


def _type_name(value: object) -> str:
    try:
        return str(type(value).__name__)
    except Exception:  # pragma: no cover - a metaclass with a broken __name__
        return "object"
