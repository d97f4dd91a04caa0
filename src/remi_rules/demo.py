"""The demo round of ``remi-rules demo``: simple built-in players (not the bots of
:mod:`remi_rules.bots`, which use the solver) play one seeded round with every
:class:`~remi_rules.engine.Automation` on, and the round is printed turn by turn.

The players here are deliberately plain: draw, open with the highest-scoring melds the
engine lists when they make a valid etalare, then meld, lay off and swap what fits,
close when they can, and discard their highest-valued loose tile.
"""

from __future__ import annotations

import itertools
from typing import TextIO

from . import rupere
from .engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    Automation,
    Close,
    Discard,
    Draw,
    Game,
    LayOff,
    MeldTiles,
    Phase,
    Step,
    SwapJoker,
)
from .errors import IllegalStepError, RemiError
from .melds import analyze_meld
from .ruleset import Ruleset
from .tiles import tile_of, tiles_str
from .values import rack_value_end

__all__ = ["demo_turn", "play_demo"]


def _t(ids: tuple[int, ...] | list[int]) -> str:
    return tiles_str([tile_of(i) for i in ids])


def _try(game: Game, step: Step, log: list[str]) -> bool:
    try:
        game.apply(step)
    except IllegalStepError:
        return False
    log.append(str(step))
    return True


def _points(game: Game, step: MeldTiles) -> int:
    table = game.state.table
    return analyze_meld([table.tile(i) for i in step.tiles], game.rules).points


def _announce(game: Game, log: list[str]) -> None:
    for seat in range(game.state.players):
        for step in (AnnounceAtu(seat), AnnounceFewTiles(seat)):
            if game.can(step):
                game.apply(step)
                log.append(str(step))


def _ends(game: Game) -> list[Close | Discard]:
    """The legal ways to end the turn (cheaper than listing every legal step)."""
    rack = game.state.rack(game.state.current)
    if len(rack) == 1:
        both: list[Close | Discard] = [Close(rack[0]), Discard(rack[0])]
        return [s for s in both if game.can(s)]
    return [d for d in [Discard(t) for t in rack] if game.can(d)]


def _finish(game: Game, log: list[str]) -> None:
    ends = _ends(game)
    closes = [s for s in ends if isinstance(s, Close)]
    if closes:
        _try(game, closes[0], log)
        return
    rules = game.rules
    table = game.state.table
    worst = max(ends, key=lambda d: (rack_value_end(table.tile(d.tile), rules), d.tile))
    _try(game, worst, log)


def _undo_all(game: Game, log: list[str], keep: int) -> None:
    while game.can_undo() and len(log) > keep:
        game.undo()
        log.pop()


def _take(game: Game, log: list[str]) -> None:
    """Draw; with an empty stock, the first take from the row whose tile a meld uses."""
    if _try(game, Draw(), log):
        return
    for take in [s for s in game.legal_steps() if s.in_turn]:
        mark = len(log)
        if not _try(game, take, log):
            continue
        pending = game.state.pending
        assert pending is not None and pending.obligation is not None
        ob = pending.obligation
        justifying = rupere.justifying_melds(
            ob.picked,
            ob.rack_before_take,
            game.rules,
            also_taken=ob.also_taken,
            jokers=game.state.table.jokers,
        )
        for ids in justifying:
            if _try(game, MeldTiles(ids), log):
                if _ends(game):
                    return
                _undo_all(game, log, len(log) - 1)
        _undo_all(game, log, mark)


def _opening(game: Game, log: list[str]) -> None:
    """The best first etalare of at most three of the melds the engine lists."""
    from .opening import check_opening

    rules = game.rules
    table = game.state.table
    rack = len(game.state.rack(game.state.current))
    cands = [s for s in game.legal_steps() if isinstance(s, MeldTiles)]
    melds = {s: analyze_meld([table.tile(i) for i in s.tiles], rules) for s in cands}
    cands.sort(key=lambda s: (-melds[s].points, s.tiles))
    cands = cands[:24]
    best: tuple[int, tuple[MeldTiles, ...]] | None = None
    for k in (1, 2, 3):
        for combo in itertools.combinations(cands, k):
            ids = [i for s in combo for i in s.tiles]
            if len(set(ids)) != len(ids) or rack - len(ids) < 2:
                continue
            try:
                points = check_opening([melds[s] for s in combo], rules)
            except RemiError:
                continue
            if best is None or points > best[0]:
                best = (points, combo)
    if best is None:
        return
    mark = len(log)
    for step in best[1]:
        _try(game, step, log)
    if not _ends(game):
        _undo_all(game, log, mark)


def demo_turn(game: Game) -> list[str]:
    """Play the current seat's turn with the demo player; return what it did."""
    log: list[str] = []
    _announce(game, log)
    state = game.state
    if state.pending is not None and state.pending.took == "draw":
        log.append("draw")  # made by the engine (Automation.forced_takes)
    if state.phase is Phase.TAKE:
        _take(game, log)
    if game.over:
        return log
    seat = game.state.current
    if not game.state.seats[seat].opened:
        _opening(game, log)
    else:
        mark = len(log)
        for _ in range(30):  # melds, lay-offs, swaps, the most points first
            steps = game.legal_steps()
            if any(isinstance(s, Close) for s in steps):
                break
            melds = [s for s in steps if isinstance(s, MeldTiles)]
            melds.sort(key=lambda m: (-_points(game, m), m.tiles))
            extras = [s for s in steps if isinstance(s, LayOff | SwapJoker)]
            choice = melds[0] if melds else extras[0] if extras else None
            if choice is None or not _try(game, choice, log):
                break
        if not _ends(game):
            _undo_all(game, log, mark)
    _finish(game, log)
    return log


def play_demo(rules: Ruleset, *, players: int, seed: int, lang: str, out: TextIO) -> int:
    """Play and print one round (``remi-rules demo``)."""
    game = Game.new(rules, players, seed=seed, automation=Automation.all())
    state = game.state
    out.write(
        f"Remi etalat, {players} players, seed {seed}, rules fingerprint "
        f"{rules.fingerprint()}\n"
        f"atu {tile_of(state.atu)}; seat {state.starter} starts\n"
    )
    while not game.over:
        seat = game.state.current
        turn = game.state.turn
        did = demo_turn(game)
        left = len(game.state.seats[seat].rack)
        out.write(f"T{turn:<3} seat {seat}: {' · '.join(did)}  [{left} left]\n")
    end = game.state.end
    assert end is not None
    out.write(f"\nround over: {end.reason.value}")
    if end.closer is not None and end.closing_tile is not None:
        out.write(f", seat {end.closer} closed with {tile_of(end.closing_tile)}")
    out.write("\n\ntable:\n")
    for index, meld in enumerate(game.state.table.melds):
        out.write(f"  {index:>2} seat {meld.owner}: {_t(list(meld.ids))}\n")
    result = game.result()
    assert result is not None
    out.write("\nscore:\n")
    for s in result.seats:
        penalty = f" penalty -{s.flat_penalty.points}" if s.flat_penalty else ""
        out.write(
            f"  seat {s.seat}: melded {s.melded} + credits {s.credits} - rack {s.rack}"
            f" + closing {s.closing_bonus} + atu {s.atu_bonus}{penalty}"
            f" x{s.multiplier} = {s.total}\n"
        )
    out.write(f"winner(s): {', '.join(f'seat {w}' for w in result.winners)}\n")
    del lang
    return 0
