"""Every public callable, given hostile arguments, returns or refuses properly.

The walk imports every module of the package (``pkgutil``), takes each name of its
``__all__`` that is a function or a class, and calls it with hostile values (``None``,
``""``, huge strings, ``"1" * 5000``, ``10**5000``, ``-1``, ``nan``, ``inf``, wrong types,
empty containers) in every required positional parameter, then each parameter in turn
with the others filled with valid objects (a Ruleset, a Game, tiles …, chosen from the
annotation and the parameter's name), then each optional parameter by keyword.  The
public methods (one or more required arguments) of the main value classes are walked
the same way on fresh instances.

Each call must return, or raise a ``RemiError`` with a ``code`` whose ``str()`` and
``message("ro")`` work, or a ``TypeError``; anything else fails, and so does a call
that takes more than 2 seconds (SIGALRM).  A ``RemiError`` *returned* (the error
classes are callables too) must also format.

Not walked: ``remi_rules.cli.*`` (the command line's own modules: their input is
``argv``, covered by tests/test_cli.py and the ``tiles`` surface of
benchmarks/fuzz.py), ``remi_rules.web.*`` (the web table's server: its input is the
pages' messages, covered by tests/test_web.py), ``remi_rules.docgen`` (the build-time
generator of the docs pages, which writes files), the private modules (a name part
that starts with ``_``: ``_slots``, ``_partition``, the hint's ``_hint_*`` planner, the
``__main__`` modules), enum classes (calling an enum with a non-member is Python's
own ``ValueError``), protocols, and the functions that write files
(``write_schemas``, ``write_plot``).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import math
import pkgutil
import signal
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import remi_rules
from remi_rules import RemiError, Tile, analyze_meld, parse_tiles, variants

LIMIT_SECONDS = 2.0

# remi_rules.web: the web table's server (its input is the pages' messages, every
# hostile kind of which tests/test_web.py sends; its app needs the extra "web").
SKIP_MODULES = ("remi_rules.cli", "remi_rules.docgen", "remi_rules.web")
SKIP_NAMES = frozenset(
    {
        "remi_rules.serde.write_schemas",  # writes files
        "remi_rules.serde.games.write_schemas",
        "remi_rules.sim.report.write_plot",  # writes an image
        "remi_rules.serde.main",  # a command line
        "remi_rules.serde.games.main",
    }
)

# Callables whose hostile calls still fail, with the first problem found, marked
# xfail(strict=False) while a fix is under way.  Empty: keep it so.
PENDING: dict[str, str] = {}


class _Timeout(BaseException):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _Timeout


HUGE_STR = "x" * 200_000
HOSTILE: tuple[Any, ...] = (
    None,
    "",
    "1" * 5000,
    "1" * 5000 + "R",
    HUGE_STR,
    10**5000,
    -(10**5000),
    -1,
    math.nan,
    math.inf,
    1.5,
    True,
    b"\x00",
    [],
    {},
    (),
    frozenset(),
    object(),
)


def _hostile_name(value: Any) -> str:
    if isinstance(value, str):
        return f"str[{len(value)}]" if len(value) > 20 else repr(value)
    if isinstance(value, int) and abs(value) > 10**20:
        return "-10**5000" if value < 0 else "10**5000"
    return type(value).__name__ if type(value) is object else repr(value)


# -- valid objects ------------------------------------------------------------------------------


def _game() -> Any:
    from remi_rules.engine import Game

    return Game.new(variants.get("clasic"), 3, seed=1)


def _match() -> Any:
    from remi_rules.engine import Match, MatchConfig

    return Match(variants.get("clasic"), 2, MatchConfig(rounds=1), seed=1)


def _valid_by_annotation() -> list[tuple[str, Callable[[], Any]]]:
    from remi_rules.bots import RandomBot
    from remi_rules.engine import Draw

    clasic = variants.get("clasic")
    # Matched on the annotation's text, in this order (longer names first).
    return [
        ("GameRecord", lambda: _game().record()),
        ("GameState", lambda: _game().state),
        ("PlayerView", lambda: _game().view(0)),
        ("MatchConfig", lambda: __import__("remi_rules.engine", fromlist=["x"]).MatchConfig()),
        ("Match", _match),
        ("Game", _game),
        ("Ruleset", lambda: clasic),
        ("Meld", lambda: analyze_meld("7R 8R 9R", clasic)),
        ("Step", Draw),
        ("Bot", lambda: [RandomBot(1), RandomBot(2), RandomBot(3)]),
        ("Tile]", lambda: parse_tiles("7R 8R 9R")),
        ("Tile", lambda: Tile.parse("7R")),
        ("bool", lambda: False),
        ("int", lambda: 1),
        ("str", lambda: "clasic"),
    ]


_BY_NAME: dict[str, Callable[[], Any]] = {
    "lang": lambda: "ro",
    "rules": lambda: variants.get("clasic"),
    "ruleset": lambda: variants.get("clasic"),
    "game": _game,
    "seat": lambda: 0,
    "tiles": lambda: parse_tiles("7R 8R 9R"),
    "text": lambda: "7R",
    "name": lambda: "clasic",
}


def _annotation_text(fn: Any, param: inspect.Parameter) -> str:
    try:
        hints = typing.get_type_hints(fn)
        if param.name in hints:
            return str(hints[param.name])
    except Exception:
        pass
    ann = param.annotation
    return "" if ann is inspect.Parameter.empty else str(ann)


def _valid_for(fn: Any, param: inspect.Parameter) -> Callable[[], Any] | None:
    if param.name in _BY_NAME:
        return _BY_NAME[param.name]
    text = _annotation_text(fn, param)
    for key, factory in _valid_by_annotation():
        if key in text:
            return factory
    return None


def _required(sig: inspect.Signature) -> list[inspect.Parameter]:
    return [
        p
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]


# -- what is walked ------------------------------------------------------------------------------


def _modules() -> Iterator[Any]:
    yield remi_rules
    for info in pkgutil.walk_packages(remi_rules.__path__, "remi_rules."):
        name = info.name
        private = any(part.startswith("_") for part in name.split("."))
        if private or name.startswith(SKIP_MODULES):
            continue
        yield importlib.import_module(name)


def _walked() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for module in _modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            qual = f"{module.__name__}.{name}"
            if qual in SKIP_NAMES or not callable(obj):
                continue
            if inspect.isclass(obj) and (
                issubclass(obj, enum.Enum) or getattr(obj, "_is_protocol", False)
            ):
                continue
            found[qual] = obj
    return found


WALKED = _walked()

# Value classes whose public methods are walked on a fresh instance.
INSTANCES: dict[str, Callable[[], Any]] = {
    "Game": _game,
    "Match": _match,
    "Ruleset": lambda: variants.get("online"),
    "Tile": lambda: Tile.parse("7R"),
    "Meld": lambda: analyze_meld("7R 8R 9R", variants.get("clasic")),
    "PlayerView": lambda: _game().view(0),
    "GameRecord": lambda: _game().record(),
}


def _methods() -> dict[str, tuple[Callable[[], Any], str]]:
    out: dict[str, tuple[Callable[[], Any], str]] = {}
    for cls_name, factory in INSTANCES.items():
        sample = factory()
        for name, member in inspect.getmembers(type(sample)):
            if name.startswith("_") or not callable(member) or isinstance(member, type):
                continue
            try:
                params = _required(inspect.signature(getattr(sample, name)))
            except (TypeError, ValueError):
                continue
            if params:
                out[f"{cls_name}.{name}"] = (factory, name)
    return out


METHODS = _methods()


# -- the check ------------------------------------------------------------------------------------


def _outcome(call: Callable[[], Any]) -> str | None:
    """None if ``call`` behaved, else what went wrong."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, LIMIT_SECONDS)
    try:
        try:
            result = call()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    except _Timeout:
        return f"took more than {LIMIT_SECONDS} s"
    except RemiError as err:
        return _error_problem(err)
    except TypeError:
        return None
    except Exception as err:
        return f"{type(err).__name__}: {_short(err)}"
    if isinstance(result, RemiError):
        return _error_problem(result)
    return None


def _error_problem(err: RemiError) -> str | None:
    if not hasattr(err, "code"):
        return f"{type(err).__name__} without a code"
    try:
        texts = [str(err), err.message("ro"), repr(err)]
    except Exception as bad:
        return f"{type(err).__name__}({err.code!s}) whose message fails: {type(bad).__name__}"
    if not all(isinstance(t, str) and t for t in texts):
        return f"{type(err).__name__} with an empty message"
    return None


def _short(err: BaseException) -> str:
    try:
        text = str(err)
    except Exception:
        return "<str() fails>"
    return text if len(text) < 160 else text[:150] + "…"


def _calls(fn: Any) -> Iterator[tuple[str, Callable[[], Any]]]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    params = _required(sig)
    if not params:
        yield "()", fn
        return
    for h in HOSTILE:

        def every(h: Any = h) -> Any:
            return fn(*[h] * len(params))

        yield f"all={_hostile_name(h)}", every
    factories = [_valid_for(fn, p) for p in params]
    for i, param in enumerate(params):
        others = [f for j, f in enumerate(factories) if j != i]
        if any(f is None for f in others):
            continue
        for h in HOSTILE:

            def call(i: int = i, h: Any = h) -> Any:
                args = [h if j == i else f() for j, f in enumerate(factories)]  # type: ignore[misc]
                return fn(*args)

            yield f"{param.name}={_hostile_name(h)}, others valid", call


def _keyword_calls(fn: Any) -> Iterator[tuple[str, Callable[[], Any]]]:
    """Each optional parameter (with a default) given each hostile value by keyword,
    the required ones valid: ``TurnContext(rules, turn_number=0)``, ``Automation(
    scoring=10**5000)``."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    params = _required(sig)
    factories = [_valid_for(fn, p) for p in params]
    if any(f is None for f in factories):
        return
    kinds = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    for param in sig.parameters.values():
        if param in params or param.kind not in kinds or param.default is param.empty:
            continue
        for h in HOSTILE:

            def call(name: str = param.name, h: Any = h) -> Any:
                return fn(*[f() for f in factories], **{name: h})  # type: ignore[misc]

            yield f"{param.name}={_hostile_name(h)} by keyword", call


def _problems(fn: Any, *, keywords: bool = False) -> list[str]:
    problems = []
    for label, call in _keyword_calls(fn) if keywords else _calls(fn):
        problem = _outcome(call)
        if problem is not None:
            problems.append(f"{label}: {problem}")
    return problems


def _param(name: str) -> Any:
    if name in PENDING:
        return pytest.param(name, marks=pytest.mark.xfail(reason=PENDING[name], strict=False))
    return name


def test_the_walk_finds_the_public_api() -> None:
    for name in (
        "remi_rules.Tile",
        "remi_rules.parse_tiles",
        "remi_rules.analyze_meld",
        "remi_rules.serde.loads_house_rules",
        "remi_rules.serde.loads_game",
        "remi_rules.engine.Game",
        "remi_rules.solver.best_melds",
        "remi_rules.sim.make_bot",
        "remi_rules.errors.safe_text",
    ):
        assert name in WALKED, name
    assert "Game.apply" in METHODS and "Game.view" in METHODS
    assert not any(n.startswith("remi_rules.cli") for n in WALKED)


@pytest.mark.parametrize("name", [_param(n) for n in sorted(WALKED)])
def test_public_callable_refuses_hostile_arguments_properly(name: str) -> None:
    problems = _problems(WALKED[name])
    assert not problems, "\n".join(problems[:12])


@pytest.mark.parametrize("name", sorted(WALKED))
def test_public_callable_refuses_hostile_keyword_arguments_properly(name: str) -> None:
    problems = _problems(WALKED[name], keywords=True)
    assert not problems, "\n".join(problems[:12])


def _method_caller(factory: Callable[[], Any], method: str) -> Callable[..., Any]:
    """Calls ``method`` on a fresh instance each time, with the method's signature."""

    def call(*args: Any) -> Any:
        return getattr(factory(), method)(*args)

    call.__signature__ = inspect.signature(getattr(factory(), method))  # type: ignore[attr-defined]
    return call


@pytest.mark.parametrize("name", [_param(n) for n in sorted(METHODS)])
def test_public_method_refuses_hostile_arguments_properly(name: str) -> None:
    problems = _problems(_method_caller(*METHODS[name]))
    assert not problems, "\n".join(problems[:12])


def test_the_check_itself_fails_on_a_stray_exception() -> None:
    def raises_key_error(_x: object) -> None:
        raise KeyError("x")

    def refuses(_x: object) -> None:
        raise remi_rules.InvalidTileError(remi_rules.TileErrorCode.ID_OUT_OF_RANGE, id=10**5000)

    assert _problems(raises_key_error)
    assert not _problems(refuses)

    def endless() -> None:
        while True:
            pass

    assert _outcome(endless) == f"took more than {LIMIT_SECONDS} s"
