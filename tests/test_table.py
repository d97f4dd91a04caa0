"""The table value (MELD-07, LIPI-04, JOLY-02, JOLY-05, VALUE-05): immutability, the
bookkeeping of add_meld / extend / swap_joker, the ledger, physical ids never
duplicated, bad ids refused; and a Hypothesis property: random legal lay-offs keep every
physical id on the table at most once and every meld valid."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from remi_rules import (
    InvalidMeldError,
    InvalidTileError,
    SwappedJokerMode,
    Tile,
    analyze_meld,
    ids_of,
    is_valid_meld,
    tile_of,
    variants,
)
from remi_rules.lipire import End, lay_off, layoff_options
from remi_rules.table import JokerHistory, JokerState, Table, tile_value_of

PRESETS = variants.names()
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)


def tid(text: str, copy: int = 0) -> int:
    return ids_of(Tile.parse(text))[copy]


@pytest.mark.rule("TILES-01")
def test_physical_ids() -> None:
    assert tid("7R") == 8 * 6 + 0 and tid("7N", 1) == 8 * 6 + 2 * 3 + 1
    assert tid("J") == 104 and ids_of(Tile.parse("J")) == (104, 105)
    assert tile_value_of(104, Table().jokers) == Tile.parse("J")


@pytest.mark.rule("MELD-07")
def test_table_is_immutable() -> None:
    empty = Table()
    table, index = empty.add_meld(0, [tid("6R"), tid("7R"), tid("8R")], CLASIC)
    assert empty.melds == () and index == 0 and len(table.melds) == 1
    same = table  # assigned through an alias: mypy would narrow ``table.melds`` to ()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        same.melds = ()  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        table.melds[0].owner = 3  # type: ignore[misc]
    after = table.extend(0, tid("9R"), 1, CLASIC)
    assert len(table.melds[0].ids) == 3 and len(after.melds[0].ids) == 4


@pytest.mark.rule("MELD-07")
@pytest.mark.rule("LIPI-04")
def test_add_meld_and_extend_bookkeeping() -> None:
    table, s = Table().add_meld(2, [tid("7N"), tid("7R"), tid("7A")], CLASIC)
    meld = table.melds[s]
    assert str(meld.meld) == "7R 7A 7N"  # sets kept in canonical colour order
    assert meld.ids == (tid("7R"), tid("7A"), tid("7N"))
    assert meld.owner == 2 and meld.credited == (2, 2, 2) == meld.placed_by
    assert table.melds_of(2) == (s,) and table.melds_of(0) == ()
    table = table.extend(s, tid("7G"), 0, CLASIC)
    meld = table.melds[s]
    assert meld.ids == (tid("7R"), tid("7G"), tid("7A"), tid("7N"))
    assert meld.credited == (2, 0, 2, 2) and meld.placed_by == (2, 0, 2, 2)
    table, r = table.add_meld(1, [tid("5A"), tid("6A"), tid("7A", 1)], CLASIC)
    table = table.extend(r, tid("4A"), 3, CLASIC, low_end=True)
    assert str(table.melds[r].meld) == "4A 5A 6A 7A" and table.melds[r].credited == (3, 1, 1, 1)
    assert [(e.layer, e.owner, e.meld_index, str(e.tile)) for e in table.ledger()] == [
        (0, 2, s, "7G"),
        (3, 1, r, "4A"),
    ]
    assert table.ids() == {tid("7R"), tid("7G"), tid("7A"), tid("7N"), tid("4A")} | {
        tid("5A"),
        tid("6A"),
        tid("7A", 1),
    }


@pytest.mark.rule("JOLY-02")
@pytest.mark.rule("JOLY-05")
@pytest.mark.rule("VALUE-05")
@pytest.mark.parametrize("preset", PRESETS)
def test_swap_joker_bookkeeping(preset: str) -> None:
    rules = variants.get(preset)
    table, r = Table().add_meld(0, [tid("5R"), 104, tid("7R")], rules)
    assert table.melds[r].joker_positions() == (1,) and table.melds[r].real_count == 2
    after = table.swap_joker(r, 104, tid("6R"), 1, rules)
    meld = after.melds[r]
    assert str(meld.meld) == "5R 6R 7R" and 104 not in after.ids()
    assert meld.credited == (0, 0, 0) and meld.placed_by == (0, 1, 0)
    assert meld.replacements == {tid("6R")}
    (entry,) = after.ledger()
    assert entry.replacement and entry.layer == 1 and entry.credited == 0
    history = after.joker(104)
    assert history.swaps == 1 and after.joker(105) == JokerHistory()
    fixed = rules.swapped_joker_mode is SwappedJokerMode.FIXED_IDENTITY
    assert history.state(rules) is (JokerState.FIXED if fixed else JokerState.REUSED)
    assert after.tile(104) == (Tile.parse("J(=6R)") if fixed else Tile.parse("J"))
    assert table.joker(104) == JokerHistory()  # the old table is unchanged


def test_ids_never_duplicated_and_bad_ids_refused() -> None:
    table, r = Table().add_meld(0, [tid("5R"), 104, tid("7R")], CLASIC)
    with pytest.raises(ValueError):
        table.add_meld(1, [tid("5R"), tid("5G"), tid("5A")], CLASIC)  # 5R already there
    with pytest.raises(ValueError):
        table.add_meld(1, [tid("5G"), tid("5G"), tid("5A")], CLASIC)  # twice in one meld
    with pytest.raises(ValueError):
        table.extend(r, tid("7R"), 1, CLASIC)
    with pytest.raises(InvalidTileError):
        table.extend(r, 106, 1, CLASIC)
    with pytest.raises(InvalidTileError):
        table.add_meld(1, [-1, 0, 1], CLASIC)
    with pytest.raises(TypeError):
        table.extend(r, "8R", 1, CLASIC)  # type: ignore[arg-type]
    with pytest.raises(InvalidMeldError):
        table.extend(r, tid("9R"), 1, CLASIC)
    with pytest.raises(ValueError):
        table.joker(3)
    with pytest.raises(ValueError):
        table.swap_joker(r, tid("5R"), tid("6R"), 1, CLASIC)  # not a joker


def test_swap_joker_refuses_a_tile_already_on_the_table() -> None:
    table, r = Table().add_meld(0, [tid("5R"), 104, tid("7R")], CLASIC)
    table, _ = table.add_meld(1, [tid("6R"), tid("6G"), tid("6A")], CLASIC)
    with pytest.raises(ValueError):
        table.swap_joker(r, 104, tid("6R"), 1, CLASIC)


# -- property: random legal lay-offs ------------------------------------------------------

START = ("6R 7R 8R", "2G 2A J", "9N 10N 11N", "5A 5N 5R", "12G 13G 1G")


def _start(rules_name: str) -> Table:
    rules = variants.get(rules_name)
    table = Table()
    used: set[int] = set()
    for owner, text in enumerate(START):
        ids = []
        for token in text.split():
            i = next(i for i in ids_of(Tile.parse(token)) if i not in used)
            used.add(i)
            ids.append(i)
        table, _ = table.add_meld(owner % 3, ids, rules)
    return table


@pytest.mark.rule("LIPI-02")
@pytest.mark.rule("LIPI-05")
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_random_legal_layoffs_keep_ids_unique_and_melds_valid(
    preset: str, data: st.DataObject
) -> None:
    rules = variants.get(preset)
    table = _start(preset)
    for _ in range(data.draw(st.integers(0, 25), label="steps")):
        free = sorted(set(range(106)) - table.ids())
        tile_id = data.draw(st.sampled_from(free), label="tile")
        seat = data.draw(st.integers(0, 3), label="seat")
        options = [
            o
            for o in layoff_options(
                table, tile_id, seat, rules, opened=True, opened_this_turn=False
            )
            if o.end is not End.SWAP
        ]
        if not options:
            continue
        option = data.draw(st.sampled_from(options), label="option")
        before = table
        table = lay_off(
            table,
            option.meld_index,
            tile_id,
            seat,
            rules,
            opened=True,
            opened_this_turn=False,
            end=option.end,
        )
        assert set(before.melds[option.meld_index].ids) < set(table.melds[option.meld_index].ids)
        all_ids = [i for m in table.melds for i in m.ids]
        assert len(all_ids) == len(set(all_ids)) == len(before.ids()) + 1
        for meld in table.melds:
            tiles = [table.tile(i) for i in meld.ids]
            assert is_valid_meld(tiles, rules)
            assert analyze_meld(tiles, rules) == meld.meld
            assert len(meld.credited) == len(meld.placed_by) == len(meld.ids)
            assert all(tile_of(i) for i in meld.ids)
