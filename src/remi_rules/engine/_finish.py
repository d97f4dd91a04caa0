"""Finishable steps: can the pending turn still end legally, by steps forward?

A step is *finishable* when, after it, the turn can still end (a discard or a close
becomes legal) through further steps of the same turn, :class:`Undo` left aside: the
take's obligation (RUPE-01/06/08, ATU-06), the opening (OPEN-02/03/06, OPEN-08), the
swapped joker (JOLY-04), the tiles that must stay on the rack (TURN-07), a pe-tablă
declarer's close (CLOSE-06) and the rack cap (TURN-10) can all still be met.

:func:`can_finish` answers it exactly for a state, by a search over the turn's
continuations that lets the solver do most of the work:

* a continuation can always be reordered so that the steps on melds that are already
  on the table (lay-offs, joker swaps: the *moves on the table*) come first and the
  new melds last: a lay-off on a meld made later, or a swap out of it, is the same as
  making the bigger meld, or the meld with the tile instead of the joker, at once.
  (Except where the first new meld of an opening gives rights that moves on the table
  need, ``layoff_on_others_in_opening_turn``, ``swap_in_opening_turn``,
  ``pe_tabla_layoff_on_others``: then the search also tries each first meld.)
* So the search (depth first, each position once) tries the moves on the table, and
  at every position asks the *oracle* whether new melds alone can end the turn: the
  melds the turn owes (the picked tile's justifying meld,
  :func:`~remi_rules.rupere.justifying_melds`; a meld for each swapped joker JOLY-04
  wants melded), then the rest of the rack split by the solver
  (:func:`~remi_rules.best_opening` under the opening's rules with the melds already
  down, else :func:`~remi_rules.best_melds`; most tiles placed, with the tiles that
  must stay).
* Every plan the oracle finds is played out by the engine itself
  (:func:`~remi_rules.engine.transition.apply_step`, then
  :func:`~remi_rules.engine.legal.can_end_turn`), so a True answer is never a guess.

Moves on the table are only tried where they can matter: every lay-off and swap when
the turn must close (ATU-06, CLOSE-06) or the rack has a cap; otherwise the lay-offs
on this turn's new melds, the picked tile's lay-off (``take_discard_may_layoff``),
lay-offs on a meld holding a joker (they may make a swap possible) and the swaps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator

from .. import joly
from ..errors import IllegalStepError, InvalidMeldError
from ..lipire import End, might_fit
from ..melds import MeldKind, analyze_meld
from ..ruleset import Ruleset, SwappedJokerUse
from ..rupere import TakeSource, justifying_melds
from ..table import TableMeld
from ..tiles import JOKER_IDS, Tile
from ._common import is_pe_tabla_turn, rights
from ._finish_bounds import out_of_reach
from ._finish_oracle import (
    apply_or_none,
    keeps_picked,
    must_close,
    oracle,
    own_left,
    plan_refusals,
)
from .state import GameState, Phase
from .steps import Close, DeclarePeTabla, Discard, Draw, LayOff, MeldTiles, Step, SwapJoker, Undo

__all__ = ["can_finish", "finishable_after", "finishable_steps", "plan_refusals"]


def can_finish(state: GameState) -> bool:
    """The pending turn of ``state`` can still end legally by steps forward (no
    :class:`~remi_rules.engine.steps.Undo`): in the take phase some take is
    finishable (:func:`finishable_after`); in the action phase a discard or a close
    is legal now or after some melds, lay-offs and swaps.  False once the round is
    over."""
    from .legal import turn_steps

    if state.phase is Phase.OVER or state.pending is None:
        return False
    if state.phase is Phase.TAKE:
        return any(finishable_after(state, s, listed=True) for s in turn_steps(state))
    return _search(state, {})


def finishable_after(
    state: GameState, step: Step, memo: dict[Hashable, bool] | None = None, listed: bool = False
) -> bool:
    """``step`` is legal in ``state`` (:func:`~remi_rules.engine.transition.apply_step`)
    and the turn can still end after it (:func:`can_finish`); a step that ends the turn
    or the round is finishable when it is legal.  A :class:`Draw` is judged for any
    tile it may bring: after a draw nothing is owed, so the turn ends with a discard
    unless the rack cap (TURN-10) is in the way, which counts tiles, not values.
    (:class:`Undo` is the game's: see :meth:`Game.is_finishable
    <remi_rules.engine.Game.is_finishable>`.)  ``memo``: the positions already judged,
    shared by the steps of one state; ``listed``: ``step`` is listed as legal in
    ``state`` (:func:`~remi_rules.engine.legal.legal_steps`)."""
    if isinstance(step, Undo):
        return False
    after = apply_or_none(state, step, listed)
    if after is None:
        return False
    if after.phase is Phase.OVER or after.pending is None:
        return True
    turn = state.pending
    if turn is None or after.pending.seat != turn.seat or after.turn != state.turn:
        return True  # the turn ended (or the deal was voided): a new turn begins
    if not step.in_turn and getattr(step, "seat", None) != state.current:
        return True  # another seat's announcement leaves this turn as it was
    if after.phase is Phase.ACTION:
        return _search(after, {} if memo is None else memo)
    return can_finish(after)


# -- the search -------------------------------------------------------------------------------


def _position(state: GameState) -> Hashable:
    turn = state.pending
    assert turn is not None
    table = state.table
    return (
        frozenset(state.seats[state.current].rack),
        tuple(m.ids for m in table.melds),
        table.jokers,
        turn.new_melds,
        turn.swapped_jokers,
        tuple(sorted(turn.laid_off)),
        turn.obligation,
        state.seats[state.current].declared_pe_tabla,
    )


def _search(state: GameState, memo: dict[Hashable, bool]) -> bool:
    """Depth first over the moves on the table, the oracle at each position; each
    position judged once (``memo``: the positions of one question, shared by the steps
    of one list).  The positions form no cycle: a lay-off shrinks the rack, a swap
    uses up one of a joker's swaps."""
    from .legal import can_end_turn

    if can_end_turn(state):
        return True
    key = _position(state)
    known = memo.get(key)
    if known is not None:
        return known
    memo[key] = False
    if out_of_reach(state):
        return False  # not now, nor after any move (necessary conditions)
    answer = oracle(state)
    found = answer is True
    if not found:
        for step in _moves(state, answer is False):
            after = apply_or_none(state, step, listed=True)
            if after is not None and _search(after, memo):
                found = True
                break
    memo[key] = found
    return found


def _moves(state: GameState, proved: bool = False) -> Iterator[Step]:
    """The moves on the table worth trying (see the module's docstring), and the
    player's own pe-tablă declaration where it is open: each legal in ``state`` (the
    generators' own steps, or checked here).  ``proved``: the oracle answered False
    (not None) at this position."""
    from ._copies import classes_of
    from ._placing import layoffs_and_swaps, meld_candidates

    turn = state.pending
    assert turn is not None
    rules = state.rules
    seat = state.seats[state.current]
    table = state.table
    opened, _ = rights(seat, turn)
    if not opened and (
        rules.layoff_on_others_in_opening_turn
        or rules.swap_in_opening_turn
        or (is_pe_tabla_turn(state, seat, turn) and rules.pe_tabla_layoff_on_others)
    ):
        # the first new meld gives rights that moves on the table may need
        from ._table_steps import verify_meld

        for candidate in meld_candidates(state):
            try:
                verify_meld(state, candidate)
            except IllegalStepError:
                continue
            yield candidate
    ob = turn.obligation
    if (
        ob is not None
        and ob.picked in seat.rack
        and rules.take_discard_may_layoff
        and turn.opened_before
        and ob.source is not TakeSource.ATU
        and opened
    ):
        # RUPE-08: the picked tile may be laid off, also on a meld made after the take
        # (melding it into that meld instead would owe its own tiles): try the new
        # melds it could then be laid on.
        from ._table_steps import verify_meld

        taken = state.table.tile(ob.picked)
        for candidate in meld_candidates(state):
            if ob.picked in candidate.tiles or not _extends(
                [state.table.tile(i) for i in candidate.tiles], taken, rules
            ):
                continue
            try:
                verify_meld(state, candidate)
            except IllegalStepError:
                continue
            yield candidate
    if rules.pe_tabla_enabled and not seat.declared_pe_tabla:
        declare = DeclarePeTabla(state.current)
        if apply_or_none(state, declare) is not None:
            yield declare
    every = must_close(state) or rules.max_rack_after_turn is not None
    picked = ob.picked if ob is not None else None
    new = set(turn.new_melds)
    # the new meld holding the picked tile (its own tiles may still be too few)
    holding = next((m for m in turn.new_melds if picked in table.melds[m].ids), None)
    owed_jokers: set[int] = set()
    if rules.swapped_joker_use is SwappedJokerUse.SAME_TURN_NEW_MELD:
        owed_jokers = set(
            joly.swapped_jokers_unmelded(table, turn.swapped_jokers, turn.new_melds, rules)
        )
    ranks = Counter(table.tile(i).rank for i in seat.rack if i < 104)
    picked_tile = table.tile(picked) if picked is not None and picked in seat.rack else None
    # Swaps bring jokers: worth it where a joker can still complete the picked tile's
    # meld (enough own tiles left for it), in the meld that holds it (an own tile in
    # the joker's place), or for an opening's melds.
    swaps_help = not turn.opened_before or (
        picked is not None
        and picked in seat.rack
        and own_left(state) >= rules.take_meld_min_own_tiles
    )
    layoffs: list[LayOff] = []
    for step in layoffs_and_swaps(state, classes_of(state, state.current)):
        if isinstance(step, SwapJoker):
            if every or swaps_help or step.meld == holding:
                yield step
            continue
        assert isinstance(step, LayOff)
        layoffs.append(step)

    def unlocks(meld: TableMeld) -> bool:
        # a locked 3-tile set's joker becomes swappable once the set is completed
        # (JOLY-03), with another tile of its rank to swap in
        return (
            swaps_help
            and rules.set_complete_and_swap_same_turn
            and meld.kind is MeldKind.TERTA
            and len(meld.ids) == 3
            and bool(meld.meld.jokers)
            and ranks[meld.meld.low] >= 2
        )

    # The turn's melds where the swapped jokers still on the rack cannot all be laid
    # off now (JOLY-04 wants them in a new meld): only there may another tile's
    # lay-off make room for them.  Where they all can, such a lay-off does nothing for
    # them (the clauses below keep those that may serve the picked tile, an opening or
    # a swap).
    need_room: set[int] = set()
    on_rack = [j for j in owed_jokers if j in seat.rack]
    if on_rack and not every:
        need_room = {m for m in new if not _takes_all(state, m, on_rack)}
    # A turn that must close, where the oracle's False said that no close lays off
    # only on the places the table has now, and no joker is on the rack: only the
    # lay-offs that make room for another tile are worth a position (:func:`_widens`).
    closing = (
        proved
        and every
        and rules.max_rack_after_turn is None
        and _lays_off_in_oracle(state)
        and not any(i in JOKER_IDS for i in seat.rack)
    )
    held = {table.tile(i) for i in seat.rack} if closing else set()
    for step in layoffs:
        if closing:
            meld = table.melds[step.meld]
            if _widens(meld, table.tile(step.tile), held) or unlocks(meld):
                yield step
            continue
        if every:
            yield step
            continue
        meld = table.melds[step.meld]
        if step.meld in new:
            useful = (
                not turn.opened_before  # an opening's points and composition
                or step.tile == picked
                or step.meld == holding
                or step.tile in owed_jokers
                # the picked tile may join this meld once it has grown
                or (holding is None and picked_tile is not None and might_fit(picked_tile, meld))
                # a swapped joker on the rack may need this meld grown to take it
                or step.meld in need_room
                or unlocks(meld)
            )
        else:
            useful = (step.tile == picked and rules.take_discard_may_layoff) or unlocks(meld)
        if useful:
            yield step


def _lays_off_in_oracle(state: GameState) -> bool:
    """The oracle of this position asks its closes with the lay-offs the table has
    room for (:func:`~remi_rules.engine._finish_oracle._splits`): a turn that must
    close, where melds may be made and the taken tile is not kept unmelded."""
    seat = state.seats[state.current]
    if not must_close(state) or (seat.turns == 1 and state.rules.first_turn_no_meld):
        return False
    return not keeps_picked(state)


def _widens(meld: TableMeld, tile: Tile, held: set[Tile]) -> bool:
    """A lay-off of ``tile`` on ``meld`` may make room that the oracle of this position
    does not count: on a run, a place next to it for a tile of the rack (``held``) or
    on a meld holding a joker (a swap); a joker anywhere.  The other lay-offs take a
    place the oracle counts and give none, so a close through them is a close through
    the oracle's lay-offs after the same other moves (a swap, which brings a joker
    that could fill a new place, first: the search tries every swap, and where a
    joker is on the rack every lay-off)."""
    if tile.is_joker or meld.meld.jokers:
        return True
    if meld.kind is not MeldKind.SUITA:
        return False
    rank, color = tile.rank, tile.color
    assert rank is not None and color is not None
    ranks = {rank - 1, rank + 1} | ({2, 13} if rank == 1 else {1} if rank == 13 else set())
    return any(Tile(rank=r, color=color) in held for r in ranks if 1 <= r <= 13)


def _takes_all(state: GameState, meld: int, jokers: list[int]) -> bool:
    """The jokers ``jokers`` (on the rack) can all be laid off on the turn's meld
    ``meld`` now, one after the other (each lay-off checked by the engine)."""
    after: GameState | None = state
    for joker in jokers:
        assert after is not None
        for end in (End.LOW, End.HIGH, End.SET):
            laid = apply_or_none(after, LayOff(joker, meld, end))
            if laid is not None:
                after = laid
                break
        else:
            return False
    return True


def _extends(tiles: list[Tile], tile: Tile, rules: Ruleset) -> bool:
    """``tile`` makes a valid meld with ``tiles`` at one of its ends (a run) or as a
    further colour (a set): whether it could be laid off on that meld once it is down."""
    for placed in ([tile, *tiles], [*tiles, tile]):
        try:
            analyze_meld(placed, rules)
        except InvalidMeldError:
            continue
        return True
    return False


# -- many steps at once ---------------------------------------------------------------------------


def _nothing_owed(state: GameState) -> bool:
    """The pending turn owes nothing and a table step cannot make it owe anything:
    the player had opened before this turn, took no tile face up, is no pe-tablă
    declarer, no swapped joker waits for a meld and the rack has no cap.  Then every
    legal meld, lay-off or swap (under ``swapped_joker_use = keep``) leaves a turn that
    a discard (or, with one tile left, a close) ends."""
    turn = state.pending
    if turn is None or state.phase is not Phase.ACTION or turn.took is None:
        return False
    rules = state.rules
    seat = state.seats[state.current]
    return (
        turn.obligation is None
        and turn.opened_before
        and not is_pe_tabla_turn(state, seat, turn)
        and rules.max_rack_after_turn is None
        and (rules.swapped_joker_use is SwappedJokerUse.KEEP or not turn.swapped_jokers)
    )


def finishable_steps(
    state: GameState, steps: Iterable[Step], memo: dict[Hashable, bool] | None = None
) -> tuple[Step, ...]:
    """The steps of ``steps`` that :func:`finishable_after` accepts (each one listed as
    legal in ``state`` by :func:`~remi_rules.engine.legal.legal_steps`, and applied
    without its checks), :class:`Undo` kept: an undo goes back to a position of the
    turn, and a player who made only finishable steps only goes back to finishable
    ones.
    ``memo``: the positions of this turn already judged (shared by the calls of one
    turn), else a new one for these steps."""
    steps = tuple(steps)
    if state.phase is Phase.OVER:
        return ()
    current = state.current
    easy = _nothing_owed(state)
    partners = _partners(state)
    keep = state.rules.swapped_joker_use is SwappedJokerUse.KEEP
    out: list[Step] = []
    memo = {} if memo is None else memo
    for step in steps:
        if isinstance(step, Undo):
            out.append(step)
        elif not step.in_turn and getattr(step, "seat", None) != current:
            out.append(step)  # another seat's: this turn stays as it was
        elif isinstance(step, Discard | Close):
            out.append(step)  # listed, so legal: it ends the turn
        elif easy and (
            isinstance(step, MeldTiles | LayOff) or (keep and isinstance(step, SwapJoker))
        ):
            out.append(step)
        elif isinstance(step, Draw) and state.rules.max_rack_after_turn is None:
            out.append(step)  # nothing owed after a draw: a discard ends the turn
        elif partners is not None and _spares(state, step, partners):
            out.append(step)  # the picked tile's meld stays whole
        elif finishable_after(state, step, memo, listed=True):
            out.append(step)
    return tuple(out)


def _partners(state: GameState) -> tuple[frozenset[int], ...] | None:
    """Where the only thing the turn owes is the picked tile's justifying meld (the
    player had opened before, no close, no rack cap, swapped jokers kept): those melds,
    as sets of ids, for :func:`_spares`.  Else None."""
    turn = state.pending
    if turn is None or state.phase is not Phase.ACTION or turn.obligation is None:
        return None
    rules = state.rules
    seat = state.seats[state.current]
    ob = turn.obligation
    if (
        not turn.opened_before
        or ob.must_close
        or ob.picked not in seat.rack
        or is_pe_tabla_turn(state, seat, turn)
        or rules.max_rack_after_turn is not None
        or rules.swapped_joker_use is not SwappedJokerUse.KEEP
        or (seat.turns == 1 and rules.first_turn_no_meld)
    ):
        return None
    rack = seat.rack
    own = [i for i in ob.rack_before_take if i in rack]
    also = [i for i in ob.also_taken if i in rack]
    later = [i for i in rack if i != ob.picked and i not in own and i not in also]
    melds = justifying_melds(
        ob.picked,
        own,
        rules,
        also_taken=also,
        acquired_later=later,
        min_left=0,
        jokers=state.table.jokers,
    )
    return tuple(frozenset(m) for m in melds)


def _spares(state: GameState, step: Step, partners: tuple[frozenset[int], ...]) -> bool:
    """A meld, a lay-off or a swap (a joker kept) that leaves the picked tile on the
    rack and one of its justifying melds whole, with a tile to spare once that meld
    is down: the turn ends with that meld and a discard."""
    if isinstance(step, MeldTiles):
        gone = frozenset(step.tiles)
        left = len(state.seats[state.current].rack) - len(gone)
    elif isinstance(step, LayOff):
        gone = frozenset((step.tile,))
        left = len(state.seats[state.current].rack) - 1
    elif isinstance(step, SwapJoker):
        gone = frozenset((step.tile,))
        left = len(state.seats[state.current].rack)
    else:
        return False
    turn = state.pending
    assert turn is not None and turn.obligation is not None
    if turn.obligation.picked in gone:
        return False
    return any(left - len(meld) >= 1 and not meld & gone for meld in partners)
