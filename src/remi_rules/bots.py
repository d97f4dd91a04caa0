"""Bots: players the engine drives through the :class:`~remi_rules.engine.Bot` protocol.

The engine defines the protocol (``choose(view) -> step``, and optionally
``react(view) -> step | None`` for the steps a seat makes out of turn) and never
imports this module; the caller passes the bots in (``play_round(game, bots)``).

* :class:`RandomBot` draws and discards a random tile (a random legal take when the
  stock is out), never melding of its own accord: the baseline, and a cheap filler.
* :class:`GreedyBot` plays the turn :func:`~remi_rules.hint` proposes: it opens
  as soon as it can, melds and lays off what it can, swaps jokers, keeps jokers for
  its opening, closes when it can, and discards the tile it is least likely to use;
  out of turn it announces the atu twin and few tiles where that pays.

>>> from remi_rules import variants
>>> from remi_rules.engine import Game, play_round
>>> game = Game.new(variants.get("clasic"), 2, seed=1)
>>> result = play_round(game, [GreedyBot(), RandomBot(seed=1)])
>>> game.over, len(result.seats)
(True, 2)
"""

from __future__ import annotations

import random

from ._fast_bot import FastBot
from ._hint_turn import Planner
from .engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    Discard,
    Draw,
    Phase,
    PlayerView,
    Step,
    Undo,
)
from .hints import hint
from .ruleset import AtuBonusTrigger, StockExhausted

__all__ = ["FastBot", "GreedyBot", "RandomBot"]

_DRAW = Draw()  # steps are immutable values: one of each will do
_UNDO = Undo()
_DISCARDS = tuple(Discard(i) for i in range(106))
_TAKE = Phase.TAKE  # enum members as globals: cheaper on the hot path
_RESHUFFLE = StockExhausted.RESHUFFLE_DISCARDS


def _or_an_end(step: Step, view: PlayerView) -> Step:
    """``step``, unless it is the hint's :class:`Undo` of a turn it found no legal end
    for while the turn can end as it stands (a taken tile kept unmelded declares pe
    tablă under ``take_discard_without_meld_declares_pe_tabla``, a way the hint does
    not plan): then the first legal discard or close.  Taking the turn back would
    only lead to the same take when the stock is out, and the round would not end.
    Where the turn may take back no more steps (the undo cap) and cannot end yet, the
    first listed step of the turn (each one still lets the turn end)."""
    if not isinstance(step, Undo):
        return step
    legal = view.legal_steps()
    for other in legal:
        if isinstance(other, Discard | Close):
            return other
    if step in legal:
        return step
    return next((other for other in legal if other.in_turn), step)


class RandomBot:
    """A random legal turn (seeded, so reproducible): it draws from the stock when it
    can, else it takes a random legal tile from the row and meets what that take
    obliges with the first finished turn the hint's search finds (not the hint's
    best turn); then it discards a uniformly random tile, or closes with its last
    one.  It never melds of its own accord, so it never opens: the
    weakest legal play, a baseline for the other bots and a cheap filler for
    simulations."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._queue: list[Step] = []
        self._at: tuple[int, int] | None = None

    def choose(self, view: PlayerView) -> Step:
        if view.phase is _TAKE:
            if view.stock_count or (
                view.rules.stock_exhausted is _RESHUFFLE and len(view.row) >= 2
            ):
                return _DRAW
            takes = [s for s in view.legal_steps() if s.in_turn]
            return self.rng.choice(takes)
        turn = view.own_turn
        if turn is not None and turn.obligation is not None:
            # A take from the row: only a plan that melds the tile ends the turn.  Any
            # legal one will do, so the first the hint's search finds, not its best
            # (on a rack of 60-70 tiles the best costs hundreds of solver calls).
            # The plan is followed for the rest of the take's obligation.
            at = (view.turn, turn.steps)
            if self._queue and self._at == at:
                self._at = (view.turn, turn.steps + 1)
                return self._queue.pop(0)
            first = Planner(view, 0).first_turn()
            steps: list[Step] = [_UNDO]
            if first is not None:
                steps = [s for s in first.steps if s.in_turn]
            self._queue = steps[1:]
            self._at = (view.turn, turn.steps + 1)
            return _or_an_end(steps[0], view)
        rack = view.rack
        if len(rack) == 1:
            return Close(rack[0])
        return _DISCARDS[self.rng.choice(rack)]


class GreedyBot:
    """The turn of :func:`~remi_rules.hint`, one step at a time.

    ``samples`` is passed to the hint (how many unseen tiles value a draw; 1 keeps
    the bot fast).  A plan made at the take is kept for the rest of the turn unless
    the position is not the one it expected."""

    def __init__(self, *, samples: int = 1) -> None:
        self.samples = samples
        self._queue: list[Step] = []
        self._at: tuple[int, int] | None = None

    @staticmethod
    def _position(view: PlayerView) -> tuple[int, int]:
        steps = view.own_turn.steps if view.own_turn is not None else 0
        return (view.turn, steps)

    def choose(self, view: PlayerView) -> Step:
        if self._queue and self._at == self._position(view):
            step = self._queue.pop(0)
            self._at = (view.turn, self._at[1] + 1)
            return step
        plan = hint(view, samples=self.samples)
        steps = [s for s in plan.steps if s.in_turn] or list(plan.steps)
        if not steps:  # pragma: no cover - the hint always plans a step; be safe anyway
            steps = [s for s in view.legal_steps() if s.in_turn][:1] or [Undo()]
        self._queue = steps[1:]
        self._at = (view.turn, self._position(view)[1] + 1)
        return _or_an_end(steps[0], view)

    def react(self, view: PlayerView) -> Step | None:
        """Announce few tiles when this seat's window is open (ANNOUNCE-02; not where
        the rules announce automatically), and the atu twin before the first take
        where the bonus asks for it (ATU-02)."""
        rules = view.rules
        me = view.seats[view.seat]
        if (
            view.announce_window == view.seat
            and not me.announced_few
            and not rules.announce_automatic
        ):
            return AnnounceFewTiles(view.seat)
        if (
            rules.atu_bonus_trigger is AtuBonusTrigger.ANNOUNCE_AT_START
            and not me.has_taken
            and not me.announced_atu
            and view.atu ^ 1 in view.rack
            and not any(s.announced_atu for s in view.seats)
        ):
            return AnnounceAtu(view.seat)
        return None
