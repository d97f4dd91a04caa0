"""Conversions to and from plain data (JSON, TOML): the one place for them, on cattrs.

Rulesets
    :func:`ruleset_to_dict` / :func:`ruleset_from_dict`: every knob by name, enums
    as their string values, ``hand_sizes`` as a list, ``closing_atu_twin_effect`` as
    ``{"bonus": …, "mult": …}`` and ``None`` as ``null``.  Loading is strict:
    unknown keys, missing knobs and wrong types are refused with
    :class:`~remi_rules.InvalidRulesetError` naming the knob.

House-rules files
    ``{"base": "clasic", "overrides": {"closing_bonus": 50}}`` in JSON, or in TOML::

        base = "clasic"

        [overrides]
        closing_bonus = 50
        no_announce_penalty = "none"   # TOML has no null: "none" stands for None

    :func:`loads_house_rules`, :func:`load_house_rules`, :func:`dumps_house_rules`,
    and the dict forms :func:`house_rules_from_dict` / :func:`house_rules_to_dict`.

>>> from remi_rules import variants
>>> rules = loads_house_rules('{"base": "clasic", "overrides": {"closing_bonus": 50}}')
>>> rules.closing_bonus, house_rules_to_dict(rules)
(50, {'base': 'clasic', 'overrides': {'closing_bonus': 50}})
>>> ruleset_from_dict(ruleset_to_dict(rules)) == rules
True

Games, records and views (see docs/saving.md)
    :func:`dump_game` / :func:`load_game` (and the JSON-text forms :func:`dumps_game` /
    :func:`loads_game`): the whole state of a round, its rules with their fingerprint,
    the players' names and the round's record, so that a loaded game goes on and can
    still be recorded.  :func:`dump_record` / :func:`load_record` (:func:`dumps_record`
    / :func:`loads_record`): a :class:`~remi_rules.engine.GameRecord` (deal, steps,
    chance outcomes).  :func:`dump_view`: what one seat may see.  Loading is strict:
    anything wrong raises :class:`~remi_rules.errors.InvalidStateError` with a
    :class:`~remi_rules.errors.StateErrorCode` and ``details["path"]`` naming the field
    (``state.seats[2].rack[5]``; the document itself is ``$``).  The JSON Schemas of the
    formats are :func:`game_schema` and :func:`record_schema` (docs/schema/).  Each
    format has its version; an older document is migrated to the current one before
    it is read, a knob added later getting its documented default (docs/saving.md,
    "Versions and migrations"); the position is checked by
    :func:`remi_rules.engine.state_problems`.

Bounds (games, records, matches: :func:`dump_match` / :func:`load_match` /
:func:`loads_match`)
    Before anything is converted: a document larger than :data:`MAX_DOCUMENT_BYTES`
    (``state_document_too_large``, text refused before it is parsed), nesting deeper
    than :data:`MAX_DEPTH`, an integer beyond :data:`MAX_INTEGER`
    (``state_out_of_range``), a string longer than :data:`MAX_STRING_LENGTH`
    (``state_string_too_long``).  Loading takes time linear in the document's size.
    A loaded or replayed game goes on like a live one; ``seed=`` drives its future
    chance, and no save ever holds a seed.

Text game records (docs/protocol.md, "A text game record")
    :func:`dump_record_text` / :func:`load_record_text` (and :func:`read_record_text`
    with the headers): a round as text, PGN-like, its turns in the step notation of
    :mod:`remi_rules.notation`; strict loading with the line of each problem.

Messages of a networked table (docs/protocol.md)
    :func:`load_step` / :func:`loads_step` (a client's step, strictly, at most
    :data:`MAX_MESSAGE_BYTES`), :func:`dump_step`, :func:`dump_event` (``seat=`` a seat
    number, ``None`` for a spectator, or :data:`FULL` for the server's log) and
    :func:`dump_error`.
"""

from __future__ import annotations

from .games import *  # noqa: F403
from .games import __all__ as _games_all
from .games import main as main
from .matches import *  # noqa: F403
from .matches import __all__ as _matches_all
from .messages import *  # noqa: F403
from .messages import __all__ as _messages_all
from .record_text import *  # noqa: F403
from .record_text import __all__ as _record_text_all
from .rulesets import *  # noqa: F403
from .rulesets import __all__ as _rulesets_all

__all__ = [*_rulesets_all, *_games_all, *_matches_all, *_messages_all, *_record_text_all]
