"""The bounds of a saved document, checked before anything is converted, and strict
JSON parsing (see :mod:`remi_rules.serde`): one linear pass without recursion."""

from __future__ import annotations

import json
from typing import Any, Final, NoReturn

from ..errors import InvalidStateError, StateErrorCode

MAX_DEPTH: Final = 32
"""The deepest nesting of objects and arrays a saved document may have (real ones use 6)."""

MAX_INTEGER: Final = 2**53 - 1
"""The largest integer (in absolute value) a saved document may hold anywhere: the
largest every JSON reader keeps exactly.  Real values stay below 10**9; a larger one
is ``state_out_of_range`` before anything is converted, shown shortened."""

MAX_NAME_LENGTH: Final = 100
"""The longest player's name (in characters) a saved game holds; :func:`dump_game`
refuses a longer one (``state_string_too_long``), so every save loads back."""

MAX_STRING_LENGTH: Final = MAX_NAME_LENGTH
"""The longest string or key a saved document may hold anywhere (the names are the
longest strings of a save); a longer one is ``state_string_too_long``."""

MAX_SAVED_TURNS: Final = 1000
"""The number of turns :data:`MAX_DOCUMENT_BYTES` is sized for: 2.5 times the
presets' turn cap (``max_turns_per_round = 400``)."""

_BIG_DIGITS: Final = 100
_SHOW_HI: Final = 10**15
_S: Final = StateErrorCode


class _HugeInt:
    """An integer literal of more than ``_BIG_DIGITS`` digits in JSON text: kept as its
    digit count only (converting it would be slow, and Python caps it anyway)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _fail(code: StateErrorCode, path: str, **details: object) -> NoReturn:
    raise InvalidStateError(code, path=path or "$", **details)


class _Refusal(Exception):
    """A value refused by one of the converter's hooks (:mod:`._convert`), which does
    not know where the value is: the code and details of the error, ``at`` the path
    below the value it was given (``"[5]"``, ``".melds[0].ids"``), and whether it is a
    check of the value's meaning under the document's rules (reported only when the
    document has no error of shape: see :func:`~._convert.structure`).  A detail that
    is a :class:`_Here` names a path too, below the same value."""

    def __init__(
        self, code: StateErrorCode, details: dict[str, object], at: str = "", *, meaning: bool
    ) -> None:
        super().__init__(code)
        self.code, self.details, self.at, self.meaning = code, details, at, meaning


class _Here(str):
    """A detail naming another path below the refused value (``other`` of a duplicate)."""


def _refuse(code: StateErrorCode, at: str = "", **details: object) -> NoReturn:
    """Refuse the value a hook was given (its shape: a type, a range, a key)."""
    raise _Refusal(code, details, at, meaning=False)


def _refuse_meaning(code: StateErrorCode, at: str = "", **details: object) -> NoReturn:
    """Refuse a value of the right shape for what it means under the document's rules."""
    raise _Refusal(code, details, at, meaning=True)


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if type(value) is int or isinstance(value, _HugeInt):
        return "integer"
    if type(value) is float:
        return "number"
    if type(value) is str:
        return "string"
    if type(value) is list:
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"a Python {type(value).__name__}"


def _show(value: object) -> object:
    """A value safe to put in an error's details (never a giant int or string)."""
    if isinstance(value, _HugeInt):
        return f"<an integer of {value.digits} digits>"
    if type(value) is int and not -_SHOW_HI < value < _SHOW_HI:
        return f"<an integer of {value.bit_length()} bits>"
    if type(value) is str and len(value) > 40:
        return value[:40] + "…"
    if type(value) in (int, bool, str) or value is None:
        return value
    return _json_type(value)


def _wrong_type(path: str, expected: str, value: object) -> NoReturn:
    _fail(_S.WRONG_TYPE, path, expected=expected, got=_json_type(value))


def _check_int(value: object, path: str, lo: int, hi: int) -> int:
    if isinstance(value, _HugeInt):
        _fail(_S.OUT_OF_RANGE, path, value=_show(value), lo=lo, hi=hi)
    if type(value) is not int:
        _wrong_type(path, "integer", value)
    if not lo <= value <= hi:
        _fail(_S.OUT_OF_RANGE, path, value=_show(value), lo=lo, hi=hi)
    return value


# -- the bounded pre-scan and JSON text ---------------------------------------------------


def _leaf_size(value: object) -> int:
    """The compact JSON size of a scalar (at least), or -1 if it is out of bounds."""
    kind = type(value)
    if kind is int:
        if -10 < value < 10:  # type: ignore[operator]
            return 1
        if -MAX_INTEGER <= value <= MAX_INTEGER:  # type: ignore[operator]
            return len(str(value))
        return -1
    if kind is str:
        n = len(value)  # type: ignore[arg-type]
        return n + 2 if n <= MAX_STRING_LENGTH else -1
    if isinstance(value, _HugeInt):
        return -1
    return 4  # true, null, a float or an odd Python value: the readers name its type


def _leaf_fail(value: object, path: str) -> NoReturn:
    if type(value) is str:
        _fail(_S.STRING_TOO_LONG, path, length=len(value), limit=MAX_STRING_LENGTH)
    _fail(_S.OUT_OF_RANGE, path, value=_show(value), lo=-MAX_INTEGER, hi=MAX_INTEGER)


def _scan(data: object, limit: int = 0) -> None:
    """Refuse, in one pass without recursion (cycles included) and before anything is
    converted: nesting deeper than :data:`MAX_DEPTH` (``state_too_deep``), an integer
    beyond ±:data:`MAX_INTEGER` (``state_out_of_range``), a string or key longer than
    :data:`MAX_STRING_LENGTH` (``state_string_too_long``), and, with ``limit``, data
    whose compact JSON would be longer than ``limit`` bytes
    (``state_document_too_large``).  The pass stops there, so its cost is bounded by
    ``limit`` whatever the data."""
    if not isinstance(data, dict | list | tuple):
        if _leaf_size(data) < 0:
            _leaf_fail(data, "$")
        return
    size = 0
    stack: list[tuple[Any, int, str]] = [(data, 1, "$")]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth, path = pop()
        if depth > MAX_DEPTH:
            _fail(_S.TOO_DEEP, path, limit=MAX_DEPTH)
        size += 1 + max(len(value), 1)
        base = "" if path == "$" else path + "."
        if isinstance(value, dict):
            for key, item in value.items():
                if type(key) is str:
                    n = len(key)
                    if n > MAX_STRING_LENGTH:
                        where = base + key[:40] + "…"
                        _fail(_S.STRING_TOO_LONG, where, length=n, limit=MAX_STRING_LENGTH)
                    size += n + 3
                    name = key
                else:
                    name = f"<{type(key).__name__}>"
                if isinstance(item, dict | list | tuple):
                    push((item, depth + 1, base + name))
                else:
                    n = _leaf_size(item)
                    if n < 0:
                        _leaf_fail(item, base + name)
                    size += n
        elif value and set(map(type, value)) == {int}:  # ids: at C speed
            if min(value) < -MAX_INTEGER or max(value) > MAX_INTEGER:
                k = next(k for k, i in enumerate(value) if not -MAX_INTEGER <= i <= MAX_INTEGER)
                _leaf_fail(value[k], f"{base[:-1]}[{k}]")
            size += 2 * len(value)
        else:
            base = base[:-1]
            for k, item in enumerate(value):
                if isinstance(item, dict | list | tuple):
                    push((item, depth + 1, f"{base}[{k}]"))
                else:
                    n = _leaf_size(item)
                    if n < 0:
                        _leaf_fail(item, f"{base}[{k}]")
                    size += n
                    if limit and size > limit:
                        _fail(_S.DOCUMENT_TOO_LARGE, "$", size=size, limit=limit)
        if limit and size > limit:
            _fail(_S.DOCUMENT_TOO_LARGE, "$", size=size, limit=limit)


class _NotJson(Exception):
    """Text that is not JSON by the loader's rules: ``why`` a sub-code, with its data."""

    def __init__(self, why: str, **details: object) -> None:
        super().__init__(why)
        self.details = {"why": why, **details}


def _not_json(err: Exception) -> dict[str, object]:
    """The details of a ``state_not_json`` refusal: a sub-code and where."""
    if isinstance(err, _NotJson):
        return err.details
    if isinstance(err, json.JSONDecodeError):
        return {"why": "json_syntax", "line": err.lineno, "column": err.colno}
    return {"why": "json_value"}


def _parse_int(text: str) -> int | _HugeInt:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= _BIG_DIGITS else _HugeInt(digits)


def _no_constant(name: str) -> NoReturn:
    raise _NotJson("json_constant", name=name)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _NotJson("json_duplicate_key", key=_show(key))
        out[key] = value
    return out


def _check_size(text: str, limit: int) -> None:
    """Refuse text longer than ``limit`` bytes in UTF-8, in time independent of its
    length for ASCII text (and linear otherwise)."""
    size = len(text)
    if size <= limit and not text.isascii():
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        _fail(_S.DOCUMENT_TOO_LARGE, "$", size=size, limit=limit)


def _parse_json(text: object, limit: int) -> Any:
    """JSON text to plain data, strictly and in time linear in its length: at most
    ``limit`` bytes (:data:`~remi_rules.serde.MAX_DOCUMENT_BYTES`), checked before
    parsing; no NaN or Infinity, no key twice in an object; integer literals of more
    than 100 digits are kept as their digit count (refused by :func:`_scan`).  Nesting beyond the
    parser's recursion limit is ``state_too_deep`` (the rest of the nesting check is
    :func:`_scan`'s)."""
    if not isinstance(text, str):
        raise TypeError(f"expected the JSON text as str, not {type(text).__name__}")
    _check_size(text, limit)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates,
        )
    except RecursionError:
        _fail(_S.TOO_DEEP, "$", limit=MAX_DEPTH)
    except (ValueError, _NotJson) as err:
        _fail(_S.NOT_JSON, "$", **_not_json(err))
