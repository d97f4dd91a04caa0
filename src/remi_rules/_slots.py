"""Fast copies and constructions of frozen, slotted attrs classes for the engine's hot
path (a game step copies three state values and builds a view; a simulation makes
millions of them).

A frozen class refuses ``setattr``, so its ``__init__`` (and ``attrs.evolve``) write
each field through a call to ``object.__setattr__``: measured with callgrind, about a
thousand machine instructions a field.  :func:`evolver` and :func:`maker` generate,
once per class, a function that fills an instance of a plain *twin* class (the same
``__slots__``, no ``__setattr__`` of its own, so each field is one specialised store)
and then gives it the frozen class (``__class__`` assignment, which CPython allows
between classes of the same slot layout): the value ``attrs.evolve`` or ``cls(...)``
would give, about ten times cheaper.  A class without a ``__weakref__`` slot
(``weakref_slot=False``) has such a twin; for any other the functions fall back to
writing through the slot descriptors.

Valid only for slotted classes whose fields have no validators or converters and which
have no ``__attrs_post_init__`` (:func:`require_plain` checks it when a function is
made, and the tests check the engine's classes stay so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["evolver", "maker", "replacer", "require_plain"]

_T = TypeVar("_T")
_MISSING = object()


def require_plain(cls: type, *, trusted: bool = False) -> tuple[str, ...]:
    """The field names of ``cls``, after checking it is a slotted attrs class without
    validators, converters or a post-init hook (else :class:`TypeError`); with
    ``trusted``, validators and converters are allowed (the caller's values already
    pass them)."""
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__} has __attrs_post_init__")
    names = []
    for field in attrs.fields(cls):
        checked = field.validator is not None or field.converter is not None
        if (checked and not trusted) or not field.init:
            raise TypeError(f"{cls.__name__}.{field.name} is not a plain field")
        names.append(field.name)
    return tuple(names)


def _twin(cls: type, names: tuple[str, ...]) -> type | None:
    """A plain class whose instances may become ``cls`` instances, or None: it has
    ``cls``'s bases and own ``__slots__``, so the same layout, and none of the classes
    it inherits from may define ``__setattr__``."""
    own = cls.__dict__.get("__slots__")
    if own is None or "__weakref__" in own:
        return None
    if any("__setattr__" in base.__dict__ for base in cls.__mro__[1:-1]):
        return None
    twin = type(f"_{cls.__name__}Twin", cls.__bases__, {"__slots__": own})
    probe: Any = twin()
    try:
        for name in names:
            setattr(probe, name, None)
        probe.__class__ = cls
    except (TypeError, AttributeError):  # another layout, or a field it cannot hold
        return None
    return twin


def _source(
    cls: type, names: tuple[str, ...], header: str, values: list[str]
) -> tuple[str, dict[str, Any]]:
    ns: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_M": _MISSING}
    twin = _twin(cls, names)
    if twin is not None:
        ns["_twin"] = twin
        lines = [header, "    new = _twin()"]
        lines += [f"    new.{n} = {v}" for n, v in zip(names, values, strict=True)]
        lines += ["    new.__class__ = _cls", "    return new"]
    else:
        lines = [header, "    new = _new(_cls)"]
        for k, (n, v) in enumerate(zip(names, values, strict=True)):
            ns[f"_s{k}"] = _slot(cls, n).__set__
            lines.append(f"    _s{k}(new, {v})")
        lines.append("    return new")
    return "\n".join(lines), ns


def _slot(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        descriptor = klass.__dict__.get(name)
        if descriptor is not None and hasattr(descriptor, "__set__"):
            return descriptor
    raise TypeError(f"{cls.__name__}.{name} has no slot")  # pragma: no cover - attrs slots


def evolver(cls: type[_T]) -> Callable[..., _T]:
    """``f(inst, **changes)``: a copy of ``inst`` (a ``cls``) with ``changes``, equal to
    ``attrs.evolve(inst, **changes)``; an unknown name raises :class:`TypeError`."""
    names = require_plain(cls)
    params = ", ".join(f"{n}=_M" for n in names)
    header = f"def evolve(inst, *, {params}, **_unknown):\n" + (
        "    if _unknown:\n"
        f"        raise TypeError('{cls.__name__} has no field ' + ', '.join(sorted(_unknown)))"
    )
    source, ns = _source(cls, names, header, [f"inst.{n} if {n} is _M else {n}" for n in names])
    exec(source, ns)  # generated from the class's own field names
    fn: Callable[..., _T] = ns["evolve"]
    return fn


def maker(cls: type[_T], *, trusted: bool = False) -> Callable[..., _T]:
    """``f(*values)``: a ``cls`` from all its field values, in field order, equal to
    ``cls(*values)`` (every field given, no defaults applied).  With ``trusted`` the
    class may have validators and converters, which ``f`` does not run: only for
    values its callers know to be valid and already converted (the engine's own)."""
    names = require_plain(cls, trusted=trusted)
    args = [f"a{k}" for k in range(len(names))]
    source, ns = _source(cls, names, f"def make({', '.join(args)}):", args)
    exec(source, ns)  # generated from the class's own field names
    fn: Callable[..., _T] = ns["make"]
    return fn


def replacer(cls: type[_T], *fields: str) -> Callable[..., _T]:
    """``f(inst, *values)``: a copy of ``inst`` with ``fields`` set to ``values`` (in
    that order), equal to ``attrs.evolve(inst, **dict(zip(fields, values)))``.  The
    fields are fixed when the function is made, so a call passes no keywords: the
    cheapest copy, for the engine's hottest steps."""
    names = require_plain(cls)
    unknown = [f for f in fields if f not in names]
    if unknown or len(set(fields)) != len(fields):
        raise TypeError(f"{cls.__name__}: bad fields {fields!r}")
    args = [f"a{k}" for k in range(len(fields))]
    given = dict(zip(fields, args, strict=True))
    header = f"def replace(inst, {', '.join(args)}):"
    source, ns = _source(cls, names, header, [given.get(n, f"inst.{n}") for n in names])
    exec(source, ns)  # generated from the class's own field names
    fn: Callable[..., _T] = ns["replace"]
    return fn
