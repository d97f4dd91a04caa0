"""Benchmark of the game engine: seeded 4-player rounds per preset, four
:class:`~remi_rules.bots.FastBot` (each sees only its view) played by the engine's
own ``play_round``, every step checked by the engine's one checker, ``state_problems``.

    python benchmarks/bench_engine.py [--rounds 10000] [--quick] [--seed 1]
        [--presets clasic,online,rummy45] [--profile-rounds 300] [--replay-every 100]

Per preset, rounds ``Game.new(rules, 4, seed=s)`` (seat ``k``'s bot seeded ``s*10+k``)
are played twice.  The **checked pass** checks every step, scores every round, replays
every ``--replay-every``-th round from its record and checks every step in it against
``game.legal_steps()`` both ways; it counts step kinds (``coverage_missing``: a
required kind never seen), end reasons and refusals (``policy_refusals``: 0 expected,
the bot sends only steps it played out on its view's position; a refusal ends the round
as ``stuck``).  The **timed pass** plays the same rounds unchecked: ``rounds_per_s``
per CPU second (one core), ``engine_share`` the part of the wall time inside
``Game.new``/``Game.apply`` (the rest: the bots and their views), ``determinism_ok``
its steps equal to the checked pass's.  ``--profile-rounds``: rounds per preset under
cProfile.  The last line printed is one JSON object.  Target: 200 rounds/s or more per
preset on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine_audit import COUNTS, NOT_APPLICABLE, REQUIRED_KINDS, CheckedGame, Tally, check

from remi_rules import variants
from remi_rules.bots import FastBot
from remi_rules.engine import (
    EndReason,
    Game,
    play_round,
    round_step_bound,
)
from remi_rules.errors import RemiError
from remi_rules.ruleset import Ruleset

PRESETS = ("clasic", "online", "rummy45")
PLAYERS = 4
TARGET_ROUNDS_PER_S = 200.0
_clock = time.perf_counter  # cheap (60 ns; process_time is a 2 us system call here)


def one_round(rules: Ruleset, seed: int, tally: Tally, *, checked: bool, audit: bool) -> None:
    """One seeded round of four fast bots, played by the engine's ``play_round``."""
    t0 = _clock()
    game = CheckedGame.new(rules, PLAYERS, seed=seed)
    tally.engine_s += _clock() - t0
    assert isinstance(game, CheckedGame)  # Game.new builds its own class
    game.tally, game.checked, game.audit = tally, checked, audit
    tally.n["rounds"] += 1
    if checked:
        check(game, tally, "after the deal")
    bots = [FastBot(seed=seed * 10 + s) for s in range(PLAYERS)]
    try:
        play_round(game, bots, max_steps=round_step_bound(rules, PLAYERS))
    except RemiError as err:  # a refused step (counted) or a round too long
        tally.note("stuck_rounds", f"seed {seed} turn {game.state.turn}: {err.code}")
    for bot in bots:
        tally.bot.update(bot.stats)
    end = game.state.end
    tally.ends[str(end.reason) if end is not None else "stuck"] += 1
    if end is None or not checked:
        return
    try:
        game.result()
    except Exception as err:  # a scoring failure is an engine bug to report
        tally.note("scoring_errors", f"seed {seed}: {type(err).__name__}: {err}")
    if audit:
        tally.n["replays"] += 1
        try:
            same = Game.replay(game.record()).state == game.state
        except Exception as err:
            same = False
            tally.examples.append(f"replay seed {seed}: {type(err).__name__}: {err}")
        tally.n["replay_mismatches"] += not same


def run_pass(
    rules: Ruleset, seeds: range, *, checked: bool, replay_every: int = 0
) -> tuple[Tally, float, float]:
    """Play the rounds of ``seeds``; return the tally, the CPU and the wall seconds."""
    tally = Tally()
    w0, c0 = _clock(), time.process_time()
    for k, seed in enumerate(seeds):
        audit = checked and replay_every > 0 and k % replay_every == 0
        one_round(rules, seed, tally, checked=checked, audit=audit)
    return tally, time.process_time() - c0, _clock() - w0


_RULES = ("engine/", "rupere", "lipire", "joly", "opening", "closing", "table", "melds")


def profile(presets: list[str], rounds: int, seed: int, top: int = 20) -> dict[str, Any]:
    """cProfile over ``rounds`` unchecked rounds per preset: the engine's and the turn
    rules' functions by cumulative share of the time, and the bot's own share."""
    prof = cProfile.Profile()
    prof.enable()
    for preset in presets:
        run_pass(variants.get(preset), range(seed, seed + rounds), checked=False)
    prof.disable()
    st = pstats.Stats(prof)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = st.stats  # type: ignore[attr-defined]
    total = st.total_tt or 1.0  # type: ignore[attr-defined]
    rows = []
    for (path, line, name), (_cc, calls, _tt, ct, _callers) in raw.items():
        if any(f"remi_rules/{part}" in path.replace("\\", "/") for part in _RULES):
            where = f"{path.split('remi_rules')[-1]}:{line}({name})"
            rows.append((round(ct / total, 3), calls, where))
    bot = sum(v[2] for k, v in raw.items() if "_fast_" in k[0])
    return {
        "rounds_per_preset": rounds,
        "total_s": round(total, 3),
        "policy_self_share": round(bot / total, 3),
        "top_cumulative": sorted(rows, reverse=True)[:top],
    }


def measure(rules: Ruleset, rounds: int, seed: int, replay_every: int) -> dict[str, Any]:
    """Both passes over one preset: the report's entry for it."""
    seeds = range(seed, seed + rounds)
    checked, t_checked, _ = run_pass(rules, seeds, checked=True, replay_every=replay_every)
    timed, t_cpu, t_wall = run_pass(rules, seeds, checked=False)
    share = timed.engine_s / t_wall
    na = sorted(k for k, f in NOT_APPLICABLE.items() if f(rules))
    per_step, n, bot = t_cpu / timed.n["steps"], checked.n, sorted(checked.bot.items())
    return {
        "rounds_per_s": round(rounds / t_cpu, 1),
        "rounds_per_wall_s": round(rounds / t_wall, 1),
        "engine_only_rounds_per_s": round(rounds / (t_cpu * share), 1),
        "engine_share": round(share, 3),
        "steps_per_s": round(1 / per_step, 1),
        "us_per_step": round(1e6 * per_step, 2),
        "engine_us_per_step": round(1e6 * per_step * share, 2),
        "turns_per_round": round(n["turns"] / rounds, 2),
        "steps_per_round": round(n["steps"] / rounds, 2),
        "checked_pass_s": round(t_checked, 2),
        "timed_pass_s": round(t_cpu, 2),
        "end_reasons": dict(sorted(checked.ends.items())),
        "capped_rounds": checked.ends[str(EndReason.MAX_TURNS)],
        "step_kind_counts": dict(sorted(checked.kinds.items())),
        "bot_counts": {k: v for k, v in bot if not k.startswith("probe_refused:")},
        "not_applicable": na,
        "coverage_missing": [k for k in REQUIRED_KINDS if k not in na and not checked.kinds[k]],
        "policy_refusals": sum(checked.refusals.values()),
        "refusals_by_code": dict(sorted(checked.refusals.items())),
        "probe_refusals_by_code": {k[14:]: v for k, v in bot if k.startswith("probe_refused:")},
        "legal_steps_fallbacks": checked.bot["legal_steps_fallbacks"],
        **{k: n[k] for k in COUNTS},
        "determinism_ok": timed.n["steps"] == n["steps"] and timed.ends == checked.ends,
        "examples": checked.examples,
    }


_LIFTED = ("step_kind_counts", "end_reasons", "coverage_missing", "refusals_by_code")
"""Per-preset entries the JSON gives at its top level, by preset (not repeated)."""
_SUMMED = ("capped_rounds", "policy_refusals", "legal_steps_fallbacks", *COUNTS)
"""Per-preset counts the JSON also gives summed over the presets."""


def run(
    rounds: int,
    seed: int,
    presets: list[str],
    *,
    profile_rounds: int,
    replay_every: int,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    per = {p: measure(variants.get(p), rounds, seed, replay_every) for p in presets}
    for p, r in per.items():
        out(f"== {p}")
        for k, v in r.items():
            if v or k.endswith("_s"):
                out(f"  {k}: {v}")
    prof = profile(presets, profile_rounds, seed) if profile_rounds > 0 else None
    if prof is not None:
        out(f"cProfile, {profile_rounds} rounds per preset: the bot's self time")
        out(f"  {prof['policy_self_share']:.1%}; the engine by cumulative time:")
        for share, calls, function in prof["top_cumulative"]:
            out(f"  {share:6.1%} {calls:8d}  {function}")
    totals: Counter[str] = Counter()
    for r in per.values():
        totals.update(r["step_kind_counts"])
    rates = {p: r["rounds_per_s"] for p, r in per.items()}
    return {
        "benchmark": "engine",
        "bot": "FastBot",
        "python": platform.python_version(),
        "rounds_per_preset": rounds,
        "seed": seed,
        "players": PLAYERS,
        "timing": "CPU seconds (time.process_time, one process, one core) of a pass "
        "without checks over the same seeds as the checked pass",
        "rounds_per_s_min": min(rates.values()),
        "rounds_per_s": rates,
        "target_rounds_per_s": TARGET_ROUNDS_PER_S,
        **{k: sum(r[k] for r in per.values()) for k in _SUMMED},
        **{k: {p: r[k] for p, r in per.items()} for k in _LIFTED},
        "step_kind_totals": dict(sorted(totals.items())),
        "coverage_missing_all_presets": [k for k in REQUIRED_KINDS if not totals[k]],
        "determinism_ok": all(r["determinism_ok"] for r in per.values()),
        "engine_only_rounds_per_s": {p: r["engine_only_rounds_per_s"] for p, r in per.items()},
        "presets": {p: {k: v for k, v in r.items() if k not in _LIFTED} for p, r in per.items()},
        "profile": prof,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=None, help="rounds per preset")
    parser.add_argument("--quick", action="store_true", help="a small run (200 rounds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--profile-rounds", type=int, default=None)
    parser.add_argument("--replay-every", type=int, default=100)
    args = parser.parse_args(argv)
    rounds = args.rounds if args.rounds is not None else (200 if args.quick else 10_000)
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    quick = 50 if args.quick else 300
    profile_rounds = min(rounds, quick) if args.profile_rounds is None else args.profile_rounds
    presets = [p for p in args.presets.split(",") if p]
    for p in presets:
        variants.get(p)
    result = run(
        rounds, args.seed, presets, profile_rounds=profile_rounds, replay_every=args.replay_every
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
