"""What a :class:`~remi_rules.engine.Game` keeps of its past, beside its steps: the
chance outcomes it records, the chance of a replayed game, and what an undo reverses
(:class:`~remi_rules.engine.events.StepUndone`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .events import StepUndone
from .state import GameState, evolve_seat, evolve_state, evolve_turn
from .steps import Step
from .transition import Chance, RandomChance, ScriptedChance


class _RecordingChance:
    def __init__(self, inner: Chance, log: list[tuple[int, ...]]) -> None:
        self.inner = inner
        self.log = log

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        out = self.inner.shuffle(ids)
        self.log.append(out)
        return out


class _ReplayChance:
    """The chance of a replayed game: while :meth:`Game.replay` applies the record's
    steps, the recorded outcomes strictly (:class:`ScriptedChance`: a missing or wrong
    one is ``state_bad_record``); once it has (``live``), the game goes on like a live
    one: the outcomes left in the record (those of its steps after ``upto``, for a
    caller re-applying them), as long as each is a permutation of the tiles shuffled,
    then shuffles by ``rng``."""

    def __init__(self, outcomes: Sequence[tuple[int, ...]], rng: random.Random) -> None:
        self.scripted = ScriptedChance(list(outcomes))
        self.random = RandomChance(rng)
        self.live = False

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        scripted = self.scripted
        if not self.live:
            return scripted.shuffle(ids)
        if scripted.position < len(scripted.outcomes):
            if sorted(scripted.outcomes[scripted.position]) == sorted(ids):
                return scripted.shuffle(ids)
            scripted.position = len(scripted.outcomes)  # the game went another way
        return self.random.shuffle(ids)


def _random_of(seed: object) -> random.Random:
    """The generator of a replayed or loaded game's future chance: ``seed`` an int or
    a str (``random.Random(seed)``), a :class:`random.Random` (used as it is, and
    advanced), or None for fresh randomness from the operating system
    (``random.Random()`` seeds itself from ``os.urandom``).  Anything else is a
    :class:`TypeError`."""
    if seed is None:
        return random.Random()
    if isinstance(seed, random.Random):
        return seed
    if isinstance(seed, int | str) and not isinstance(seed, bool):
        return random.Random(seed)
    raise TypeError(f"seed must be an int, a str or a random.Random, not {type(seed).__name__}")


def _back_to(before: GameState, current: GameState) -> GameState:
    """The state an undo from ``current`` goes back to: ``before``, the state before
    the undone step, except that what the turn's first step closed stays closed
    (ANNOUNCE-02: a missed announcement; CLOSE-06: the pe-tablă window) and the turn's
    step counter keeps counting.  It shares every value it does not change with
    ``before`` (which lets the game reuse ``before``'s lists:
    :func:`~remi_rules.engine._listed.same_steps`)."""
    turn = before.pending
    assert turn is not None and current.pending is not None
    seats = before.seats
    if any(
        old.missed_announcement != now.missed_announcement
        for old, now in zip(seats, current.seats, strict=True)
    ):
        seats = tuple(
            evolve_seat(old, missed_announcement=now.missed_announcement)
            for old, now in zip(seats, current.seats, strict=True)
        )
    return evolve_state(
        before,
        announce_window=current.announce_window,
        seats=seats,
        pending=evolve_turn(turn, steps=current.pending.steps),
    )


def _undone(step: Step, current: GameState, after: GameState) -> StepUndone:
    """The :class:`StepUndone` of going back from ``current`` to ``after``."""
    seat = current.current
    now, then = current.seats[seat].rack, after.seats[seat].rack
    had, has, row_now = set(now), set(then), set(current.row)
    kept = len(after.table.melds)
    return StepUndone(
        step,
        seat,
        to_rack=tuple(i for i in then if i not in had),
        from_rack=tuple(i for i in now if i not in has),
        to_row=tuple(i for i in after.row if i not in row_now),
        melds_removed=tuple(range(kept, len(current.table.melds))),
        atu_returned=after.atu_face_up and not current.atu_face_up,
    )
