"""Saved games, records and views: writing, strict loading, JSON Schema (see
:mod:`remi_rules.serde`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine import (
    Automation,
    Game,
    GameRecord,
    GameState,
    PlayerView,
)
from ..engine._history import _random_of
from ..engine.problems import first_problem
from ..errors import InvalidStateError
from ..ruleset import Ruleset
from ._bounds import (
    _S,
    MAX_DEPTH,
    MAX_INTEGER,
    MAX_NAME_LENGTH,
    MAX_SAVED_TURNS,
    MAX_STRING_LENGTH,
    _child,
    _fail,
    _json_type,
    _parse_json,
    _show,
)
from ._convert import field_of, structure, unstructure
from ._documents import HEADER, SavedGame, dump_document, read_header
from ._schema import (  # noqa: F401
    SCHEMA_DIALECT,
    SCHEMAS,
    game_schema,
    record_schema,
    render_schemas,
    write_schemas,
)
from ._schema import main as main
from ._size import MAX_DOCUMENT_BYTES, MAX_UNDOS_PER_TURN, _dumps  # noqa: F401

__all__ = [
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_INTEGER",
    "MAX_NAME_LENGTH",
    "MAX_SAVED_TURNS",
    "MAX_STRING_LENGTH",
    "SCHEMAS",
    "dump_game",
    "dump_record",
    "dump_view",
    "dumps_game",
    "dumps_record",
    "game_schema",
    "load_game",
    "load_record",
    "loads_game",
    "loads_record",
    "record_schema",
    "render_schemas",
    "write_schemas",
]
# == saved games, records and views ========================================================
#
# The documents (a header, then a body class's fields) are in ``_documents``; the
# converter that reads and writes every saved class from its fields' metadata in
# ``_convert`` (the table's checks under the rules in ``_table``); the bounds and the
# JSON parsing in ``_bounds``, the size of the largest save in ``_size``, the schemas in
# ``_schema``.  Reading checks types, ranges and keys, and the table's melds under the
# rules; the meaning of the whole (the census of the 106 tiles, a possible phase:
# :func:`remi_rules.engine.state_problems`; the record replaying to the state) is
# checked after.


def _parse(text: object, limit: int | None = None) -> Any:
    """JSON text to plain data, strictly, in time linear in its length: at most
    ``limit`` bytes (:data:`MAX_DOCUMENT_BYTES`) (see ``_bounds._parse_json``)."""
    return _parse_json(text, MAX_DOCUMENT_BYTES if limit is None else limit)


# -- reading: the header, the record's replay ------------------------------------------


def _read_record(data: object, path: str, rules: Ruleset) -> GameRecord:
    """A record (its body: the fields of :class:`GameRecord` but the rules), its dealer
    the seat before its starter."""
    record: GameRecord = structure(data, GameRecord, path, rules=rules)
    if record.dealer != (record.starter - 1) % record.players:
        _fail(_S.BAD_VALUE, _child(path, "dealer"), why="dealer")
    return record


def _replay(
    record: GameRecord,
    path: str,
    *,
    automation: Automation | None = None,
    names: tuple[str, ...] | None = None,
    rng: random.Random | None = None,
) -> Game:
    """The game the record leads to, ready to go on like a live one
    (:meth:`Game.replay <remi_rules.engine.Game.replay>`: its future chance from
    ``rng``, the undo history of its pending turn); :data:`StateErrorCode.BAD_RECORD`
    naming the step or chance outcome that does not replay, or the unused chance
    outcomes."""
    prefix = f"{path}." if path else ""
    try:
        game = Game.replay(record, seed=rng)
    except InvalidStateError as err:
        where = str(err.details.get("path", "record"))
        if where.startswith("record"):
            where = prefix + where[len("record") :].lstrip(".") if prefix else where[7:] or "$"
        if err.code is not _S.BAD_RECORD:
            raise
        raise InvalidStateError(_S.BAD_RECORD, **{**err.details, "path": where}) from None
    except Exception as err:  # an engine failure on odd but well-typed data
        _fail(
            _S.BAD_RECORD,
            f"{prefix}steps",
            why="engine_failed",
            engine_error=type(err).__name__,
        )
    used = len(game.record().chance)
    if used != len(record.chance):
        _fail(
            _S.BAD_RECORD,
            f"{prefix}chance[{used}]",
            why="chance_unused",
            count=len(record.chance) - used,
        )
    if names is not None:
        game.names = names
    game.automation = automation or Automation()
    return game


def _first_difference(a: Any, b: Any, path: str) -> tuple[str, Any] | None:
    """The first path where two dumps differ, with the value in ``b``."""
    if isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b):
        for key in a:
            found = _first_difference(a[key], b[key], _child(path, key))
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{k}]")
            if found is not None:
                return found
        return None
    return None if a == b else (path, b)


# -- the public functions ----------------------------------------------------------------------


def dump_game(game: Game) -> dict[str, Any]:
    """The whole game as plain JSON values: its state, rules (with their fingerprint),
    the players' names and its record.  :func:`load_game` reads it back.  A name
    longer than :data:`MAX_NAME_LENGTH` characters is refused
    (:class:`~remi_rules.errors.InvalidStateError`, ``state_string_too_long``), so that
    every save loads back."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, not {type(game).__name__}")
    for k, name in enumerate(game.names):
        if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH:
            _fail(
                _S.STRING_TOO_LONG,
                f"names[{k}]",
                length=len(name) if isinstance(name, str) else _json_type(name),
                limit=MAX_NAME_LENGTH,
            )
    saved = SavedGame(names=tuple(game.names), state=game.state, record=game.record())
    data: dict[str, Any] = dump_document("game", game.state.rules, saved)
    return data


def load_game(
    data: Mapping[str, Any],
    *,
    automation: Automation | None = None,
    seed: int | str | random.Random | None = None,
) -> Game:
    """A :class:`~remi_rules.engine.Game` from :func:`dump_game`'s data, checked
    strictly (see the module's doc): the bounds (:data:`MAX_DOCUMENT_BYTES`,
    :data:`MAX_INTEGER`, :data:`MAX_STRING_LENGTH`, :data:`MAX_DEPTH`) before anything
    is converted, the rules and their fingerprint, every field's type and range, the
    census of the 106 tiles, a possible phase, and the record, which must replay to
    exactly the saved state.  Raises :class:`~remi_rules.errors.InvalidStateError`.

    The loaded game goes on like a live one, with ``automation``; the steps of its
    pending turn can still be undone, and its future chance (an online reshuffle, a
    redeal) comes from ``seed``: an int or a str (``random.Random(seed)``), a
    :class:`random.Random` (used and advanced), or None, the default, for fresh
    randomness from the operating system.  A save never holds a seed (whoever read
    it could predict the stock)."""
    if automation is not None and not isinstance(automation, Automation):
        raise TypeError(f"automation must be an Automation, not {type(automation).__name__}")
    rng = _random_of(seed)
    doc, rules = read_header(data, "game")
    names_type, read_names = field_of(SavedGame, "names")
    names: tuple[str, ...] = structure(doc["names"], names_type, "names", hook=read_names)
    state: GameState = structure(doc["state"], GameState, "state", rules=rules)
    if len(names) != state.players:
        _fail(_S.BAD_VALUE, "names", why="names", names=len(names), players=state.players)
    problem = first_problem(state, "state")
    if problem is not None:
        raise problem.error()
    record = _read_record(doc["record"], "record", rules)
    game = _replay(record, "record", automation=automation, names=names, rng=rng)
    if game.state != state:
        found = _first_difference(unstructure(state), unstructure(game.state), "state")
        where, value = found if found is not None else ("state", None)
        _fail(_S.BAD_VALUE, where, why="record_leads_to", value=_show(value))
    return game


def dump_record(record: GameRecord | Game) -> dict[str, Any]:
    """A :class:`~remi_rules.engine.GameRecord` (or a game's record) as plain JSON
    values: the rules and their fingerprint, the seats, the deal, the steps (tagged by
    ``kind``) and the chance outcomes.  :func:`load_record` reads it back."""
    if isinstance(record, Game):
        record = record.record()
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord or a Game, not {type(record).__name__}")
    data: dict[str, Any] = dump_document("record", record.rules, record)
    return data


def load_record(data: Mapping[str, Any]) -> GameRecord:
    """A :class:`~remi_rules.engine.GameRecord` from :func:`dump_record`'s data,
    checked strictly; it must replay (:meth:`Game.replay
    <remi_rules.engine.Game.replay>`) and use every chance outcome.  Raises
    :class:`~remi_rules.errors.InvalidStateError`."""
    doc, rules = read_header(data, "record")
    body = {key: value for key, value in doc.items() if key not in HEADER}
    record = _read_record(body, "", rules)
    _replay(record, "")
    return record


def dump_view(view: PlayerView, *, with_rules: bool = True) -> dict[str, Any]:
    """What one seat may see (:class:`~remi_rules.engine.PlayerView`) as plain JSON
    values, for a frontend: no id of another rack or of the stock.  The view names its
    ruleset by ``fingerprint``; ``with_rules=False`` leaves the ruleset itself out (a
    server sends it once, and every view after without it: 2.7 KB of a 4.2 KB view).
    :func:`~remi_rules.serde.load_view` reads either."""
    if not isinstance(view, PlayerView):
        raise TypeError(f"expected a PlayerView, not {type(view).__name__}")
    if type(with_rules) is not bool:
        raise TypeError(f"with_rules must be a bool, not {type(with_rules).__name__}")
    data: dict[str, Any] = dump_document("view", view.rules, view, with_rules=with_rules)
    return data


def dumps_game(game: Game) -> str:
    """:func:`dump_game` as JSON text (keys sorted)."""
    return _dumps(dump_game(game))


def loads_game(
    text: str,
    *,
    automation: Automation | None = None,
    seed: int | str | random.Random | None = None,
) -> Game:
    """:func:`load_game` of JSON text: text longer than :data:`MAX_DOCUMENT_BYTES` is
    ``state_document_too_large`` (before it is parsed), text that is not JSON is
    ``state_not_json``; the time taken is linear in the text's length."""
    return load_game(_parse(text), automation=automation, seed=seed)


def dumps_record(record: GameRecord | Game) -> str:
    """:func:`dump_record` as JSON text (keys sorted)."""
    return _dumps(dump_record(record))


def loads_record(text: str) -> GameRecord:
    """:func:`load_record` of JSON text (bounded as :func:`loads_game`)."""
    return load_record(_parse(text))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
