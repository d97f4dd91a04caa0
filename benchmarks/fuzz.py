"""One fuzzer for every input surface of remi_rules: each attack on the public API.

Usage::

    python benchmarks/fuzz.py [--cases 2000] [--seed 0] [--surface NAME ...]
                              [--time-limit 1.0] [--hard-limit 20] [--case I]

Surfaces (``--surface``, repeatable; default all):

``tiles``
    The notation parsers (``Tile.parse``, ``parse_tiles``), the meld functions
    (``analyze_meld``, ``is_valid_meld``, ``arrange_meld``, ``could_become_meld``) on
    random notation and tile lists, and ``remi-rules check``'s ``check_meld``: tokens
    of every length around :data:`~remi_rules.tiles.MAX_TOKEN_LENGTH`, digit runs
    around Python's 4,300-digit limit, junk characters.  An accepted meld must agree
    with ``is_valid_meld``.
``house_rules``
    ``loads_house_rules`` (JSON and TOML) and the dict forms on mutations of real
    house-rules files: huge ints (around 100 and 4,300 digits, TOML hex), floats
    ``1e309`` / ``NaN`` / ``Infinity``, deep nesting, long strings, duplicated keys,
    truncation, junk, documents past the size bound.  An accepted ruleset must dump
    and load back equal.
``saves``
    ``load_game`` / ``loads_game``, ``load_record`` / ``loads_record`` and
    ``load_match`` on mutations of real dumps of played games (the mutations of
    ``benchmarks/fuzz_loader.py`` plus huge ints past 4,300 digits in the text, long
    strings and duplicated keys).  What is accepted must keep the engine's invariants
    and dump back equal.
``steps``
    ``Game.can`` / ``verify`` / ``apply`` on positions of played games with arbitrary
    objects and mutated legal steps (huge, negative and out-of-range ids and seats).
    ``can`` must agree with ``verify`` and ``apply``; a refused step leaves the state
    unchanged; an applied one keeps the tile census.
``playouts``
    Random rounds of random length; then dump and load, and replay the record: both
    must give the same game (same dump, same legal steps).
``legal_steps``
    ``Game.legal_steps()`` timed on random positions of random rounds; every step it
    lists must pass ``Game.can``.

Each case ends as ``ok`` (returned), a library error (``RemiError`` with a code, whose
``str`` and ``message("ro")`` work), a ``TypeError``, or an *other* exception (anything
else, a broken invariant, a message that fails, a case past ``--hard-limit`` seconds):
those are counted and the first few printed with their repro (``--case I`` runs one
case again and prints its traceback).  A case slower than ``--time-limit`` seconds is
counted as slow.  Per surface one line; the last line is one JSON object with every
surface.  Exit code 1 if any surface had other exceptions.

Every case ``I`` of a surface is generated from ``random.Random(f"{seed}/{surface}/{I}")``
alone, so a run is deterministic and any case can be run again by itself.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from fuzzing.game_surfaces import SAMPLES, gen_legal_steps, gen_playouts, gen_saves, gen_steps
from fuzzing.outcomes import Case, Tally, _safe_str, _where, run_case, short
from fuzzing.text_surfaces import gen_house_rules, gen_tiles

SURFACES: dict[str, Callable[[random.Random], Case]] = {
    "tiles": gen_tiles,
    "house_rules": gen_house_rules,
    "saves": gen_saves,
    "steps": gen_steps,
    "playouts": gen_playouts,
    "legal_steps": gen_legal_steps,
}


def case_of(surface: str, seed: int, index: int) -> Case:
    rng = random.Random(f"{seed}/{surface}/{index}")
    return SURFACES[surface](rng)


def run_surface(
    surface: str,
    cases: int,
    *,
    seed: int = 0,
    time_limit: float = 1.0,
    hard_limit: float = 20.0,
    examples: int = 5,
    progress: Callable[[str], None] | None = None,
) -> Tally:
    tally = Tally()
    SAMPLES.seed = seed
    for i in range(cases):
        tally.cases += 1
        try:
            case = case_of(surface, seed, i)
        except Exception as err:  # the harness's own setup failed on the current code
            tally.other_exceptions += 1
            if len(tally.examples) < examples:
                tally.examples.append(
                    f"{surface} case {i} (setup): {type(err).__name__}: {short(str(err), 200)}"
                )
            continue
        outcome, exc, elapsed = run_case(case, hard_limit)
        tally.labels[case.label] = tally.labels.get(case.label, 0) + 1
        ms = elapsed * 1000
        if ms > tally.slowest_ms:
            tally.slowest_ms, tally.slowest_case = ms, i
        if elapsed > time_limit:
            tally.slow += 1
            if len(tally.examples) < examples:
                tally.examples.append(f"{surface} case {i} slow ({ms:.0f} ms): {case.show()}")
        if outcome == "ok":
            tally.ok += 1
        elif outcome == "library":
            tally.library_errors += 1
            code = str(getattr(exc, "code", "?"))
            tally.codes[code] = tally.codes.get(code, 0) + 1
        elif outcome == "type":
            tally.type_errors += 1
        else:
            tally.other_exceptions += 1
            if len(tally.examples) < examples:
                where = _where(exc)
                tally.examples.append(
                    f"{surface} case {i} ({case.label}): {type(exc).__name__}: "
                    f"{short(_safe_str(exc), 200)}{where}\n    repro: {case.show()}\n"
                    f"    rerun: python benchmarks/fuzz.py --surface {surface} "
                    f"--seed {seed} --case {i}"
                )
        if progress is not None and (i + 1) % 1000 == 0:
            progress(f"{surface}: {i + 1}/{cases}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000, help="cases per surface")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--surface", action="append", choices=sorted(SURFACES), help="repeatable; default all"
    )
    parser.add_argument(
        "--time-limit", type=float, default=1.0, help="seconds; a slower case is flagged slow"
    )
    parser.add_argument(
        "--hard-limit",
        type=float,
        default=20.0,
        help="seconds; a case is interrupted and counted as an other exception (0: never)",
    )
    parser.add_argument("--case", type=int, help="run this one case and show its traceback")
    parser.add_argument("--examples", type=int, default=5, help="examples printed per surface")
    parser.add_argument("--progress", action="store_true", help="report every 1,000 cases")
    args = parser.parse_args(argv)
    surfaces = args.surface or list(SURFACES)
    if args.case is not None:
        for surface in surfaces:
            SAMPLES.seed = args.seed
            case = case_of(surface, args.seed, args.case)
            print(f"{surface} case {args.case} ({case.label}): {case.show()}")
            try:
                result = case.run()
                print(f"returned {short(result, 300)}")
            except BaseException:
                traceback.print_exc()
        return 0
    results: dict[str, Any] = {}
    bad = False
    for surface in surfaces:
        started = time.perf_counter()
        progress = (lambda m: print(m, file=sys.stderr, flush=True)) if args.progress else None
        tally = run_surface(
            surface,
            args.cases,
            seed=args.seed,
            time_limit=args.time_limit,
            hard_limit=args.hard_limit,
            examples=args.examples,
            progress=progress,
        )
        seconds = time.perf_counter() - started
        for line in tally.examples:
            print(line)
        print(
            f"{surface:12s} cases {tally.cases:7d}  ok {tally.ok:7d}  library errors "
            f"{tally.library_errors:7d}  type errors {tally.type_errors:6d}  other "
            f"exceptions {tally.other_exceptions:5d}  slow {tally.slow:4d}  slowest "
            f"{tally.slowest_ms:9.1f} ms (case {tally.slowest_case})  [{seconds:.1f} s]",
            flush=True,
        )
        results[surface] = {**tally.as_dict(), "seconds": round(seconds, 1)}
        bad = bad or tally.other_exceptions > 0
    print(json.dumps({"seed": args.seed, "cases": args.cases, "surfaces": results}, sort_keys=True))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
