"""What ``bench_engine.py`` counts and checks in a round: the step kinds it must see
(:data:`REQUIRED_KINDS`), a :class:`Tally` per preset, and :class:`CheckedGame`, a
``Game`` that times, counts and (optionally) checks every step applied to it against
the engine's one checker (``state_problems``) and ``legal_steps()``."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from remi_rules.engine import (
    EndReason,
    Event,
    Game,
    GameState,
    LayOff,
    MeldTiles,
    Step,
    canonical_step,
    state_problems,
)
from remi_rules.engine.events import RoundEnded, StockReshuffled
from remi_rules.errors import IllegalStepError
from remi_rules.ruleset import Ruleset, StockExhausted

__all__ = ["COUNTS", "NOT_APPLICABLE", "REQUIRED_KINDS", "CheckedGame", "Tally", "check", "count"]

_clock = time.perf_counter  # cheap (60 ns; process_time is a 2 us system call here)

# The step kinds the benchmark must see at least once, and the presets where they
# cannot happen at all (so their absence there is not a coverage gap).
REQUIRED_KINDS: tuple[str, ...] = ("opening", "rupere", "lay_off_other", "swap_joker")
REQUIRED_KINDS += ("joker_close", "declare_pe_tabla", "stock_exhausted", "stock_reshuffled")
NOT_APPLICABLE: dict[str, Callable[[Ruleset], bool]] = {
    "declare_pe_tabla": lambda r: not r.pe_tabla_enabled,
    "stock_exhausted": lambda r: r.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS,
    "stock_reshuffled": lambda r: r.stock_exhausted is not StockExhausted.RESHUFFLE_DISCARDS,
}
COUNTS: tuple[str, ...] = ("invariant_breaches", "stuck_rounds", "scoring_errors", "replays")
COUNTS += ("replay_mismatches", "audited_steps", "legal_steps_disagreements")


class Tally:
    """What the rounds of one preset did: ``n`` counts rounds, steps, turns and the
    :data:`COUNTS`; ``bot`` adds up the bots' own counts (``FastBot.stats``)."""

    def __init__(self) -> None:
        self.n: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()
        self.ends: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.bot: Counter[str] = Counter()
        self.examples: list[str] = []
        self.engine_s = 0.0  # wall time inside Game.new and Game.apply

    def note(self, count: str, text: str) -> None:
        self.n[count] += 1
        if len(self.examples) < 8:
            self.examples.append(f"{count}: {text}")


def _norm(step: Step, state: GameState | None = None) -> object:
    """A step as legal_steps() lists it (canonical copies; a set's tiles in any order)."""
    if state is not None:
        step = canonical_step(state, step)
    return ("meld", tuple(sorted(step.tiles))) if isinstance(step, MeldTiles) else step


class CheckedGame(Game):
    """A round that counts, times and (``checked``) checks every step applied to it, and
    (``audit``) compares each with ``legal_steps()`` both ways."""

    tally: Tally
    checked: bool
    audit: bool

    def apply(self, step: Step, *, seat: int | None = None) -> tuple[Event, ...]:
        tally, before = self.tally, self.state
        legal = {_norm(s) for s in self.legal_steps()} if self.audit else None
        tally.n["audited_steps"] += self.audit
        t0 = _clock()
        try:
            events = super().apply(step, seat=seat)
        except IllegalStepError as err:
            tally.engine_s += _clock() - t0
            tally.refusals[f"{step.kind}:{err.code}"] += 1
            tally.note("refused", f"{step} ({err.code}) turn {before.turn}")
            if legal is not None and _norm(step, before) in legal:
                tally.note("legal_steps_disagreements", f"listed, refused: {step}")
            raise
        tally.engine_s += _clock() - t0
        if legal is not None and _norm(step, before) not in legal:
            tally.note("legal_steps_disagreements", f"applied, not listed: {step}")
        count(tally, step, before, self.state, events)
        if self.checked:
            check(self, tally, f"after {step}")
        return events


def count(tally: Tally, step: Step, before: GameState, after: GameState, events: Any) -> None:
    """The step's kind, and what it did (an opening, a joker close, a reshuffle...)."""
    tally.n["steps"] += 1
    kinds, seat = tally.kinds, before.current
    kinds[step.kind] += 1
    if isinstance(step, LayOff):
        own = before.table.melds[step.meld].owner == seat
        kinds["lay_off_own" if own else "lay_off_other"] += 1
    elif step.kind in ("discard", "close"):
        tally.n["turns"] += 1
        kinds["opening"] += after.seats[seat].opened and not before.seats[seat].opened
    for e in events:
        if isinstance(e, StockReshuffled):
            kinds["stock_reshuffled"] += 1
        elif isinstance(e, RoundEnded):
            kinds[str(e.reason)] += 1
            closed = e.reason is EndReason.CLOSED
            kinds["joker_close"] += closed and e.closing_tile in (104, 105)
            kinds["pe_tabla_close"] += closed and e.pe_tabla


def check(game: Game, tally: Tally, when: str) -> None:
    """The engine's invariants (:func:`~remi_rules.engine.state_problems`) now."""
    for problem in state_problems(game.state):
        tally.note("invariant_breaches", f"{when}: {problem.code.value} at {problem.path}")
