"""Random rounds for the save-and-load property of tests/test_reliability_serde.py:
a cheap random player over :meth:`Game.legal_steps` that melds, lays off, swaps
jokers (and lays them off again), undoes a little, makes out-of-turn steps, and
random accepted house rules.  ``python tests/reliability_play.py`` runs the wide
version by hand (the sizes of :data:`WIDE_SIZES`, or those of the environment:
``REMI_WIDE_EVERY``, ``REMI_WIDE_SAMPLED``, ``REMI_WIDE_HOUSE``, ``REMI_WIDE_SEED``;
``REMI_WIDE_ONLY=rummy45`` runs the jobs of one preset, or ``house``, so that two
processes can share the work; a line every ``REMI_WIDE_CHUNK`` rounds;
``REMI_WIDE_ROUND_LIMIT=S`` stops a round after ``S`` seconds of CPU and lists it as
slow, so that one slow round does not hold up the run)."""

from __future__ import annotations

import enum
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import attrs

from remi_rules import serde, variants
from remi_rules.engine import (
    Close,
    Discard,
    Draw,
    Game,
    Step,
    SwapJoker,
    Undo,
)
from remi_rules.errors import IllegalStepError, InvalidRulesetError, InvalidStateError
from remi_rules.ruleset import Ruleset, knobs

PRESETS = ("clasic", "online", "rummy45")


def random_round(
    game: Game,
    rng: random.Random,
    on_step: Callable[[Game], None],
    *,
    max_steps: int = 1500,
    max_undos: int = 3,
) -> int:
    """Play ``game`` with random legal steps until it ends (or ``max_steps``), calling
    ``on_step(game)`` after each; return the number of steps.  A listed step that
    :meth:`Game.apply` refuses is an engine bug: raised as an AssertionError."""
    turn: tuple[int, int] | None = None
    stack: list[Step] = []
    tabu: set[Step] = set()
    undos = actions = 0
    for n in range(max_steps):
        if game.over:
            return n
        state = game.state
        if (state.turn, state.current) != turn:
            turn, stack, tabu, undos, actions = (state.turn, state.current), [], set(), 0, 0
        legal = game.legal_steps()
        out = [s for s in legal if not s.in_turn]
        mine = [s for s in legal if s.in_turn and s not in tabu]
        undo = [s for s in mine if isinstance(s, Undo)]
        takes = [s for s in mine if s.take is not None]
        table = [s for s in mine if s.undoable and s.take is None]
        ends = [s for s in mine if isinstance(s, Discard | Close)]
        step: Step
        if out and (rng.random() < 0.1 or not (mine or undo)):
            step = rng.choice(out)
        elif takes:
            step = rng.choices(takes, [3 if isinstance(s, Draw) else 2 for s in takes])[0]
        elif undo and undos < max_undos and rng.random() < 0.08:
            step = undo[0]
        elif table and actions < 15 and (not ends or rng.random() < 0.75):
            swaps = [s for s in table if isinstance(s, SwapJoker)]
            step = rng.choice(swaps) if swaps and rng.random() < 0.6 else rng.choice(table)
        elif ends:
            closes = [s for s in ends if isinstance(s, Close)]
            step = closes[0] if closes and rng.random() < 0.9 else rng.choice(ends)
        elif undo and stack:  # a dead end: take the last step back, never again this turn
            step = undo[0]
            tabu.add(stack[-1])
        elif legal:
            step = rng.choice(legal)
        else:
            raise AssertionError(f"no legal step in a round in play: {state.phase}")
        if isinstance(step, Undo):
            undos += 1
            if stack:
                stack.pop()
        elif step.undoable:
            stack.append(step)
            actions += 1
        elif step.in_turn:
            stack = []
        try:
            game.apply(step)
        except IllegalStepError as err:
            raise AssertionError(f"listed but refused: {step!r} ({err.code})") from err
        on_step(game)
    return max_steps


def random_rules(rng: random.Random) -> Ruleset:
    """A preset with about a third of its knobs drawn at random, accepted by
    :class:`Ruleset` (drawn again until one is); turn caps stay small enough for
    rounds to end."""
    infos = {info.name: info for info in knobs()}
    while True:
        base = variants.get(rng.choice(PRESETS))
        changes: dict[str, Any] = {}
        for f in attrs.fields(attrs.resolve_types(Ruleset)):
            if rng.random() > 0.3:
                continue
            info, tp, now = infos[f.name], f.type, getattr(base, f.name)
            if tp is bool:
                changes[f.name] = rng.random() < 0.5
            elif isinstance(tp, type) and issubclass(tp, enum.Enum):
                changes[f.name] = rng.choice(list(tp))
            elif f.name == "hand_sizes":
                others = rng.randint(1, 20)
                changes[f.name] = (others + rng.choice((0, 1)), others)
            elif f.name == "max_turns_per_round":
                changes[f.name] = rng.choice((None, 1, 2, 3, rng.randint(4, 300)))
            elif info.lo is not None and info.hi is not None:
                hi = min(info.hi, max(info.lo, 2 * now if isinstance(now, int) else 10) + 10)
                value: int | None = rng.randint(info.lo, hi)
                if tp is not int and rng.random() < 0.2:
                    value = None
                changes[f.name] = value
        try:
            return attrs.evolve(base, **changes)
        except (InvalidRulesetError, TypeError, ValueError):
            continue


def _always(rules: Ruleset) -> Callable[[int], Ruleset]:
    """A ``rules_of`` for :func:`run_rounds` that gives ``rules`` whatever the seed."""
    return lambda _seed: rules


def check_save(game: Game) -> None:
    """The game saves, loads back equal and saves again to the same text; its record
    too.  Raises AssertionError naming what differs (with the loader's error)."""
    text = serde.dumps_game(game)
    try:
        again = serde.loads_game(text, seed=0)
    except InvalidStateError as err:
        raise AssertionError(f"a reachable game does not load: {err}") from err
    assert again.state == game.state, "loaded state differs"
    assert again.record() == game.record(), "loaded record differs"
    assert serde.dumps_game(again) == text, "saved again differently"


def check_record(game: Game) -> None:
    record = game.record()
    try:
        assert serde.loads_record(serde.dumps_record(record)) == record
    except InvalidStateError as err:
        raise AssertionError(f"a reachable record does not load: {err}") from err


@dataclass
class Tally:
    rounds: int = 0
    steps: int = 0
    loads: int = 0
    failures: list[str] = field(default_factory=list)
    engine_bugs: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    slow: list[str] = field(default_factory=list)


def run_rounds(
    rules_of: Callable[[int], Ruleset],
    label: str,
    rounds: int,
    *,
    every_step: bool,
    sampled: int = 20,
    seed0: int = 0,
    tally: Tally | None = None,
    limit: float = 0.0,
) -> Tally:
    """``rounds`` seeded rounds (2, 3, 4 players in turn): save and load after every
    step (``every_step``) or after ``sampled`` random steps of each round (and at its
    end).  Loader failures go to ``failures``; an engine bug met while playing (a
    listed step refused, an engine exception) to ``engine_bugs``."""
    t = tally or Tally()
    for k in range(rounds):
        seed = seed0 + k
        rules = rules_of(seed)
        rng = random.Random(f"{label}-{seed}")
        try:
            game = Game.new(rules, 2 + seed % 3, seed=seed)
        except Exception as err:  # an engine failure dealing (not the loader's)
            t.engine_bugs[f"deal: {type(err).__name__}: {str(err)[:80]}"] += 1
            continue
        marks: set[int] = set()
        if not every_step:
            marks = set(rng.sample(range(1, 400), sampled))
        count = [0]

        def on_step(
            g: Game, marks: set[int] = marks, count: list[int] = count, seed: int = seed
        ) -> None:
            count[0] += 1
            if every_step or count[0] in marks or g.over:
                t.loads += 1
                try:
                    check_save(g)
                except AssertionError as err:
                    where = f"{label} seed {seed} step {count[0]}"
                    t.failures.append(f"{where}: {err}")
                    raise _Stop from None

        if limit:
            signal.setitimer(signal.ITIMER_PROF, limit)
        try:
            if every_step:
                on_step(game)
            t.steps += random_round(game, rng, on_step)
            check_record(game)
        except _Stop:
            pass
        except _Slow:
            t.slow.append(f"{label} seed {seed}: over {limit:g} s at turn {game.state.turn}")
        except AssertionError as err:
            if "listed but refused" in str(err) or "no legal step" in str(err):
                t.engine_bugs[str(err)[:100]] += 1
            else:
                t.failures.append(f"{label} seed {seed}: {err}")
        except Exception as err:  # an engine exception while playing
            t.engine_bugs[f"{type(err).__name__}: {str(err)[:80]}"] += 1
        finally:
            if limit:
                signal.setitimer(signal.ITIMER_PROF, 0)
        t.rounds += 1
        for step in game.record().steps:
            t.kinds[step.kind] += 1
    return t


class _Stop(Exception):
    pass


class _Slow(BaseException):
    """A round past ``REMI_WIDE_ROUND_LIMIT`` (a BaseException: no handler of the
    library's catches it)."""


def _too_slow(signum: int, frame: object) -> None:
    raise _Slow


WIDE_SIZES = {"every": 300, "sampled": 10_000, "house": 10_000}


def main() -> int:
    every = int(os.environ.get("REMI_WIDE_EVERY", WIDE_SIZES["every"]))
    sampled = int(os.environ.get("REMI_WIDE_SAMPLED", WIDE_SIZES["sampled"]))
    house = int(os.environ.get("REMI_WIDE_HOUSE", WIDE_SIZES["house"]))
    seed0 = int(os.environ.get("REMI_WIDE_SEED", "1000"))
    total = Tally()
    jobs: list[tuple[str, Callable[[int], Ruleset], int, bool]] = []
    for preset in PRESETS:
        rules = variants.get(preset)
        jobs.append((f"{preset} every step", _always(rules), every, True))
        jobs.append((f"{preset} sampled", _always(rules), sampled, False))
    jobs.append(("house rules sampled", lambda s: random_rules(random.Random(s)), house, False))
    chunk = int(os.environ.get("REMI_WIDE_CHUNK", "250"))
    limit = float(os.environ.get("REMI_WIDE_ROUND_LIMIT", "0"))
    if limit:
        signal.signal(signal.SIGPROF, _too_slow)
    only = os.environ.get("REMI_WIDE_ONLY")  # e.g. "rummy45" or "house": those jobs alone
    for label, rules_of, rounds, every_step in jobs:
        if only and only not in label:
            continue
        start = time.perf_counter()
        t = Tally()
        for first in range(0, rounds, chunk):  # a line per chunk: a long run shows progress
            size = min(chunk, rounds - first)
            run_rounds(
                rules_of,
                label,
                size,
                every_step=every_step,
                seed0=seed0 + first,
                tally=t,
                limit=limit,
            )
            took = time.perf_counter() - start
            print(
                f"{label}: {t.rounds} rounds, {t.steps} steps, {t.loads} loads, "
                f"{len(t.failures)} loader failures, {sum(t.engine_bugs.values())} engine bugs, "
                f"{len(t.slow)} slow in {took:.0f} s",
                flush=True,
            )
            for line in t.slow[-3:]:
                print("    slow:", line, flush=True)
            for bug, n in t.engine_bugs.most_common(3):
                print(f"    engine: {n} x {bug}", flush=True)
        for line in t.failures[:5]:
            print("   ", line, flush=True)
        for bug, n in t.engine_bugs.most_common(5):
            print(f"    engine: {n} x {bug}", flush=True)
        for line in t.slow:
            print("    slow:", line, flush=True)
        total.failures += t.failures
        total.kinds.update(t.kinds)
    print("step kinds:", dict(total.kinds.most_common()), flush=True)
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
