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
from ..errors import (
    InvalidMeldError,
    InvalidStateError,
)
from ..melds import analyze_meld
from ..ruleset import (
    Ruleset,
    SwappedJokerMode,
    SwapReplacementCredit,
)
from ..table import JokerHistory, Table, TableMeld, tile_value_of
from ..tiles import JOKER_IDS
from ._bounds import (  # noqa: F401 - re-exported (the tests read some private ones)
    _S,
    MAX_DEPTH,
    MAX_INTEGER,
    MAX_NAME_LENGTH,
    MAX_SAVED_TURNS,
    MAX_STRING_LENGTH,
    _check_size,
    _child,
    _fail,
    _HugeInt,
    _json_type,
    _parse_json,
    _scan,
    _show,
    _wrong_type,
)
from ._forms import (  # noqa: F401
    _FINGERPRINT,
    _GAME_DOC,
    _RECORD_BODY,
    _RECORD_DOC,
    _RULES,
    _STATE,
    _STEP,
    _VIEW,
    MAX_DOCUMENT_BYTES,
    MAX_UNDOS_PER_TURN,
    _document_bound,
    _dumps,
    _widest,
)
from ._migrations import current_version, migrate
from ._schema import (  # noqa: F401
    SCHEMA_DIALECT,
    SCHEMAS,
    game_schema,
    record_schema,
    render_schemas,
    write_schemas,
)
from ._schema import main as main
from ._spec import _Const, _Ctx, _Obj
from .rulesets import ruleset_to_dict

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
# The specs of the saved forms are in ``_forms`` (their primitives in ``_spec``), the
# bounds and the JSON parsing in ``_bounds``, the schemas in ``_schema``.  Reading
# checks types, ranges and keys; the meaning of the whole (the census of the 106 tiles,
# a possible phase: :func:`remi_rules.engine.state_problems`; the record replaying to
# the state) is checked after.


def _parse(text: object, limit: int | None = None) -> Any:
    """JSON text to plain data, strictly, in time linear in its length: at most
    ``limit`` bytes (:data:`MAX_DOCUMENT_BYTES`) (see ``_bounds._parse_json``)."""
    return _parse_json(text, MAX_DOCUMENT_BYTES if limit is None else limit)


# -- reading: the table ----------------------------------------------------------------------


def _table(raw: dict[str, Any], path: str, rules: Ruleset) -> Table:
    """The :class:`Table` of the values read: each meld re-analysed from its tiles
    (a fixed joker's value from the jokers' histories) and refused if invalid or not in
    table order; the credits and the joker histories checked against the rules."""
    jokers: tuple[JokerHistory, JokerHistory] = (raw["jokers"][0], raw["jokers"][1])
    melds: list[TableMeld] = []
    replaced = 0
    for m, meld in enumerate(raw["melds"]):
        mp = f"{path}.melds[{m}]"
        ids, owner = meld["ids"], meld["owner"]
        for key in ("credited", "placed_by"):
            if len(meld[key]) != len(ids):
                _fail(
                    _S.BAD_VALUE,
                    f"{mp}.{key}",
                    why="entries_per_tile",
                    count=len(meld[key]),
                    tiles=len(ids),
                )
        tiles = tuple(tile_value_of(i, jokers) for i in ids)
        try:
            analysis = analyze_meld(tiles, rules)
        except InvalidMeldError as err:
            _fail(
                _S.BAD_VALUE,
                f"{mp}.ids",
                why="invalid_meld",
                cause=err,
                meld_code=err.code.value,
            )
        if analysis.tiles != tiles:
            _fail(_S.BAD_VALUE, f"{mp}.ids", why="table_order")
        replacements = meld["replacements"]
        for k, tile_id in enumerate(sorted(replacements)):
            if tile_id not in ids or tile_id in JOKER_IDS:
                _fail(
                    _S.BAD_VALUE,
                    f"{mp}.replacements[{k}]",
                    why="not_a_real_tile",
                    tile_id=tile_id,
                )
        replaced += len(replacements)
        to_owner = rules.swap_replacement_credited_to is SwapReplacementCredit.MELD_OWNER
        for i, (tile_id, credited, placed) in enumerate(
            zip(ids, meld["credited"], meld["placed_by"], strict=True)
        ):
            want = owner if tile_id in replacements and to_owner else placed
            if credited != want:
                _fail(
                    _S.BAD_VALUE,
                    f"{mp}.credited[{i}]",
                    why="credited",
                    seat=want,
                )
        melds.append(
            TableMeld(
                owner=owner,
                ids=ids,
                meld=analysis,
                credited=meld["credited"],
                placed_by=meld["placed_by"],
                replacements=replacements,
            )
        )
    fixed_mode = rules.swapped_joker_mode is SwappedJokerMode.FIXED_IDENTITY
    for j, history in enumerate(jokers):
        jp = f"{path}.jokers[{j}]"
        if history.swaps > rules.joker_swap_limit:
            _fail(
                _S.OUT_OF_RANGE,
                f"{jp}.swaps",
                value=history.swaps,
                lo=0,
                hi=rules.joker_swap_limit,
            )
        if history.fixed_as is not None and not (fixed_mode and history.swaps):
            _fail(_S.BAD_VALUE, f"{jp}.fixed_as", why="fixed_only_swapped")
        if history.fixed_as is None and fixed_mode and history.swaps:
            _fail(_S.BAD_VALUE, f"{jp}.fixed_as", why="swapped_is_fixed")
    if replaced != sum(h.swaps for h in jokers):
        _fail(
            _S.BAD_VALUE,
            f"{path}.jokers",
            why="replacements",
            replaced=replaced,
            swaps=sum(h.swaps for h in jokers),
        )
    return Table(melds=tuple(melds), jokers=jokers)


# -- reading: the header, the record's replay ------------------------------------------


def _header(data: object, doc: _Obj, kind: str) -> tuple[dict[str, Any], _Ctx]:
    """The checks every document starts with, in this order: the format version (so
    that a newer file says so, whatever it holds), the bounds (:func:`_scan`: depth,
    integers, strings, size), an object, the kind, the keys, the rules and their
    fingerprint."""
    current = current_version(kind)
    if isinstance(data, dict) and "format_version" in data:
        version = data["format_version"]
        if isinstance(version, _HugeInt) or (type(version) is int and not 1 <= version <= current):
            _fail(_S.FORMAT_VERSION, "format_version", got=_show(version), expected=current)
    _scan(data, MAX_DOCUMENT_BYTES)
    if not isinstance(data, dict):
        _wrong_type("$", "object", data)
    if "format_version" not in data:
        _fail(_S.MISSING_KEY, "format_version", key="format_version")
    version = data["format_version"]
    if type(version) is not int:
        _wrong_type("format_version", "integer", version)
    if version != current:  # an older document: brought to this version first
        data = migrate(data, kind)
    if "kind" not in data:
        _fail(_S.MISSING_KEY, "kind", key="kind")
    _Const(kind).read(data["kind"], "kind", _Ctx())
    doc.keys_of(data, "")
    ctx = _Ctx(_RULES.read(data["rules"], "rules", _Ctx()))
    fingerprint = _FINGERPRINT.read(data["fingerprint"], "fingerprint", ctx)
    if fingerprint != ctx.ruleset.fingerprint():
        _fail(
            _S.FINGERPRINT,
            "fingerprint",
            got=fingerprint,
            expected=ctx.ruleset.fingerprint(),
        )
    return data, ctx


def _read_record(data: dict[str, Any], path: str, ctx: _Ctx) -> GameRecord:
    values = {
        key: spec.read(data[key], _child(path, key), ctx) for key, spec in _RECORD_BODY.items()
    }
    if values["dealer"] != (values["starter"] - 1) % values["players"]:
        _fail(_S.BAD_VALUE, _child(path, "dealer"), why="dealer")
    return GameRecord(rules=ctx.ruleset, **values)


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
    rules = game.state.rules
    return {
        "kind": "game",
        "format_version": current_version("game"),
        "fingerprint": rules.fingerprint(),
        "rules": ruleset_to_dict(rules),
        "names": list(game.names),
        "state": _STATE.dump(game.state),
        "record": _GAME_DOC.fields["record"].dump(game.record()),
    }


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
    doc, ctx = _header(data, _GAME_DOC, "game")
    names = _GAME_DOC.fields["names"].read(doc["names"], "names", ctx)
    fields = _STATE.read(doc["state"], "state", ctx)
    if len(names) != ctx.players:
        _fail(_S.BAD_VALUE, "names", why="names", names=len(names), players=ctx.players)
    fields["table"] = _table(fields["table"], "state.table", ctx.ruleset)
    state = GameState(rules=ctx.ruleset, **fields)
    problem = first_problem(state, "state")
    if problem is not None:
        raise problem.error()
    raw_record = _GAME_DOC.fields["record"]
    assert isinstance(raw_record, _Obj)
    body = raw_record.keys_of(doc["record"], "record")
    record = _read_record(body, "record", _Ctx(ctx.ruleset))
    game = _replay(record, "record", automation=automation, names=names, rng=rng)
    if game.state != state:
        found = _first_difference(_STATE.dump(state), _STATE.dump(game.state), "state")
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
    return {
        "kind": "record",
        "format_version": current_version("record"),
        "fingerprint": record.rules.fingerprint(),
        "rules": ruleset_to_dict(record.rules),
        **{key: spec.dump(getattr(record, key)) for key, spec in _RECORD_BODY.items()},
    }


def load_record(data: Mapping[str, Any]) -> GameRecord:
    """A :class:`~remi_rules.engine.GameRecord` from :func:`dump_record`'s data,
    checked strictly; it must replay (:meth:`Game.replay
    <remi_rules.engine.Game.replay>`) and use every chance outcome.  Raises
    :class:`~remi_rules.errors.InvalidStateError`."""
    doc, ctx = _header(data, _RECORD_DOC, "record")
    record = _read_record(doc, "", ctx)
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
    head: dict[str, Any] = {
        "kind": "view",
        "format_version": current_version("view"),
        "fingerprint": view.rules.fingerprint(),
    }
    if with_rules:
        head["rules"] = ruleset_to_dict(view.rules)
    return {**head, **_VIEW.dump(view)}


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
