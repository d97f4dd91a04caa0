"""Events register themselves (remi_rules.engine.events): an event class is declared
where its step is handled, with no list to edit, and read from ``event_types()`` by
the JSON Schema (docs/schema/event.schema.json), ``serde.dump_event`` and the tests.

* every event class the engine makes is registered, once, in a fixed order (the
  events module's in the order declared, then the other modules', by name);
* the order does not depend on which module a program imports first;
* a second class of a ``kind`` is refused where it is declared, and so is a class
  that would inherit its base's ``kind``.

The classes declared here go into a copy of the registry (``monkeypatch``), so that
the schemas the other tests build do not see them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

from remi_rules import engine, serde
from remi_rules._fields import SEAT
from remi_rules.engine import events
from remi_rules.engine.events import Event, event_types

SCHEMA = Path(__file__).resolve().parents[1] / "docs" / "schema" / "event.schema.json"


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "_KINDS", dict(events._KINDS))


def _subclasses(cls: type) -> set[type]:
    out: set[type] = set()
    subs: list[type] = cls.__subclasses__()
    for sub in subs:
        if attrs.has(sub):  # not the class attrs rebuilt with slots, left to the collector
            out.add(sub)
        out |= _subclasses(sub)
    return out


def test_every_event_class_is_registered_once_and_in_the_schema() -> None:
    kinds = [cls.kind for cls in event_types()]
    assert len(kinds) == len(set(kinds)) >= 21
    assert set(event_types()) == {
        cls for cls in _subclasses(Event) if cls.__module__.startswith("remi_rules.")
    }
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["properties"]["kind"]["enum"] == kinds
    assert {cls.__name__ for cls in event_types()} >= {"Dealt", "Drew", "StepUndone"}
    assert all(attrs.has(cls) and issubclass(cls, Event) for cls in event_types())


def test_the_events_module_comes_first_in_the_order_declared() -> None:
    mine = [cls for cls in event_types() if cls.__module__ == events.__name__]
    assert list(event_types()[: len(mine)]) == mine
    declared = [v for v in vars(events).values() if any(v is c for c in mine)]  # in its order
    assert mine == declared
    assert mine[:2] == [events.DealerChosen, events.Dealt] and mine[-1] is events.StepUndone


def test_the_order_does_not_depend_on_the_order_built(registry: None) -> None:
    before = event_types()

    @attrs.frozen
    class Late(Event):  # built first, listed last: its module's name comes after
        __module__ = "zz_test_late"
        kind: ClassVar[str] = "late_test"

    @attrs.frozen
    class Early(Event):
        __module__ = "aa_test_early"
        kind: ClassVar[str] = "early_test"

    listed = event_types()
    assert [cls for cls in listed if cls in (Early, Late)] == [Early, Late]
    assert [cls for cls in listed if cls not in (Early, Late)] == list(before)
    mine = [cls for cls in listed if cls.__module__ == events.__name__]
    assert list(listed[: len(mine)]) == mine  # "aa_test_early" sorts before them, yet after


_FRESH = """
import json, sys
first = sys.argv[1]
if first:
    __import__(first)
from remi_rules.engine.events import event_types
print(json.dumps([cls.kind for cls in event_types()]))
"""


@pytest.mark.parametrize(
    "first", ["", "remi_rules.serde", "remi_rules.engine._windows", "remi_rules.engine.events"]
)
def test_a_fresh_interpreter_registers_the_same_events_whatever_it_imports_first(
    first: str,
) -> None:
    src = str(Path(engine.__file__).resolve().parents[2])
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, first],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": src},
        timeout=120,
    )
    assert json.loads(out.stdout) == [cls.kind for cls in event_types()]


def test_a_second_class_of_a_kind_is_refused_where_it_is_declared(registry: None) -> None:
    with pytest.raises(
        TypeError, match=r"'drew' of .*Drew2 is taken by remi_rules\.engine\.events\.Drew$"
    ):

        @attrs.frozen
        class Drew2(Event):
            kind: ClassVar[str] = "drew"
            seat: int = attrs.field(metadata=SEAT)

    with pytest.raises(TypeError, match="needs a kind"):

        @attrs.frozen
        class MoreDrew(events.Drew):
            extra: int = 0

    assert events._KINDS["drew"] is events.Drew
    assert "drew" in [cls.kind for cls in event_types()]


def test_a_base_class_of_events_without_a_kind_is_not_an_event(registry: None) -> None:
    @attrs.frozen
    class SeatEvent(Event):
        seat: int = attrs.field(metadata=SEAT)

    @attrs.frozen
    class Waved(SeatEvent):
        kind: ClassVar[str] = "waved_test"

    assert SeatEvent not in event_types() and event_types()[-1] is Waved
    with pytest.raises(TypeError):
        serde.dump_event(Event(), seat=0)
