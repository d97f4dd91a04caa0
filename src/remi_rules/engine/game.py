"""The :class:`Game`: one round, driven step by step, with its history.

>>> from remi_rules import variants
>>> from remi_rules.engine import Game, Discard
>>> game = Game.new(variants.get("clasic"), 4, seed=7, starter=0)
>>> game.state.current, game.state.phase.value, len(game.state.rack(0))
(0, 'action', 15)
>>> first = game.state.rack(0)[0]
>>> [e.kind for e in game.apply(Discard(first))]
['discarded', 'turn_started']
>>> game.state.current, game.state.phase.value
(1, 'take')
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

import attrs

from .._slots import maker
from ..errors import (
    EngineArgumentError,
    EngineErrorCode,
    IllegalStepError,
    InvalidStateError,
    StateErrorCode,
    StepErrorCode,
)
from ..ruleset import Ruleset, require_ruleset
from ..scoring import RoundResult
from ._finish import finishable_after
from ._history import _back_to, _random_of, _RecordingChance, _ReplayChance, _undone
from ._listed import Listed
from ._typed import check_players
from ._undo import (
    past_cap_refusal,
    sender_of,
    steps_with_undo,
    undo_refusal,
)
from .automation import Automation, check_automation
from .events import Announced, DealerChosen, Event, RoundScored
from .record import GameRecord, score_state
from .state import MAX_UNDOS_PER_TURN, GameState, Phase, UndoInfo
from .steps import (
    AnnounceFewTiles,
    Close,
    DemandRedeal,
    Discard,
    Draw,
    Step,
    Undo,
    _Step,
)
from .transition import Chance, NoChance, RandomChance, apply_listed, apply_step
from .transition import deal as deal_tiles
from .view import PlayerView

__all__ = ["MAX_UNDOS_PER_TURN", "Game"]

_OVER = Phase.OVER
_make_undo_info = maker(UndoInfo, trusted=True)


class Game:
    """One round of Remi: a :class:`GameState` plus its history (for :meth:`undo`,
    :meth:`record` and :meth:`replay`).

    Every operation on steps comes as a triplet: :meth:`verify` raises
    :class:`~remi_rules.IllegalStepError`, :meth:`can` returns a bool, :meth:`apply`
    verifies and applies, returning the events.  A refused step changes nothing.
    """

    def __init__(
        self,
        state: GameState,
        *,
        record: GameRecord,
        chance: Chance,
        automation: Automation | None = None,
        names: tuple[str, ...] | None = None,
    ) -> None:
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a GameState, not {type(state).__name__}")
        if not isinstance(record, GameRecord):
            raise TypeError(f"record must be a GameRecord, not {type(record).__name__}")
        if not callable(getattr(chance, "shuffle", None)):
            raise TypeError(f"chance must have a shuffle method, not {type(chance).__name__}")
        if names is not None and (
            not isinstance(names, tuple)
            or len(names) != state.players
            or not all(isinstance(n, str) for n in names)
        ):
            raise TypeError(f"names must be a tuple of {state.players} strings, not {names!r}")
        self._state = state
        self._listed = Listed(state)
        """The steps listed for :attr:`state` so far (:mod:`~remi_rules.engine._listed`):
        a new one with every new state, or the lists of the state an undo goes back to."""
        self._record = record
        self._steps: list[Step] = list(record.steps)
        self._chance_log: list[tuple[int, ...]] = list(record.chance)
        self._chance = _RecordingChance(chance, self._chance_log)
        self._undo: list[tuple[GameState, Step, int, Listed]] = []
        """Per step :class:`Undo` may take back: the state before it (and its
        :class:`Listed`), the step, and its place in the record."""
        # (the turn, its undos so far) for MAX_UNDOS_PER_TURN, counted from the record
        # back to the last end of a turn (a game rebuilt around a loaded state)
        undos = 0
        for done in reversed(self._steps):
            if isinstance(done, Undo):
                undos += 1
            elif isinstance(done, Discard | Close | DemandRedeal):
                break
        self._undone = (state.turn, undos)
        self._rescue = 0
        """Past the cap, an undo may take back the steps below this depth of ``_undo``
        (those made before the cap was reached), and only from a turn that cannot end."""
        self._finish_memo: tuple[tuple[int, int], dict[Hashable, bool]] = ((0, -1), {})
        """The positions of the pending turn the finishable search has judged, for
        ``(turn, seat)`` (:meth:`_memo`): the same positions come back within a turn
        (the legal steps, then the step applied, an undo), and a position's answer
        depends only on the turn."""
        self.automation = check_automation(automation) or Automation()
        self.names = names or tuple(f"seat {s}" for s in range(state.players))
        self.deal_events: tuple[Event, ...] = ()
        """The events of the deal (the chance events :class:`DealerChosen`,
        :class:`Dealt`, :class:`AtuReturned`, then the first :class:`TurnStarted`)."""
        self._events: list[Event] = []

    # -- construction --------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Ruleset,
        players: int | Sequence[str],
        *,
        seed: int | str | None = None,
        deal: Sequence[int] | None = None,
        automation: Automation | None = None,
        starter: int | None = None,
    ) -> Game:
        """Deal a new round.

        ``players``: 2, 3 or 4, or the players' names.  ``deal``: the 106 ids in
        order (racks of seats 0, 1, …, the starter's holding ``hand_sizes[0]``; the
        atu; the stock, top first), for tournaments, tests and bug reports; without
        it, a uniform shuffle by ``random.Random(seed)`` (DEAL-05).  ``starter``: the
        seat that starts; without it the first dealer is drawn at random (DEAL-01) and
        the starter is the next seat (with an explicit ``deal``, seat 0 starts).

        A wrong type raises :class:`TypeError`; a number of players other than 2-4 or
        a starter not at the table :class:`~remi_rules.errors.EngineArgumentError`
        (``engine_players``, ``engine_bad_seat``); a deal that is not the 106 ids
        :class:`~remi_rules.InvalidStateError` (``state_tile_count``).
        """
        rules = require_ruleset(rules)
        n = check_players(players)
        check_automation(automation)
        if seed is not None and not isinstance(seed, int | str | bytes):
            raise TypeError(f"seed must be an int, a str or None, not {type(seed).__name__}")
        names = tuple(players) if not isinstance(players, int) else None
        rng = random.Random(seed)
        log: list[tuple[int, ...]] = []
        chance = _RecordingChance(RandomChance(rng), log)
        events: list[Event] = []
        if starter is None:
            starter = (rng.randrange(n) + 1) % n if deal is None else 0
        if type(starter) is not int:
            raise TypeError(f"starter must be a seat number (int), not {type(starter).__name__}")
        if not 0 <= starter < n:
            raise EngineArgumentError(EngineErrorCode.BAD_SEAT, seat=starter, players=n)
        dealer = (starter - 1) % n
        events.append(DealerChosen(dealer))
        if deal is None:
            order = list(range(106))
            rng.shuffle(order)
        else:
            if isinstance(deal, str | bytes) or not isinstance(deal, Sequence):
                raise TypeError(f"deal must be a sequence of 106 ids, not {type(deal).__name__}")
            order = list(deal)
            if any(type(i) is not int for i in order):
                raise TypeError("a deal holds tile ids (ints)")
            if sorted(order) != list(range(106)) or any(type(i) is not int for i in order):
                raise InvalidStateError(StateErrorCode.TILE_COUNT, why="deal_not_permutation")
        state, dealt = deal_tiles(rules, n, order, dealer=dealer, starter=starter, chance=chance)
        events.extend(dealt)
        record = GameRecord(
            rules=rules,
            players=n,
            dealer=dealer,
            starter=starter,
            deal=tuple(order),
            chance=tuple(log),
        )
        game = cls(
            state, record=record, chance=RandomChance(rng), automation=automation, names=names
        )
        game.deal_events = (*events, *game._run_automation())
        game._events = list(game.deal_events)
        return game

    @classmethod
    def replay(
        cls,
        record: GameRecord,
        *,
        upto: int | None = None,
        seed: int | str | random.Random | None = None,
    ) -> Game:
        """Rebuild a round from its record, applying its steps (the first ``upto`` of
        them) with the recorded chance outcomes, and no others.  Raises
        :class:`~remi_rules.InvalidStateError` (``state_bad_record``) naming the step
        that does not apply or the chance outcome that is missing or wrong.

        The game then goes on like a live one (an online reshuffle, a redeal): its
        future chance comes first from the record's outcomes not used yet (those of
        the steps after ``upto``, so that re-applying them replays them exactly), then
        from ``seed``: an int or a str (``random.Random(seed)``), a
        :class:`random.Random` (used and advanced), or None, the default, for fresh
        randomness from the operating system.  The seed is never recorded: the record
        holds the outcomes, never what could predict the next ones.  A ``record``
        that is no :class:`GameRecord`, or an ``upto`` that is no int, is a
        :class:`TypeError`."""
        if not isinstance(record, GameRecord):
            raise TypeError(f"record must be a GameRecord, not {type(record).__name__}")
        if upto is not None and (type(upto) is not int):
            raise TypeError(f"upto must be an int or None, not {type(upto).__name__}")
        rng = _random_of(seed)
        chance = _ReplayChance(record.chance, rng)
        scripted = chance.scripted
        state, dealt = deal_tiles(
            record.rules,
            record.players,
            record.deal,
            dealer=record.dealer,
            starter=record.starter,
            chance=scripted,
        )
        base = GameRecord(
            rules=record.rules,
            players=record.players,
            dealer=record.dealer,
            starter=record.starter,
            deal=record.deal,
            chance=tuple(record.chance[: scripted.position]),
        )
        game = cls(state, record=base, chance=chance)
        game.deal_events = (DealerChosen(record.dealer), *dealt)
        game._events = list(game.deal_events)
        steps = record.steps if upto is None else record.steps[:upto]
        for k, step in enumerate(steps):
            try:
                game.apply(step)
            except IllegalStepError as err:
                raise InvalidStateError(
                    StateErrorCode.BAD_RECORD,
                    path=f"record.steps[{k}]",
                    why="step_refused",
                    cause=err,
                    step_code=err.code.value,
                ) from err
        chance.live = True
        return game

    # -- queries ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def rules(self) -> Ruleset:
        return self._state.rules

    @property
    def over(self) -> bool:
        return self._state.phase is _OVER

    def record(self) -> GameRecord:
        """The record of the round so far (see :meth:`replay`)."""
        return attrs.evolve(self._record, steps=tuple(self._steps), chance=tuple(self._chance_log))

    def result(self) -> RoundResult | None:
        """The scored round once it is over (:func:`score_state`), else None."""
        return score_state(self._state) if self._state.end is not None else None

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event of the round so far, in order (the deal's first), as the engine
        made them: the server's own log.  What a seat may be sent is
        :meth:`events_for`."""
        return tuple(self._events)

    def events_for(self, seat: int | None) -> tuple[Event, ...]:
        """:attr:`events` as ``seat`` may see them (``None``: a spectator): each
        :meth:`~remi_rules.engine.events.Dealt.seen_by` that seat, so that no tile id
        hidden from it is named (docs/protocol.md).  A seat not at the table raises
        :class:`~remi_rules.errors.EngineArgumentError` (``engine_bad_seat``)."""
        if seat is not None:
            self._seat_arg(seat)
        return tuple(event.seen_by(seat) for event in self._events)

    def _seat_arg(self, seat: object) -> int:
        if type(seat) is not int:
            raise TypeError(f"seat must be a seat number (int), not {type(seat).__name__}")
        if not 0 <= seat < self._state.players:
            raise EngineArgumentError(
                EngineErrorCode.BAD_SEAT, seat=seat, players=self._state.players
            )
        return seat

    def sender(self, step: Step) -> int:
        """The seat that may send ``step`` now: the player whose turn it is for a step
        of the turn (and :class:`Undo`), the step's own ``seat`` for the steps made out
        of turn (announcements, declarations, the pre-play steps)."""
        if not isinstance(step, _Step):
            raise TypeError(f"step must be a Step, not {type(step).__name__}")
        return sender_of(self._state, step)

    def _check_sender(self, step: Step, seat: int | None) -> None:
        if seat is None:
            return
        seat = self._seat_arg(seat)
        owner = self.sender(step)
        if owner != seat:
            raise IllegalStepError(
                StepErrorCode.NOT_YOUR_STEP, step=step.kind, seat=seat, owner=owner
            )

    def legal_steps(self, seat: int | None = None, *, finishable: bool = False) -> tuple[Step, ...]:
        """Every step legal now (melds the player can form included, each choice once:
        see :func:`~remi_rules.engine.legal.canonical_step`), with :class:`Undo` when
        the pending turn has a step to take back and has not made
        :data:`MAX_UNDOS_PER_TURN` undos yet (past the cap, the steps after which the
        turn could no longer end are refused: :meth:`is_finishable`).

        With ``seat``: only the steps that seat may send (:meth:`sender`), and only
        those that name no tile hidden from it, so that the list can be sent to that
        seat as it is; :meth:`PlayerView.legal_steps
        <remi_rules.engine.view.PlayerView.legal_steps>` gives the same list from the
        seat's view alone.  A doubles exchange names a tile of the other seat's rack,
        so it is in the list for all seats only (docs/protocol.md).  With
        ``finishable``: only the steps after which the turn can still end
        (:meth:`is_finishable`)."""
        if seat is not None:
            seat = self._seat_arg(seat)
        if type(finishable) is not bool:
            raise TypeError(f"finishable must be a bool, not {type(finishable).__name__}")
        listed = self._listed
        steps = steps_with_undo(
            self._state,
            self.undo_info(),
            seat=seat,
            finishable=finishable,
            memo=self._memo(),
            listed=listed.steps(seat),
        )
        listed.given[seat, finishable] = steps
        return steps

    def _memo(self) -> dict[Hashable, bool]:
        """The finishable search's memo of the pending turn (a new one for a new turn)."""
        key = (self._state.turn, self._state.current)
        if self._finish_memo[0] != key:
            self._finish_memo = (key, {})
        return self._finish_memo[1]

    def undo_info(self) -> UndoInfo:
        """What :class:`Undo` may still do in the pending turn (public: a
        :class:`~remi_rules.engine.view.PlayerView` carries it)."""
        if self._state.phase is Phase.OVER:
            return UndoInfo()
        turn, count = self._undone
        undos = count if turn == self._state.turn else 0
        rescue = self._rescue if undos >= MAX_UNDOS_PER_TURN else 0
        return _make_undo_info(len(self._undo), undos, rescue)

    def is_finishable(self, step: Step, *, seat: int | None = None) -> bool:
        """Whether ``step`` is legal now (:meth:`can`, with ``seat`` as there) and the
        pending turn can still end legally after it, by steps forward: the take's
        obligation (RUPE-01/06/08, ATU-06), the opening (OPEN-02/03/06, OPEN-08), the
        swapped joker (JOLY-04), the tiles that must stay on the rack (TURN-07), a
        pe-tablă declarer's close (CLOSE-06) and the rack cap (TURN-10) can all still
        be met.  A step that ends the turn, and another seat's announcement, is
        finishable when it is legal; a :class:`Draw` when the turn can end whatever
        tile it brings; :class:`Undo` when it is legal (it goes back to a position of
        the turn, and a player who made only finishable steps only goes back to
        finishable ones).  Exact: the solver searches the rest of the turn
        (docs/engine.md, "Finishable steps")."""
        if not self.can(step, seat=seat):
            return False
        if isinstance(step, Undo):
            return True
        return finishable_after(self._state, step, self._memo())

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see (:class:`~remi_rules.engine.view.PlayerView`), with what
        :class:`Undo` may still do (:meth:`undo_info`); a seat not at the table raises
        :class:`~remi_rules.errors.EngineArgumentError` (``engine_bad_seat``)."""
        return PlayerView.of(self._state, seat, self.undo_info())

    # -- the triplet -------------------------------------------------------------------------

    def verify(self, step: Step, *, seat: int | None = None) -> None:
        """Raise :class:`~remi_rules.IllegalStepError` unless ``step`` is legal now
        (:class:`TypeError` for something that is not a step).  With ``seat``, the seat
        that sends it: another seat's step is refused (``not_your_step``)."""
        self._check_sender(step, seat)
        if isinstance(step, Undo):
            self._undo_target(step)
            return
        if not self._undos_left():
            refusal = past_cap_refusal(self._state, self.undo_info(), step, self._memo())
            if refusal is not None:
                raise refusal
        apply_step(self._state, step, NoChance())

    def can(self, step: Step, *, seat: int | None = None) -> bool:
        """:meth:`verify` as a bool."""
        try:
            self.verify(step, seat=seat)
        except IllegalStepError:
            return False
        return True

    def apply(self, step: Step, *, seat: int | None = None) -> tuple[Event, ...]:
        """Verify and apply ``step``; return the events it caused (and those of the
        automatic steps that followed, see :class:`Automation`), which are also added
        to :attr:`events`.  With ``seat``, the seat that sends it: another seat's step
        is refused (``not_your_step``), so a server never hand-codes turn order.  A
        step equal to one of a list :meth:`legal_steps` gave out for this state was
        checked then: the listed step itself is applied (and recorded)."""
        self._check_sender(step, seat)
        events = self._apply(step)
        self._events.extend(events)
        return events

    def _apply(self, step: Step) -> tuple[Event, ...]:
        if isinstance(step, Undo):
            return self._undo_step()
        # a step of a list given out for this state: the engine's own copy, its checks
        # made when it was listed (past the cap too: such a list holds only finishable
        # steps)
        listed = self._listed.find(step)
        if listed is None and not self._undos_left():
            refusal = past_cap_refusal(self._state, self.undo_info(), step, self._memo())
            if refusal is not None:
                raise refusal
        before = self._state
        log_mark = len(self._chance_log)
        try:
            if listed is not None:
                new, events = apply_listed(before, listed, self._chance)
                step = listed
            else:
                new, events = apply_step(before, step, self._chance)
        except BaseException:
            del self._chance_log[log_mark:]
            raise
        before_listed = self._listed
        self._state = new
        # (what is known of the state a listed step leads to: the engine's own steps)
        self._listed = before_listed.then(step, new) if listed is not None else Listed(new)
        self._steps.append(step)
        if step.undoable:
            self._undo.append((before, step, len(self._steps) - 1, before_listed))
        elif step.in_turn:  # a draw or the end of the turn: nothing before it comes back
            self._undo.clear()
        auto = self.automation
        if not (auto.forced_takes or auto.announcements or auto.scoring):
            return events
        return (*events, *self._run_automation(), *self._scored(before))

    def can_undo(self) -> bool:
        """The pending turn has a step :meth:`undo` can take back (and undos left)."""
        return undo_refusal(self._state, self.undo_info()) is None

    def _undos_left(self) -> bool:
        turn, count = self._undone
        return turn != self._state.turn or count < MAX_UNDOS_PER_TURN

    def undo(self) -> tuple[Event, ...]:
        """:meth:`apply` of :class:`Undo`."""
        return self.apply(Undo())

    def _undo_step(self) -> tuple[Event, ...]:
        """Take back the last step of the pending turn (a take from the row or of the
        atu, a meld, a lay-off or a swap).  A draw revealed a tile and cannot be taken
        back; a turn that has ended cannot be reopened.  The state becomes the one
        before that step, except that the windows the turn's first step closed stay
        closed (a missed announcement, the pe-tablă declaration) and the turn's step
        counter keeps counting.  A turn makes at most :data:`MAX_UNDOS_PER_TURN` undos
        (then ``undo_limit``)."""
        before, step, k, listed = self._undo_target(Undo())
        current = self._state
        state = _back_to(before, current)
        # the steps made since by other seats (announcements) stand: re-apply them
        later = [s for s in self._steps[k + 1 :] if not s.in_turn]
        for other in later:
            # One the undone step made possible goes with it (an atu announcement
            # after taking the atu's twin from the row: atu_twin_not_held).
            try:
                state, _ = apply_step(state, other, NoChance())
            except IllegalStepError:
                continue
        self._undo.pop()
        undone_in, count = self._undone
        self._undone = (state.turn, count + 1 if undone_in == state.turn else 1)
        if not self._undos_left():  # at the cap, or a rescue past it (_undo.can_rescue)
            self._rescue = len(self._undo)
        self._state = state
        # the lists of the state before the undone step, where they are the same
        self._listed = Listed.back(state, listed)
        self._steps.append(Undo())
        return (_undone(step, current, state),)

    def _undo_target(self, step: Undo) -> tuple[GameState, Step, int, Listed]:
        refusal = undo_refusal(self._state, self.undo_info())
        if refusal is not None:
            raise refusal
        return self._undo[-1]

    # -- automation ----------------------------------------------------------------------

    def _scored(self, before: GameState) -> tuple[Event, ...]:
        if self.automation.scoring and before.phase is not Phase.OVER and self.over:
            result = self.result()
            assert result is not None
            return (RoundScored(result.totals, result.winners),)
        return ()

    def _run_automation(self) -> tuple[Event, ...]:
        auto = self.automation
        out: list[Event] = []
        for _ in range(2 * self._state.players + 2):
            state = self._state
            if state.phase is Phase.OVER:
                break
            step: Step | None = None
            window = state.announce_window
            if (
                auto.announcements
                and state.rules.announce_automatic
                and window is not None
                and not state.seats[window].announced_few
            ):
                step = AnnounceFewTiles(window)
            elif (
                auto.forced_takes
                and state.phase is Phase.TAKE
                and (window is None or state.seats[window].announced_few)
                and self._only_draw()
            ):
                step = Draw()
            if step is None:
                break
            new, events = apply_step(state, step, self._chance)
            self._state = new
            self._listed = Listed(new)
            self._steps.append(step)
            if step.in_turn:
                self._undo.clear()
            out.extend(
                attrs.evolve(e, automatic=True) if isinstance(e, Announced) else e for e in events
            )
        return tuple(out)

    def _only_draw(self) -> bool:
        steps = self._listed.steps(None)
        seat = self._state.current
        for step in steps:
            if isinstance(step, Draw):
                continue
            if step.in_turn or getattr(step, "seat", None) == seat:
                return False
        return any(isinstance(s, Draw) for s in steps)
