"""What a fuzz case is, how one runs, and how its outcome is counted and shown."""

from __future__ import annotations

import math
import random
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs

from remi_rules import (
    JOKER,
    RemiError,
    variants,
)

PRESETS = variants.names()
RULES = {name: variants.get(name) for name in PRESETS}

# -- outcomes --------------------------------------------------------------------------------------


class Broken(Exception):
    """An invariant the library must keep did not hold (counted as an other exception)."""


class HardTimeout(BaseException):
    """A case ran past ``--hard-limit`` (raised by SIGALRM; a BaseException so that no
    ``except Exception`` in the library swallows it)."""


@dataclass
class Case:
    """One generated case: what to call, and how to show it."""

    label: str
    run: Callable[[], object]
    show: Callable[[], str] = field(default=lambda: "")


@dataclass
class Tally:
    cases: int = 0
    ok: int = 0
    library_errors: int = 0
    type_errors: int = 0
    other_exceptions: int = 0
    slow: int = 0
    slowest_ms: float = 0.0
    slowest_case: int = -1
    codes: dict[str, int] = field(default_factory=dict)
    labels: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "ok": self.ok,
            "library_errors": self.library_errors,
            "type_errors": self.type_errors,
            "other_exceptions": self.other_exceptions,
            "slow": self.slow,
            "slowest_ms": round(self.slowest_ms, 2),
            "slowest_case": self.slowest_case,
            "codes": dict(sorted(self.codes.items())),
            "labels": dict(sorted(self.labels.items())),
            "examples": self.examples,
        }


def check_error(err: RemiError) -> None:
    """A library error must have a code and messages that format."""
    code = getattr(err, "code", None)
    if code is None or not isinstance(getattr(code, "value", None), str):
        raise Broken(f"{type(err).__name__} without a code")
    for text in (str(err), err.message("ro"), err.message("en"), repr(err)):
        if not isinstance(text, str) or not text:
            raise Broken(f"{type(err).__name__} gives an empty message")
    if len(str(err)) > 2000:
        raise Broken(f"{type(err).__name__} message of {len(str(err))} characters")


# -- value helpers ---------------------------------------------------------------------------------


def short(value: object, limit: int = 160) -> str:
    """A repr for a repro line: long strings as runs (``'1' * 4301 + 'R'``)."""
    cls = type(value)
    if isinstance(value, str):
        text = _runs(value)
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 190:
        text = f"<int of about {math.floor(math.log10(abs(value))) + 1} digits>"
    elif attrs.has(cls):
        inner = ", ".join(
            f"{a.name}={short(getattr(value, a.name, None), 60)}" for a in attrs.fields(cls)
        )
        text = f"{cls.__name__}({inner})"
    else:
        try:
            text = repr(value)
        except Exception:  # a huge int, a broken __repr__
            text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 20] + f"... ({len(text)} chars)"


def _runs(text: str) -> str:
    parts: list[str] = []
    plain = ""
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        if j - i >= 8:
            if plain:
                parts.append(repr(plain))
                plain = ""
            parts.append(f"{text[i]!r} * {j - i}")
        else:
            plain += text[i:j]
        i = j
    if plain:
        parts.append(repr(plain))
    return " + ".join(parts) or "''"


HOSTILE: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1,
    105,
    106,
    2**31,
    10**30,
    -(10**30),
    10**5000,
    1.5,
    math.nan,
    math.inf,
    "",
    "x",
    "7R",
    "1" * 5000,
    [],
    (),
    {},
    set(),
    b"7R",
    object(),
    JOKER,
)


def huge_int(rng: random.Random) -> int:
    return rng.choice([10**30, -(10**30), 2**64, 10**99, 10**100, 10**400, 10**4299, 10**5000])


# == the run =======================================================================================


def _alarm(_signum: int, _frame: object) -> None:
    raise HardTimeout


def run_case(case: Case, hard_limit: float) -> tuple[str, BaseException | None, float]:
    """Run one case; its outcome (``ok``, ``library``, ``type``, ``other``), the
    exception and the seconds it took."""
    use_alarm = hard_limit > 0 and hasattr(signal, "setitimer")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, hard_limit)
    start = time.perf_counter()
    outcome: str
    exc: BaseException | None
    try:
        try:
            case.run()
            outcome, exc = "ok", None
        finally:
            elapsed = time.perf_counter() - start
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
    except RemiError as err:
        try:
            check_error(err)
            outcome, exc = "library", err
        except Exception as bad:
            outcome, exc = "other", bad
    except TypeError as err:
        outcome, exc = "type", err
    except (Exception, HardTimeout, RecursionError) as err:
        outcome, exc = "other", err
    return outcome, exc, elapsed


def _safe_str(exc: BaseException | None) -> str:
    try:
        return str(exc)
    except Exception:
        return f"<{type(exc).__name__} whose str() fails>"


def _where(exc: BaseException | None) -> str:
    if exc is None or exc.__traceback__ is None:
        return ""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "remi_rules" in f.filename]
    frame = (inside or frames)[-1]
    return f" [at {Path(frame.filename).name}:{frame.lineno} in {frame.name}]"
