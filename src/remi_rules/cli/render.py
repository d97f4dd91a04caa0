"""Text for the table as the commands show it: racks, melds, the row, the end of a
round and its score.  Every function returns strings; the commands print them.

>>> from remi_rules import variants
>>> from remi_rules.table import Table
>>> table, _ = Table().add_meld(1, (40, 48, 56), variants.get("clasic"))
>>> table_lines(table, "en")
['table:', '   0  seat 1  6R 7R 8R  (run, 15 p)']
>>> rack_text((104, 57, 0, 40), table)
'1R 6R 8R · J'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine import GameState, PlayerView
from ..engine.events import EndReason
from ..melds import Meld, MeldKind
from ..scoring import MultiplierReason, PenaltyKind, RoundResult
from ..table import Table
from ..tiles import tiles_str
from .texts import tr

__all__ = [
    "end_lines",
    "ids_text",
    "meld_text",
    "rack_text",
    "row_text",
    "score_lines",
    "seat_name",
    "status_text",
    "table_lines",
]


def seat_name(seat: int, lang: str, you: int | None = None) -> str:
    """``seat 2`` (``locul 2``), or ``you (seat 2)`` for the player at the terminal."""
    return tr(lang, "you" if seat == you else "seat", n=seat)


def ids_text(ids: Iterable[int], table: Table) -> str:
    """Physical tiles in notation, in the given order (a fixed joker as ``J(=8R)``)."""
    return tiles_str(table.tile(i) for i in ids)


def rack_text(ids: Iterable[int], table: Table) -> str:
    """A rack sorted by colour (R G A N) then rank, jokers last, colours apart."""
    tiles = sorted(table.tile(i) for i in ids)
    groups: list[list[str]] = []
    last: object = ()
    for tile in tiles:
        key = "J" if tile.is_joker else tile.color
        if key != last:
            groups.append([])
            last = key
        groups[-1].append(str(tile))
    return " · ".join(" ".join(g) for g in groups)


def meld_text(meld: Meld, lang: str) -> str:
    """The kind and points of a meld, and what each joker stands for (MELD-06):
    ``run, 40 p``, ``set, 75 p, J=1A/1N``."""
    kind = tr(lang, "run" if meld.kind is MeldKind.SUITA else "set")
    text = f"{kind}, {tr(lang, 'points', n=meld.points)}"
    for slot in meld.jokers:
        if slot.tile is not None:
            text += f", J={slot.tile}"
        else:
            text += ", J=" + "/".join(str(t) for t in slot.candidates)
    return text


def table_lines(
    table: Table,
    lang: str,
    *,
    you: int | None = None,
    only: Sequence[int] | None = None,
    marks: dict[int, str] | None = None,
    indent: str = "",
) -> list[str]:
    """The melds on the table, one a line: index, owner, tiles in table order, kind
    and points.  ``only`` limits the lines to some melds (without the heading);
    ``marks`` adds a word after the index (``new``)."""
    if not table.melds and only is None:
        return [indent + tr(lang, "table_empty")]
    out = [] if only is not None else [indent + tr(lang, "table")]
    width = max((len(ids_text(m.ids, table)) for m in table.melds), default=0)
    owners = {m.owner: seat_name(m.owner, lang, you) for m in table.melds}
    owner_width = max(len(name) for name in owners.values()) if owners else 0
    for index, meld in enumerate(table.melds):
        if only is not None and index not in only:
            continue
        owner = owners[meld.owner]
        mark = f" {marks[index]}" if marks and index in marks else ""
        tiles = ids_text(meld.ids, table)
        out.append(
            f"{indent}  {index:>2}{mark}  {owner:<{owner_width}}  {tiles:<{width}}"
            f"  ({meld_text(meld.meld, lang)})"
        )
    return out


def row_text(row: Sequence[int], table: Table, lang: str, *, dead_first: bool) -> str:
    """The discard row, oldest first, each tile with its position (for ``rupere 3``)."""
    if not row:
        return tr(lang, "row_empty")
    tiles = " ".join(f"{k}:{table.tile(i)}" for k, i in enumerate(row))
    dead = f" {tr(lang, 'row_dead')}" if dead_first else ""
    return f"{tr(lang, 'row')}: {tiles}{dead}"


def status_text(where: GameState | PlayerView, lang: str) -> str:
    """Rack sizes, the stock, the row's length and the atu, on one line."""
    if isinstance(where, GameState):
        sizes = [len(s.rack) for s in where.seats]
        stock = len(where.stock)
    else:
        sizes = [s.rack_size for s in where.seats]
        stock = where.stock_count
    atu = str(where.table.tile(where.atu))
    return " · ".join(
        (
            tr(lang, "racks", sizes=" ".join(str(n) for n in sizes)),
            tr(lang, "stock", n=stock),
            f"{tr(lang, 'row')} {len(where.row)}",
            tr(lang, "atu_up" if where.atu_face_up else "atu_taken", tile=atu),
        )
    )


def score_lines(result: RoundResult, lang: str, *, you: int | None = None) -> list[str]:
    """The score breakdown, term by term, one seat a line (SCORE-01 … SCORE-08), then
    the double game (ATU-05) and the winners (TIE-01/02)."""
    out = [tr(lang, "score")]
    for s in result.seats:
        penalty = ""
        if s.flat_penalty is not None:
            key = (
                "penalty_unopened"
                if s.flat_penalty.kind is PenaltyKind.UNOPENED
                else "penalty_no_announcement"
            )
            penalty = tr(lang, key, n=s.flat_penalty.points)
        out.append(
            "  "
            + tr(
                lang,
                "score_line",
                seat=seat_name(s.seat, lang, you),
                melded=s.melded,
                credits=s.credits,
                rack=s.rack,
                closing=s.closing_bonus,
                atu=s.atu_bonus,
                penalty=penalty,
                mult=s.multiplier,
                total=s.total,
            )
        )
    if result.double_game:
        why = (
            "why_atu_joker"
            if result.double_game_reason is MultiplierReason.DOUBLE_GAME_ATU_JOKER
            else "why_atu_ace"
        )
        out.append(tr(lang, "double_game", why=tr(lang, why)))
    winners = ", ".join(seat_name(w, lang, you) for w in result.winners)
    out.append(tr(lang, "winners", seats=winners))
    return out


def end_reason(state: GameState, lang: str, *, you: int | None = None) -> str:
    """How the round ended (CLOSE-07, END-01/02, END-04)."""
    end = state.end
    assert end is not None
    if end.reason is EndReason.CLOSED and end.closer is not None:
        tile = "?" if end.closing_tile is None else str(state.table.tile(end.closing_tile))
        key = "end_pe_tabla" if end.pe_tabla else "end_closed"
        return tr(lang, key, seat=seat_name(end.closer, lang, you), tile=tile)
    if end.reason is EndReason.MAX_TURNS:
        return tr(lang, "end_max_turns", n=state.rules.max_turns_per_round)
    return tr(lang, "end_stock")


def end_lines(
    state: GameState, result: RoundResult, lang: str, *, you: int | None = None
) -> list[str]:
    """The end of a round: why it ended, the table, and the score breakdown."""
    return [
        tr(lang, "round_over", why=end_reason(state, lang, you=you)),
        "",
        *table_lines(state.table, lang, you=you),
        "",
        *score_lines(result, lang, you=you),
    ]
