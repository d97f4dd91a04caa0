"""What the engine does by itself: :class:`Automation` (forced takes, automatic
announcements, scoring), separate from the :class:`~remi_rules.Ruleset`."""

from __future__ import annotations

import attrs

from ._typed import of_type

__all__ = ["Automation"]


@attrs.frozen(kw_only=True)
class Automation:
    """What the engine does by itself, separate from the :class:`~remi_rules.Ruleset`.
    All off by default.

    * ``forced_takes``: when the player to move can only draw (and has nothing to
      announce or declare first), draw for him (TURN-04's first turns, mostly) —
      but not while the previous seat's few-tiles window is open and unannounced: the
      draw would close it (ANNOUNCE-02) and cost him the penalty (ANNOUNCE-03) before
      he could announce; the draw then waits for the next step;
    * ``announcements``: where the preset makes them automatic
      (``announce_automatic``, ANNOUNCE-04, online), announce few tiles for the seat
      that ends a turn with ``announce_threshold`` tiles or fewer;
    * ``scoring``: when the round ends, add a :class:`~remi_rules.engine.events.RoundScored`
      event to the events of the step that ended it.
    """

    forced_takes: bool = attrs.field(default=False, validator=of_type(bool))
    announcements: bool = attrs.field(default=False, validator=of_type(bool))
    scoring: bool = attrs.field(default=False, validator=of_type(bool))

    @classmethod
    def all(cls) -> Automation:
        return cls(forced_takes=True, announcements=True, scoring=True)


def check_automation(automation: object) -> Automation | None:
    """``automation`` itself if it is None or an :class:`Automation`; else :class:`TypeError`."""
    if automation is not None and not isinstance(automation, Automation):
        raise TypeError(f"automation must be an Automation, not {type(automation).__name__}")
    return automation
