"""Rulesets and house-rules files as plain data (see :mod:`remi_rules.serde`)."""

from __future__ import annotations

import enum
import json
import math
import os
import re
import tomllib
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn

from .. import variants
from ..errors import (
    InvalidRulesetError,
    RulesetErrorCode,
    RulesetTypeError,
    safe_repr,
    safe_text,
)
from ..ruleset import (
    ClosingAtuTwinEffect,
    Ruleset,
)

__all__ = [
    "FORMAT_VERSION",
    "MAX_HOUSE_RULES_CHARS",
    "MAX_INT_DIGITS",
    "MAX_NESTING",
    "dumps_house_rules",
    "house_rules_from_dict",
    "house_rules_to_dict",
    "load_house_rules",
    "loads_house_rules",
    "ruleset_from_dict",
    "ruleset_to_dict",
]


FORMAT_VERSION: Final = 1
"""Version of the saved formats written by this module."""

HouseFormat = Literal["json", "toml"]

MAX_HOUSE_RULES_CHARS: Final = 65_536
"""The longest house-rules text the loaders read, in characters (a file that sets
every knob has about 1,500).  A longer one is refused with ``file_too_large`` before
it is parsed; :func:`load_house_rules` reads no more of a file than that."""

MAX_INT_DIGITS: Final = 100
"""The most decimal digits a number in a house-rules file may have (every knob's
range fits in a few).  A longer one is refused with ``number_too_long`` before it is
converted: Python refuses to convert more than 4,300 digits at all, and a long
conversion is slow.  A TOML number in hexadecimal, octal or binary is held to the
same magnitude (below ``10 ** MAX_INT_DIGITS``)."""

MAX_NESTING: Final = 32
"""How deeply the values of a house-rules file may nest (lists and tables; the file
itself needs 3 levels).  Deeper is refused with ``too_deep``."""

_KNOBS: Final = tuple(f.name for f in attrs.fields(Ruleset))
_OPTIONAL_INTS: Final = frozenset(
    f.name for f in attrs.fields(attrs.resolve_types(Ruleset)) if f.type == int | None
)


class _Refused(Exception):
    """Raised by the strict hooks; carries what was expected and what came."""

    def __init__(self, expected: str, value: object) -> None:
        super().__init__(expected)
        self.expected = expected
        self.value = value


def _strict(expected: type) -> Any:
    def hook(value: object, _: object) -> object:
        if type(value) is not expected:
            raise _Refused(expected.__name__, value)
        return value

    return hook


class _NotAMember(Exception):
    def __init__(self, value: object, cls: type[enum.Enum]) -> None:
        super().__init__(value)
        self.value = value
        self.choices = ", ".join(str(m.value) for m in cls)


def _enum_hook(value: object, cls: type[enum.Enum]) -> enum.Enum:
    if type(value) is not str:
        raise _Refused("str", value)
    try:
        return cls(value)
    except ValueError:
        raise _NotAMember(value, cls) from None


def _optional_int_hook(value: object, _: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise _Refused('int | null ("none" in TOML)', value)
    return value


def _pair_hook(value: object, _: object) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise _Refused("[int, int]", value)
    a, b = value
    if type(a) is not int or type(b) is not int:
        raise _Refused("[int, int]", value)
    return (a, b)


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _strict(int))
    conv.register_structure_hook(bool, _strict(bool))
    # StrEnum comes before str in the enums' MRO, so these win over str handling.
    conv.register_structure_hook(enum.StrEnum, _enum_hook)
    conv.register_unstructure_hook(enum.StrEnum, lambda e: e.value)
    nested = make_dict_structure_fn(ClosingAtuTwinEffect, conv, _cattrs_forbid_extra_keys=True)

    def atu_twin_hook(value: object, cls: type[ClosingAtuTwinEffect]) -> ClosingAtuTwinEffect:
        if not isinstance(value, Mapping):
            raise _Refused("{bonus, mult}", value)
        return nested(value, cls)

    conv.register_structure_hook(ClosingAtuTwinEffect, atu_twin_hook)
    conv.register_structure_hook_func(lambda t: t == int | None, _optional_int_hook)
    conv.register_structure_hook_func(lambda t: t == tuple[int, int], _pair_hook)
    conv.register_unstructure_hook_func(lambda t: t == tuple[int, int], list)

    return conv


_CONVERTER: Final = _make_converter()


def ruleset_to_dict(rules: Ruleset) -> dict[str, Any]:
    """Every knob of ``rules`` as plain JSON-ready values, in field order."""
    if not isinstance(rules, Ruleset):
        raise TypeError(f"expected a Ruleset, not {type(rules).__name__}")
    data: dict[str, Any] = _CONVERTER.unstructure(rules)
    return data


def _translate(exc: BaseException, path: str) -> InvalidRulesetError:
    """Turn a cattrs failure into our error, naming the knob (dotted path)."""
    if isinstance(exc, InvalidRulesetError):
        return exc
    if isinstance(exc, ClassValidationError):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            name = note.name
            return _translate(sub, f"{path}.{name}" if path else name)
        for sub in without:
            return _translate(sub, path)
    if isinstance(exc, ForbiddenExtraKeysError):
        extra = sorted(exc.extra_fields)[0]
        knob = f"{path}.{extra}" if path else extra
        return InvalidRulesetError(RulesetErrorCode.UNKNOWN_KNOB, knob=knob)
    if isinstance(exc, KeyError):
        missing = exc.args[0] if exc.args else "?"
        return InvalidRulesetError(RulesetErrorCode.MISSING_KNOB, knob=path or safe_text(missing))
    if isinstance(exc, _NotAMember):
        return InvalidRulesetError(
            RulesetErrorCode.NOT_A_CHOICE,
            knob=path,
            value=safe_repr(exc.value),
            choices=exc.choices,
        )
    if isinstance(exc, _Refused):
        return RulesetTypeError(
            RulesetErrorCode.WRONG_TYPE,
            knob=path,
            expected=exc.expected,
            got=type(exc.value).__name__,
        )
    return InvalidRulesetError(
        RulesetErrorCode.BAD_FILE, knob=path or None, reason="unexpected", error=type(exc).__name__
    )


def _structure(data: object, cls: type[Any], path: str) -> Any:
    if not isinstance(data, Mapping):
        raise RulesetTypeError(
            RulesetErrorCode.WRONG_TYPE,
            knob=path or "<ruleset>",
            expected="mapping",
            got=type(data).__name__,
        )
    for key in data:
        if not isinstance(key, str):
            raise InvalidRulesetError(RulesetErrorCode.UNKNOWN_KNOB, knob=safe_repr(key))
    try:
        return _CONVERTER.structure(dict(data), cls)
    except InvalidRulesetError:
        raise
    except (ClassValidationError, ForbiddenExtraKeysError, KeyError, _Refused, _NotAMember) as exc:
        raise _translate(exc, path) from None


def ruleset_from_dict(data: Mapping[str, Any]) -> Ruleset:
    """A :class:`~remi_rules.Ruleset` from a mapping with every knob (strict)."""
    if not isinstance(data, Mapping):
        _structure(data, Ruleset, "")
    missing = [k for k in _KNOBS if k not in data]
    if missing:
        extra = [k for k in data if k not in _KNOBS]
        if extra:
            raise InvalidRulesetError(RulesetErrorCode.UNKNOWN_KNOB, knob=safe_text(extra[0]))
        raise InvalidRulesetError(RulesetErrorCode.MISSING_KNOB, knob=missing[0])
    rules: Ruleset = _structure(data, Ruleset, "")
    return rules


# -- house-rules files ---------------------------------------------------------------------

_HOUSE_KEYS: Final = frozenset({"base", "overrides"})


def house_rules_from_dict(data: Mapping[str, Any]) -> Ruleset:
    """The ruleset of a house-rules mapping ``{"base": NAME, "overrides": {...}}``.

    ``base`` names a preset (default ``"clasic"``); ``overrides`` maps knob names to
    values as in :func:`ruleset_to_dict` (default none).
    """
    if not isinstance(data, Mapping):
        raise InvalidRulesetError(RulesetErrorCode.BAD_STRUCTURE, knob=None, key="(top level)")
    for key in data:
        if key not in _HOUSE_KEYS:
            raise InvalidRulesetError(RulesetErrorCode.BAD_STRUCTURE, knob=None, key=safe_text(key))
    base_name = data.get("base", "clasic")
    if not isinstance(base_name, str) or base_name not in variants.names():
        raise InvalidRulesetError(
            RulesetErrorCode.UNKNOWN_BASE,
            knob=None,
            base=safe_text(base_name),
            known=", ".join(variants.names()),
        )
    overrides = data.get("overrides", {})
    if not isinstance(overrides, Mapping):
        raise InvalidRulesetError(RulesetErrorCode.BAD_STRUCTURE, knob=None, key="overrides")
    merged = ruleset_to_dict(variants.get(base_name))
    for key, value in overrides.items():
        if key not in merged:
            raise InvalidRulesetError(RulesetErrorCode.UNKNOWN_KNOB, knob=safe_text(key))
        merged[key] = value
    return ruleset_from_dict(merged)


def house_rules_to_dict(rules: Ruleset, base: str = "clasic") -> dict[str, Any]:
    """``{"base": base, "overrides": {...}}`` with only the knobs that differ from ``base``."""
    base_dict = ruleset_to_dict(variants.get(base))
    mine = ruleset_to_dict(rules)
    overrides = {k: v for k, v in mine.items() if base_dict[k] != v}
    return {"base": base, "overrides": overrides}


def _from_toml_value(key: str, value: Any) -> Any:
    if key in _OPTIONAL_INTS and value == "none":
        return None
    return value


def _toml_value(value: Any) -> str:
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")  # pragma: no cover


class _TooLong(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_int(digits: str) -> int:
    """``json``'s ``parse_int``: bound the digits before converting them."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _TooLong(len(digits.lstrip("-")))
    return int(digits)


_INT_LIMIT: Final = 10**MAX_INT_DIGITS


def _check_tree(data: object) -> None:
    """Refuse nesting past :data:`MAX_NESTING` and ints past :data:`MAX_INT_DIGITS`
    (TOML's hexadecimal, octal and binary ints are converted without a bound)."""
    todo: list[tuple[object, int]] = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict | list):
            if depth > MAX_NESTING:
                raise InvalidRulesetError(RulesetErrorCode.TOO_DEEP, knob=None, limit=MAX_NESTING)
            children = value.values() if isinstance(value, dict) else value
            todo.extend((child, depth + 1) for child in children)
        elif type(value) is int and not -_INT_LIMIT < value < _INT_LIMIT:
            raise InvalidRulesetError(
                RulesetErrorCode.NUMBER_TOO_LONG,
                knob=None,
                digits=math.floor(math.log10(abs(value))) + 1,
                limit=MAX_INT_DIGITS,
            )


def _longest_digit_run(text: str) -> int:
    return max((len(m.group().replace("_", "")) for m in _DIGITS.finditer(text)), default=0)


_DIGITS: Final = re.compile(r"[0-9][0-9_]*")


def _check_format(format: object) -> None:
    if not isinstance(format, str):
        raise TypeError(f"format must be a str, not {type(format).__name__}")
    if format not in ("json", "toml"):
        raise InvalidRulesetError(
            RulesetErrorCode.UNKNOWN_FORMAT, knob=None, format=safe_text(format)
        )


def _parse(text: str, format: HouseFormat) -> Any:
    """The data of a house-rules text, every bound checked (see the ``MAX_*`` names)."""
    if len(text) > MAX_HOUSE_RULES_CHARS:
        raise InvalidRulesetError(
            RulesetErrorCode.FILE_TOO_LARGE,
            knob=None,
            size=len(text),
            limit=MAX_HOUSE_RULES_CHARS,
        )
    try:
        data = json.loads(text, parse_int=_json_int) if format == "json" else tomllib.loads(text)
    except _TooLong as exc:
        raise InvalidRulesetError(
            RulesetErrorCode.NUMBER_TOO_LONG, knob=None, digits=exc.digits, limit=MAX_INT_DIGITS
        ) from None
    except RecursionError:
        raise InvalidRulesetError(RulesetErrorCode.TOO_DEEP, knob=None, limit=MAX_NESTING) from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        line, column = _where(exc)
        raise InvalidRulesetError(
            RulesetErrorCode.BAD_FILE,
            knob=None,
            reason="not_valid",
            format=format.upper(),
            line=line,
            column=column,
        ) from None
    except ValueError:
        # tomllib converts every int with int(): past Python's 4,300 digits that
        # raises (a TOMLDecodeError is caught above).
        raise InvalidRulesetError(
            RulesetErrorCode.NUMBER_TOO_LONG,
            knob=None,
            digits=_longest_digit_run(text),
            limit=MAX_INT_DIGITS,
        ) from None
    _check_tree(data)
    return data


def loads_house_rules(text: str, format: HouseFormat = "json") -> Ruleset:
    """The ruleset of a house-rules file's text, in ``"json"`` or ``"toml"``.

    The text is bounded before it is parsed: at most :data:`MAX_HOUSE_RULES_CHARS`
    characters (``file_too_large``), numbers of at most :data:`MAX_INT_DIGITS` digits
    (``number_too_long``, also for the 4,300-digit numbers Python cannot convert)
    and values nested at most :data:`MAX_NESTING` deep (``too_deep``).  Anything
    wrong raises :class:`~remi_rules.InvalidRulesetError` (an unknown ``format``:
    ``unknown_format``); a ``text`` or ``format`` that is not a ``str`` raises
    :class:`TypeError`.
    """
    if not isinstance(text, str):
        raise TypeError(f"expected the file's text as str, not {type(text).__name__}")
    _check_format(format)
    data = _parse(text, format)
    if format == "toml":
        overrides = data.get("overrides")
        if isinstance(overrides, dict):
            data["overrides"] = {k: _from_toml_value(k, v) for k, v in overrides.items()}
    return house_rules_from_dict(data)


def _where(exc: ValueError) -> tuple[int | None, int | None]:
    """The line and column of a JSON or TOML syntax error, when it says."""
    if isinstance(exc, json.JSONDecodeError):
        return exc.lineno, exc.colno
    found = re.search(r"line (\d+), column (\d+)", str(exc))
    return (int(found[1]), int(found[2])) if found else (None, None)


def _os_reason(exc: OSError | ValueError) -> str:
    """The sub-code (``reason:<sub>``) of a file that cannot be read."""
    if isinstance(exc, FileNotFoundError):
        return "not_found"
    if isinstance(exc, PermissionError):
        return "no_permission"
    if isinstance(exc, IsADirectoryError):
        return "is_a_folder"
    if isinstance(exc, UnicodeDecodeError):
        return "not_utf8"
    if isinstance(exc, OSError):
        return "os_error"
    return "bad_name"


def load_house_rules(path: str | os.PathLike[str]) -> Ruleset:
    """Read a house-rules file; ``.toml`` files are TOML, anything else JSON.

    At most :data:`MAX_HOUSE_RULES_CHARS` characters are read (a longer file is
    refused with ``file_too_large``); a file that cannot be opened or decoded as
    UTF-8 is refused with ``bad_file``.  The text is then read as by
    :func:`loads_house_rules`.
    """
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"the path must be a str or os.PathLike[str], not {type(name).__name__}")
    fmt: HouseFormat = "toml" if name.lower().endswith(".toml") else "json"
    try:
        with open(name, encoding="utf-8") as fh:
            text = fh.read(MAX_HOUSE_RULES_CHARS + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name, bad UTF-8
        raise InvalidRulesetError(
            RulesetErrorCode.BAD_FILE,
            knob=None,
            reason=_os_reason(exc),
            errno=getattr(exc, "errno", None),
        ) from None
    if len(text) > MAX_HOUSE_RULES_CHARS:
        raise InvalidRulesetError(
            RulesetErrorCode.FILE_TOO_LARGE,
            knob=None,
            size=f"> {MAX_HOUSE_RULES_CHARS}",
            limit=MAX_HOUSE_RULES_CHARS,
        )
    return loads_house_rules(text, fmt)


def dumps_house_rules(rules: Ruleset, base: str = "clasic", format: HouseFormat = "json") -> str:
    """The house-rules file text for ``rules``: only the knobs that differ from ``base``."""
    _check_format(format)
    data = house_rules_to_dict(rules, base)
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if format == "toml":
        lines = [f"base = {json.dumps(base)}", "", "[overrides]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in data["overrides"].items()]
        return "\n".join(lines) + "\n"
    raise AssertionError(format)  # pragma: no cover - _check_format refused it
