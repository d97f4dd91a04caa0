"""The peer of benchmarks/bench_solver.py: rummikub-solver 1.0.0 in a venv of its own,
run by benchmarks/peer_rummikub.py on the joker-free racks where the two games' rules
coincide, and the comparison of its answers with ours (see bench_solver's docstring)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from solver_racks import COLORS, SIZES, draw_racks, pairs_of, tiles_of
from solver_timing import summary, time_solver

from remi_rules import Tile, is_valid_meld, tiles_str
from remi_rules.ruleset import Ruleset

HERE = Path(__file__).resolve().parent
WORKER = HERE / "peer_rummikub.py"
DEFAULT_PEER_VENV = HERE / ".peer-venv"
PEER_REQUIREMENT = "rummikub-solver[highs]==1.0.0"
PEER_VERSION = "1.0.0"
WARMUP_RACKS = 5
RECHECK_LIMIT = 20  # mismatching racks re-solved by a fresh peer (about 1 s each)
MAX_EXAMPLES = 20


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _peer_version(python: Path) -> str | None:
    """The installed rummikub-solver version (with highspy importable), or None."""
    if not python.exists():
        return None
    code = "import importlib.metadata as m, highspy; print(m.version('rummikub-solver'))"
    try:
        done = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _tail(text: str | bytes | None, lines: int = 5) -> str:
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return " / ".join((text or "").strip().splitlines()[-lines:])


def ensure_peer(venv: Path, log: Callable[[str], None]) -> tuple[Path | None, dict[str, Any]]:
    """The peer venv's python, creating the venv and installing the peer if needed."""
    python = _venv_python(venv)
    info: dict[str, Any] = {"peer_venv": str(venv), "peer_install_s": 0.0, "peer_error": None}
    if _peer_version(python) == PEER_VERSION:
        return python, info
    log(f"peer: installing {PEER_REQUIREMENT} into {venv} ...")
    t0 = time.perf_counter()
    try:
        if not python.exists():
            subprocess.run(
                [sys.executable, "-m", "venv", str(venv)],
                check=True,
                capture_output=True,
                timeout=300,
            )
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--quiet",
                PEER_REQUIREMENT,
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        )
    except subprocess.CalledProcessError as err:
        info["peer_error"] = f"{' '.join(map(str, err.cmd[:4]))} failed: {_tail(err.stderr)}"
    except (OSError, subprocess.SubprocessError) as err:
        info["peer_error"] = f"{type(err).__name__}: {err}"
    info["peer_install_s"] = round(time.perf_counter() - t0, 1)
    if info["peer_error"] is None and _peer_version(python) != PEER_VERSION:
        info["peer_error"] = f"rummikub-solver {PEER_VERSION} not importable after install"
    if info["peer_error"] is not None:
        log(f"peer: not available ({info['peer_error']})")
        return None, info
    log(f"peer: installed in {info['peer_install_s']} s")
    return python, info


def run_worker(
    python: Path,
    racks: list[list[list[int]]],
    warmup: list[list[list[int]]],
    *,
    fresh: bool = False,
) -> dict[str, Any]:
    """Run benchmarks/peer_rummikub.py under ``python`` on ``racks``."""
    with tempfile.TemporaryDirectory(prefix="bench_solver_") as tmp:
        src, dst = Path(tmp) / "racks.json", Path(tmp) / "result.json"
        src.write_text(
            json.dumps({"warmup": warmup, "racks": racks, "fresh": fresh}), encoding="utf-8"
        )
        done = subprocess.run(
            [str(python), str(WORKER), str(src), str(dst)],
            capture_output=True,  # HiGHS writes its banner to stdout
            text=True,
            timeout=3600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"peer worker exited {done.returncode}: {_tail(done.stderr)}")
        result: dict[str, Any] = json.loads(dst.read_text(encoding="utf-8"))
    if len(result["results"]) != len(racks):
        raise RuntimeError("peer worker returned a different number of racks")
    return result


def check_peer_sets(
    rack: Sequence[int], sets: list[list[list[int]]], placed: int, rules: Ruleset
) -> bool:
    """Are the peer's sets valid remi melds (``rules``) made of the rack's tiles, as
    many as it says it placed?"""
    have = Counter(tiles_of(rack))
    used: Counter[Tile] = Counter()

    def rank_then_colour(t: Tile) -> tuple[int | None, int]:
        assert t.color is not None  # built with a colour
        return (t.rank, t.color.index)

    for s in sets:
        meld = sorted((Tile(v, COLORS[c]) for v, c in s), key=rank_then_colour)
        if not is_valid_meld(meld, rules):
            return False
        used.update(meld)
    return used.total() == placed and not used - have


def rummikub_meld(tiles: Sequence[Tile]) -> bool:
    """Is this joker-free meld a valid Rummikub set (a group of 3-4 tiles of one
    number in distinct colours, or a run of 3 or more consecutive numbers of one
    colour, 1 low only)?"""
    ranks = sorted(t.rank for t in tiles if t.rank is not None)
    colours = {t.color for t in tiles}
    if len(ranks) != len(tiles) or len(tiles) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(tiles) <= 4 and len(colours) == len(tiles)
    return len(colours) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def _cause(ours: int, peer: int, fresh: int | None, ours_ok: bool, peer_ok: bool) -> str:
    """Why the tiles placed differ (see the module docstring)."""
    if peer > ours and peer_ok:
        return "ours_suboptimal"  # the peer's sets are valid remi melds: our bug
    if peer < ours and ours_ok:
        return "peer_warm_start" if fresh == ours else "peer_suboptimal"
    return "rules_difference"  # one side's melds are not valid under the other's rules


def compare_with_peer(
    python: Path, peer_count: int, seed: int, rules: Ruleset, log: Callable[[str], None]
) -> dict[str, Any]:
    """Both solvers on ``peer_count`` joker-free racks per size, objective tiles."""
    per_size = {n: draw_racks(n, "none", peer_count, f"{seed}:peer") for n in SIZES}
    warmup = [pairs_of(r) for r in draw_racks(15, "none", WARMUP_RACKS, f"{seed}:warmup")]
    flat = [r for n in SIZES for r in per_size[n]]
    t0 = time.perf_counter()
    peer = run_worker(python, [pairs_of(r) for r in flat], warmup)
    peer_wall = time.perf_counter() - t0
    by_size: dict[str, Any] = {}
    missed: list[dict[str, Any]] = []
    invalid = not_rummikub = 0
    k = 0
    for n in SIZES:
        racks = per_size[n]
        ours_t, ours_c, ours = time_solver([tiles_of(r) for r in racks], rules, "tiles")
        theirs = peer["results"][k : k + len(racks)]
        miss = 0
        for at, (rack, sol, got) in enumerate(zip(racks, ours, theirs, strict=True), k):
            peer_ok = check_peer_sets(rack, got["sets"], got["placed"], rules)
            ours_ok = all(rummikub_meld(m.tiles) for m in sol.melds)
            invalid += not peer_ok
            not_rummikub += not ours_ok
            if sol.placed != got["placed"]:
                miss += 1
                missed.append(
                    {
                        "size": n,
                        "rack": tiles_str(tiles_of(rack)),
                        "rack_ids": list(rack),
                        "ours_placed": sol.placed,
                        "ours": str(sol),
                        "ours_melds_valid_rummikub": ours_ok,
                        "peer_placed": got["placed"],
                        "peer_sets": [
                            tiles_str(Tile(v, COLORS[c]) for v, c in s) for s in got["sets"]
                        ],
                        "peer_sets_valid_remi": peer_ok,
                        "peer_fresh_placed": None,
                        # the rack the peer solved just before (its warm start)
                        "previous_rack": tiles_str(tiles_of(flat[at - 1])) if at else None,
                    }
                )
        k += len(racks)
        peer_t = [r["ns"] for r in theirs]
        ours_s, peer_s = summary(ours_t, ours_c), summary(peer_t, [r["cpu_ns"] for r in theirs])
        by_size[str(n)] = {
            "count": len(racks),
            "ours_median_ms": ours_s["median_ms"],
            "ours_p99_ms": ours_s["p99_ms"],
            "ours_max_ms": ours_s["max_ms"],
            "ours_cpu_median_ms": ours_s["cpu_median_ms"],
            "peer_median_ms": peer_s["median_ms"],
            "peer_p99_ms": peer_s["p99_ms"],
            "peer_max_ms": peer_s["max_ms"],
            "peer_cpu_median_ms": peer_s["cpu_median_ms"],
            "speedup": round(statistics.median(peer_t) / statistics.median(ours_t), 1),
            "mismatches": miss,
            "tiles_placed_mean": round(sum(s.placed for s in ours) / len(ours), 2),
        }
        log(
            f"peer {n:2d} tiles: ours median {ours_s['median_ms']:.3f} ms, peer "
            f"{peer_s['median_ms']:.3f} ms, speedup {by_size[str(n)]['speedup']}x, "
            f"mismatches {miss}/{len(racks)}"
        )
    # Re-solve the mismatching racks, each with a RuleSet of its own (no warm start).
    recheck = missed[:RECHECK_LIMIT]
    if recheck:
        fresh = run_worker(python, [pairs_of(m["rack_ids"]) for m in recheck], [], fresh=True)
        for m, got in zip(recheck, fresh["results"], strict=True):
            m["peer_fresh_placed"] = got["placed"]
    causes: Counter[str] = Counter()
    for m in missed:
        m["cause"] = _cause(
            m["ours_placed"],
            m["peer_placed"],
            m["peer_fresh_placed"],
            m["ours_melds_valid_rummikub"],
            m["peer_sets_valid_remi"],
        )
        causes[m["cause"]] += 1
        log(f"  MISMATCH ({m['cause']}) {m}")
    return {
        "peer_ran": True,
        "peer_version": peer["version"],
        "peer_backend": peer["backend"],
        "peer_packages": peer["packages"],
        "peer_speedup_min": min(v["speedup"] for v in by_size.values()),
        "peer_mismatches": len(missed) - causes["peer_warm_start"],
        "peer_mismatches_raw": len(missed),
        "peer_mismatch_causes": dict(sorted(causes.items())),
        "peer_mismatch_examples": missed[:MAX_EXAMPLES],
        "peer_invalid_solutions": invalid,
        "ours_not_rummikub_melds": not_rummikub,
        "peer_racks": len(flat),
        "peer": by_size,
        "peer_setup_s": peer["setup_s"],
        "peer_warmup_s": peer["warmup_s"],
        "peer_timed_cpu_per_wall": (
            round(peer["cpu_s"] / peer["wall_s"], 2) if peer["wall_s"] else None
        ),
        "peer_subprocess_s": round(peer_wall, 1),
    }
