"""The fast melding bot (:class:`FastBot`): a rule-of-thumb player that plans a whole
turn in well under a millisecond, from its seat's view alone.

How a turn is planned (docs/solver.md, "The fast bot"):

* the position is rebuilt from the :class:`~remi_rules.engine.PlayerView` with
  :meth:`~remi_rules.engine.PlayerView.sample_state` (the hidden tiles dealt anyhow:
  nothing the seat does in its own turn depends on them), and every step of the
  plan is played out on it with the engine's own
  :func:`~remi_rules.engine.transition.apply_step`, so only steps the engine accepts
  are sent, and a plan that fails part-way is dropped without a step being taken back;
* the take: the last discard or an older row tile (rupere, at most three tiles deep
  while the stock lasts) when it completes a meld with tiles of the rack and the
  whole turn after it plays out (an unopened seat only when it opens with it); the
  atu in its closing turn; else a draw;
* the melds: the rack as tile codes, its runs and sets (:mod:`remi_rules._fast_melds`)
  and a small depth-first search for disjoint melds (most tiles, fewest jokers, most
  points; an opening must reach the ruleset's minimum and composition);
* then joker swaps with the exact tile, lay-offs where a cheap test on a meld's ends
  says a tile fits, a close with the last tile (a joker where one can be laid off
  first), else the discard of the least useful tile (fewest partners, highest value,
  never a free joker while another tile will do);
* out of turn (:meth:`FastBot.react`): it announces the atu's twin and few tiles, and
  in clasic it declares pe tablă, half the time, with a hand its search nearly melds
  in the first round of turns (then it only tries to close pe tablă).

The rest of the turn after the take is :mod:`remi_rules._fast_turn`'s.  A turn's plan
is kept while the position is the one the plan expects (the turn, the step count and
the rack); a view it did not expect is planned afresh.  A turn the fast plans cannot
end (a take forced by an empty stock that a joker must justify) is played as
:func:`~remi_rules.hint` proposes.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from ._fast_melds import (
    CODE,
    EXACT,
    OPEN,
    Rack,
    Search,
    candidates,
    local_fit,
    plan_melds,
    uncoverable,
)
from ._fast_turn import Key, Turn, TurnPlayer
from .engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    DeclarePeTabla,
    Draw,
    GameState,
    Phase,
    PlayerView,
    Rupere,
    Step,
    TakeAtu,
    TakeLastDiscard,
    Undo,
    legal_steps,
)
from .engine.transition import NoChance, apply_step
from .errors import HintError, HintErrorCode, IllegalStepError
from .hints import hint
from .ruleset import AtuFaceUpTakeable, StockExhausted

__all__ = ["FastBot"]

RUPERE_DEPTH: Final = 3
"""An older row tile is taken only with at most this many tiles (while the stock lasts)."""
PE_TABLA_RATE: Final = 0.5
"""How often a strong first-round hand declares pe tablă (CLOSE-06)."""
_NO_CHANCE: Final = NoChance()
_TAKE: Final = Phase.TAKE
_OVER: Final = Phase.OVER
_DRAW: Final = Draw()
_RESHUFFLE: Final = StockExhausted.RESHUFFLE_DISCARDS


class _Unshuffled(random.Random):
    """Deals the hidden tiles of :meth:`PlayerView.sample_state` in id order: nothing
    the seat does in its own turn depends on where they are, and half the sample's
    cost was the shuffle."""

    def shuffle(self, x: Any) -> None:
        pass


class FastBot:
    """A fast rule-of-thumb melding bot (docs/solver.md, "The fast bot"): it opens as
    soon as its search finds an opening, takes a row tile that completes a meld, melds,
    swaps jokers, lays off, closes when it can and discards its least useful tile.  It
    plays 4–5 times as many rounds a second as :class:`~remi_rules.bots.GreedyBot` and
    scores about 30 points a round less than it; far more than
    :class:`~remi_rules.bots.RandomBot`.  It decides from its seat's view alone and
    sends only steps the engine accepts (each one is played out on the view's
    position first).

    ``seed`` drives its one random choice (whether a strong first-round hand declares
    pe tablă), so a seeded bot is reproducible.  ``stats`` counts what its planning did
    (plans made, searches skipped, plans dropped, steps its play-outs saw refused), for
    the benchmarks.

    >>> from remi_rules import variants
    >>> from remi_rules.engine import Game, play_round
    >>> game = Game.new(variants.get("clasic"), 3, seed=2)
    >>> result = play_round(game, [FastBot(seed=1), FastBot(seed=2), FastBot(seed=3)])
    >>> game.over
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        self.rng = random.Random(seed)
        self.stats: Counter[str] = Counter()
        self._sampler = _Unshuffled(0)
        self._queue: list[tuple[Key, Step]] = []
        self._asked: dict[str, tuple[int, tuple[int, ...]]] = {}
        """Where each out-of-turn step was last considered: the turn and the rack (once
        a turn; the rack tells the rounds of a match apart)."""
        self._player = TurnPlayer(self.stats)

    # -- the protocol ---------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Step:
        """The next step of this seat's turn.  Raises
        :class:`~remi_rules.HintError` (``hint_not_your_turn``, ``hint_round_over``)
        when the view is not of the seat to move, as
        :class:`~remi_rules.bots.GreedyBot` does."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"choose needs a PlayerView, not {type(view).__name__}")
        if view.phase is _OVER:
            raise HintError(HintErrorCode.ROUND_OVER)
        own = view.own_turn
        if view.current != view.seat or own is None:
            raise HintError(HintErrorCode.NOT_YOUR_TURN, seat=view.seat)
        queue = self._queue
        if queue and queue[0][0] == (view.turn, own.steps, view.rack):
            return queue.pop(0)[1]
        self.stats["plans"] += 1
        if view.phase is _TAKE and not (own.number == 1 and own.took is None):
            turn = self._take(view)
            if turn is None:
                queue.clear()
                return _DRAW
        else:
            turn = Turn(self._sample(view), view.seat, self.stats)
            self._player.act(turn, None)
        if not turn.ended:
            hinted = self._hinted(view)
            if hinted is None:
                queue.clear()
                return _DRAW
            if hinted.ended or not turn.steps:
                turn = hinted
        if not turn.steps:
            queue.clear()
            return self._last_resort(turn)
        self._queue = list(zip(turn.keys[1:], turn.steps[1:], strict=True))
        return turn.steps[0]

    def react(self, view: PlayerView) -> Step | None:
        """An out-of-turn step, or None: few tiles when this seat's window is open
        (ANNOUNCE-02, where the rules do not announce by themselves), the atu's twin
        before the first take (ATU-02), and pe tablă at the start of a first-round turn
        with a strong hand (CLOSE-06, half the time).  Each is checked with the
        engine's transition before it is returned."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"react needs a PlayerView, not {type(view).__name__}")
        if view.phase is _OVER:
            return None
        seat = view.seat
        rules = view.rules
        me = view.seats[seat]
        if (
            view.announce_window == seat
            and not me.announced_few
            and not rules.announce_automatic
            and self._once("few", view)
        ):
            return self._checked(view, AnnounceFewTiles(seat))
        if (
            not me.has_taken
            and not me.announced_atu
            and view.atu ^ 1 in view.rack
            and self._once("atu", view)
        ):
            step = self._checked(view, AnnounceAtu(seat))
            if step is not None:
                return step
        own = view.own_turn
        if (
            rules.pe_tabla_enabled
            and own is not None
            and view.phase is _TAKE
            and own.took is None
            and own.steps == 0
            and view.turn <= view.players + 1
            and not me.declared_pe_tabla
            and not me.opened
            and self._once("pe_tabla", view)
            and self._strong_hand(view)
        ):
            return self._checked(view, DeclarePeTabla(seat))
        return None

    # -- helpers ----------------------------------------------------------------------------

    def _sample(self, view: PlayerView) -> GameState:
        return view.sample_state(self._sampler)

    def _once(self, what: str, view: PlayerView) -> bool:
        """True the first time ``what`` is considered in this turn of the round."""
        at = (view.turn, view.rack)
        if self._asked.get(what) == at:
            return False
        self._asked[what] = at
        return True

    def _checked(self, view: PlayerView, step: Step) -> Step | None:
        try:
            apply_step(self._sample(view), step, _NO_CHANCE)
        except IllegalStepError as err:
            self.stats[f"probe_refused:{step.kind}:{err.code}"] += 1
            return None
        return step

    def _strong_hand(self, view: PlayerView) -> bool:
        """CLOSE-06: half the time, a hand whose opening search leaves at most 5 tiles."""
        if self.rng.random() >= PE_TABLA_RATE:
            return False
        rack = view.rack
        r = Rack(rack, view.table)
        cands = candidates(r.cnt, len(r.jokers), view.rules)
        if uncoverable(cands, r.cnt) > 5:
            return False
        best = Search(cands, r.cnt, len(r.jokers), len(rack), view.rules, OPEN).best
        return best is not None and len(rack) - best[0][0] <= 5

    def _hinted(self, view: PlayerView) -> Turn | None:
        """The turn :func:`~remi_rules.hint` proposes, played out (None: a draw): for
        the rare turns the fast plans cannot end, such as a take forced by an empty
        stock that a joker or a long rupere must justify."""
        self.stats["hint_fallbacks"] += 1
        steps = [s for s in hint(view, samples=0).steps if s.in_turn]
        if steps and isinstance(steps[0], Draw):
            return None
        turn = Turn(self._sample(view), view.seat, self.stats)
        for step in steps:
            if not turn.do(step):
                break
        return turn

    def _last_resort(self, turn: Turn) -> Step:
        """A step when no plan played out: the first legal step of this seat's turn, or
        an undo (a turn that cannot end as it stands)."""
        self.stats["no_plan"] += 1
        for step in legal_steps(turn.state):
            if step.in_turn:
                return step
        return Undo()

    # -- the take -------------------------------------------------------------------------

    def _take(self, view: PlayerView) -> Turn | None:
        """A take from the row or of the atu played out with the whole turn after it,
        or None for a draw (or, when the stock cannot be drawn from, whatever turn the
        legal takes allow)."""
        rules = view.rules
        me = view.seats[view.seat]
        rack = view.rack
        n = len(rack)
        row = view.row
        first_turn = me.turns == 1 and rules.first_turn_no_meld
        declared = me.declared_pe_tabla and rules.pe_tabla_enabled
        can_draw = view.stock_count > 0 or (rules.stock_exhausted is _RESHUFFLE and len(row) >= 2)
        options: list[tuple[Step, int]] = []
        if row and not first_turn and n >= rules.take_last_discard_min_rack:
            options.append((TakeLastDiscard(), len(row) - 1))
        if (
            row
            and not first_turn
            and not declared
            and rules.rupere_anywhere
            and (me.opened or not rules.rupere_anywhere_requires_opened)
            and n >= rules.rupere_anywhere_min_rack
        ):
            lo = 1 if view.row_dead_first and rules.first_discard_dead else 0
            depth = len(row) if not can_draw else RUPERE_DEPTH
            for index in range(len(row) - 2, max(lo, len(row) - depth) - 1, -1):
                options.append((Rupere(index), index))
        table = view.table
        state: GameState | None = None
        if options:
            r = Rack(rack, table)
            for step, index in options:
                picked = row[index]
                if picked >= 104 or not local_fit(CODE[picked], r.cnt, len(r.jokers), rules):
                    continue
                plan = self._player.plan_take(
                    rack, row[index:], picked, me.opened, declared, table, rules
                )
                if plan is None:
                    continue
                state = state or self._sample(view)
                turn = Turn(state, view.seat, self.stats)
                if turn.do(step):
                    self._player.act(turn, plan)
                    if turn.ended:
                        return turn
                self.stats["take_dropped"] += 1
        atu = view.atu
        if (
            view.atu_face_up
            and rules.atu_face_up_takeable is AtuFaceUpTakeable.CLOSING_TURN_ONLY
            and me.opened
            and not first_turn
            and n <= 6
            and atu < 104
        ):
            r = Rack(rack, table)
            if local_fit(CODE[atu], r.cnt, len(r.jokers), rules):
                after = Rack((*rack, atu), table)
                plan, _ = plan_melds(after, table, rules, cap=n, mode=EXACT, picked=atu, own=rack)
                if plan is not None:
                    state = state or self._sample(view)
                    turn = Turn(state, view.seat, self.stats)
                    if turn.do(TakeAtu()):
                        self._player.act(turn, plan)
                        if turn.ended:
                            self.stats["take_atu_planned"] += 1
                            return turn
        if can_draw:
            return None
        return self._forced_take(self._sample(view), view.seat)

    def _forced_take(self, state: GameState, seat: int) -> Turn:
        """No draw: each legal take, played out with the turn after it; the first whose
        turn ends."""
        self.stats["forced_take"] += 1
        turn = Turn(state, seat, self.stats)
        for step in legal_steps(state):
            if step.take is None or not step.in_turn:
                continue
            turn = Turn(state, seat, self.stats)
            if turn.do(step):
                self._player.act(turn, None)
                if turn.ended:
                    return turn
        return turn
