"""What a table is made of: the seat kinds, the lobby's request
(:class:`TableSpec`, strictly read), the ruleset it names, and the refusal of a
message no game sees (:class:`WebRefusal`).  No rule is implemented here."""

from __future__ import annotations

from typing import Any, Final, Literal

import attrs

from .. import _i18n as i18n
from .. import serde, variants
from ..bots import GreedyBot, RandomBot
from ..engine import Automation, Bot
from ..ruleset import Ruleset

__all__ = [
    "AUTOMATION",
    "BOT_KINDS",
    "MAX_HOUSE_RULES_TEXT",
    "MAX_TABLES",
    "SEAT_KINDS",
    "TableSpec",
    "WebRefusal",
    "make_bot",
    "rules_of",
]

BOT_KINDS: Final = ("greedy", "random")
"""The bots a seat can hold: :class:`~remi_rules.bots.GreedyBot` (plays the hint) and
:class:`~remi_rules.bots.RandomBot`."""
SEAT_KINDS: Final = ("human", *BOT_KINDS)
"""What a seat can be: a person (joined by a link with the seat's token) or a bot."""
AUTOMATION: Final = Automation(announcements=True)
"""What the engine does by itself at a web table: the automatic announcements of the
presets that make them (ANNOUNCE-04), as in ``remi-rules play``."""
MAX_TABLES: Final = 500
"""The most tables one server holds at once (``web_too_many_tables`` past it)."""
MAX_HOUSE_RULES_TEXT: Final = serde.MAX_MESSAGE_BYTES
"""The largest house-rules text the lobby accepts (characters)."""


class WebRefusal(Exception):
    """A message the web table refuses before any game sees it (malformed, unknown,
    not allowed for a spectator …): ``code`` (``web:<code>`` in the catalogues) and
    ``details``, written like a library error by :meth:`dump`."""

    def __init__(self, code: str, /, **details: object) -> None:
        super().__init__(code)
        self.code = code
        self.details = details

    def message(self, lang: str = "en") -> str:
        return i18n.text(f"web:{self.code}", lang, self.details)

    def dump(self, lang: str) -> dict[str, Any]:
        """``{"code", "details", "message"}``, as :func:`remi_rules.serde.dump_error`."""
        return {"code": self.code, "details": dict(self.details), "message": self.message(lang)}


@attrs.frozen
class TableSpec:
    """What the lobby asks for: a preset or a house-rules text, the seats (2–4, each
    ``human``, ``greedy`` or ``random``) and the number of rounds (default: one per
    player, each seat starting once)."""

    seats: tuple[str, ...]
    variant: str | None = "clasic"
    house_rules: str | None = None
    rounds: int | None = None

    @classmethod
    def from_json(cls, data: object) -> TableSpec:
        """The lobby's request, strictly: unknown keys, wrong types and values out of
        range are refused with :class:`WebRefusal` (``bad_table``)."""
        if not isinstance(data, dict):
            raise WebRefusal("bad_table", why="object")
        unknown = sorted(set(data) - {"seats", "variant", "house_rules", "rounds"})
        if unknown:
            raise WebRefusal("bad_table", why=f"unknown key {unknown[0][:40]!r}")
        seats = data.get("seats")
        if (
            not isinstance(seats, list)
            or not 2 <= len(seats) <= 4
            or not all(isinstance(k, str) and k in SEAT_KINDS for k in seats)
        ):
            raise WebRefusal("bad_table", why="seats: 2 to 4 of " + ", ".join(SEAT_KINDS))
        variant = data.get("variant")
        house = data.get("house_rules")
        if house is not None:
            if not isinstance(house, str) or len(house) > MAX_HOUSE_RULES_TEXT:
                raise WebRefusal("bad_table", why="house_rules: a text")
            variant = None
        elif variant is None:
            variant = "clasic"
        if variant is not None and (
            not isinstance(variant, str) or variant not in variants.names()
        ):
            raise WebRefusal("bad_table", why="variant: " + ", ".join(variants.names()))
        rounds = data.get("rounds")
        if rounds is not None and (type(rounds) is not int or not 1 <= rounds <= 100):
            raise WebRefusal("bad_table", why="rounds: 1 to 100")
        return cls(seats=tuple(seats), variant=variant, house_rules=house, rounds=rounds)

    def ruleset(self) -> tuple[Ruleset, str, dict[str, Any]]:
        """The ruleset, its label and its stored form (a preset's name or the house
        rules as :func:`remi_rules.serde.house_rules_to_dict` writes them); a bad
        house-rules text raises the library's :class:`~remi_rules.InvalidRulesetError`."""
        if self.house_rules is not None:
            text = self.house_rules
            fmt: Literal["json", "toml"] = "json" if text.lstrip().startswith("{") else "toml"
            rules = serde.loads_house_rules(text, fmt)
            base = _base_of(text, fmt)
            return rules, f"{base}+", {"house": serde.house_rules_to_dict(rules, base)}
        assert self.variant is not None
        return variants.get(self.variant), self.variant, {"preset": self.variant}


def _base_of(text: str, fmt: str) -> str:
    """The preset a house-rules text names as its base (default clasic)."""
    import json
    import tomllib

    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except ValueError:
        return "clasic"
    base = data.get("base", "clasic") if isinstance(data, dict) else "clasic"
    return base if isinstance(base, str) and base in variants.names() else "clasic"


def rules_of(stored: dict[str, Any]) -> tuple[Ruleset, str]:
    if "house" in stored:
        house = stored["house"]
        return serde.house_rules_from_dict(house), f"{house.get('base', 'clasic')}+"
    name = stored["preset"]
    return variants.get(name), name


def make_bot(kind: str, seed: int | None, seat: int) -> Bot:
    if kind == "random":
        return RandomBot(None if seed is None else seed * 10 + seat)
    return GreedyBot()
