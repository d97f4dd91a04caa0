"""The generator/verifier agreement check of tests/test_engine_agreement.py, from the
command line, with any number of states (and its timing).

Usage::

    python benchmarks/agreement.py [--states 10000] [--candidates 40] [--preset clasic ...]

For each preset: reachable states of rounds of 2, 3 and 4 players played by the
varied policy of tests/engine_policies.py (plus fresh deals before the first discard)
until ``--states`` states are checked.  On each state, every step of
``game.legal_steps()`` must pass ``game.verify``, and every one of ``--candidates``
steps sampled from a wide candidate space that passes ``verify`` must be listed.
Prints one line per new disagreement (known engine bugs are counted, not printed),
and last one JSON object: per preset the states checked, the seconds, the
disagreements (new and known, by tag) and the coverage of the kinds of states.
Exits 1 if a new disagreement was found.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_engine_agreement as agreement
from engine_policies import PRESETS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--candidates", type=int, default=agreement.CANDIDATES)
    parser.add_argument("--preset", action="append", choices=PRESETS)
    args = parser.parse_args(argv)
    agreement.CANDIDATES = args.candidates
    report: dict[str, object] = {"states_per_preset": args.states, "candidates": args.candidates}
    new_found = 0
    for preset in args.preset or PRESETS:
        start = time.perf_counter()
        checked, coverage, found, _ = agreement.agreement_run(preset, args.states)
        seconds = time.perf_counter() - start
        new = [d for d in found if d.known is None]
        for d in new:
            print(d)
        new_found += len(new)
        report[preset] = {
            "states": checked,
            "seconds": round(seconds, 2),
            "ms_per_state": round(1000 * seconds / checked, 3),
            "new_disagreements": len(new),
            "known_bugs": dict(Counter(d.known for d in found if d.known)),
            "coverage": dict(sorted(coverage.items())),
        }
    print(json.dumps(report))
    return 1 if new_found else 0


if __name__ == "__main__":
    sys.exit(main())
