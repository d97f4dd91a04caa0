"""The simulator (``remi_rules.sim``): pure tasks, results independent of how the
rounds are spread out (one process, several, Ray), the statistics and the reports."""

from __future__ import annotations

import importlib.util
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from remi_rules import sim as sim_module
from remi_rules import variants
from remi_rules.errors import InvalidSimulationError, SimErrorCode
from remi_rules.sim import (
    BOTS,
    RoundOutcome,
    SimTask,
    Simulation,
    make_bot,
    mean_ci,
    plan_tasks,
    run,
    run_task,
    summarize,
    wilson_ci,
)
from remi_rules.sim.report import to_csv, to_json, to_table, write_plot


def sim(
    rounds: int = 8, bots: tuple[str, ...] = ("random", "greedy", "random"), seed: int = 0
) -> Simulation:
    return Simulation(
        (("clasic", variants.get("clasic")), ("online", variants.get("online"))), bots, rounds, seed
    )


def test_a_task_is_pure_and_travels() -> None:
    task = SimTask(variants.get("rummy45"), ("greedy", "random"), 3, 6, "rummy45")
    assert run_task(task) == run_task(pickle.loads(pickle.dumps(task)))
    outcomes = run_task(task)
    assert [o.seed for o in outcomes] == [3, 4, 5]
    for o in outcomes:
        assert o.reason in ("closed", "stock_exhausted", "max_turns") and len(o.totals) == 2


def test_the_tasks_cover_every_seed_once_per_ruleset() -> None:
    tasks = plan_tasks(sim(rounds=60, seed=5), chunk=25)
    for label in ("clasic", "online"):
        seeds = [s for t in tasks if t.label == label for s in range(t.first_seed, t.stop_seed)]
        assert seeds == list(range(5, 65))


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    one = to_json(run(sim(rounds=30), jobs=1))
    two = to_json(run(sim(rounds=30), jobs=2))
    assert one == two
    assert json.loads(one)["rulesets"][0]["rounds"] == 30


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is an optional extra")
def test_the_ray_backend_gives_the_same_bytes() -> None:
    local = to_json(run(sim(rounds=6), jobs=1))
    assert to_json(run(sim(rounds=6), backend="ray")) == local


def test_the_measures_of_a_simulation() -> None:
    results = run(sim(rounds=12, bots=("greedy", "random", "greedy", "random")))
    for block in results["rulesets"]:
        assert block["rounds"] == 12
        assert sum(e["count"] for e in block["ends"].values()) == 12
        assert [s["bot"] for s in block["seats"]] == ["greedy", "random", "greedy", "random"]
        assert set(block["bots"]) == {"greedy", "random"}
        for seat in block["seats"]:
            assert seat["ci_low"] <= seat["mean"] <= seat["ci_high"]
            assert seat["min"] <= seat["median"] <= seat["max"]
        assert block["bots"]["greedy"]["mean"] > block["bots"]["random"]["mean"]
    assert results["rulesets"][1]["fingerprint"] == variants.get("online").fingerprint()


def test_intervals() -> None:
    assert mean_ci([2.0, 4.0]) == {"mean": 3.0, "sd": 1.4142, "ci_low": 1.04, "ci_high": 4.96}
    assert mean_ci([5.0])["ci_low"] == 5.0 and mean_ci([])["mean"] == 0.0
    w = wilson_ci(8, 10)
    assert w["share"] == 0.8 and (w["ci_low"], w["ci_high"]) == (0.4902, 0.9433)
    assert wilson_ci(0, 10)["ci_low"] == 0.0 and wilson_ci(0, 0)["share"] == 0.0


def test_bad_simulations_are_refused() -> None:
    clasic = (("clasic", variants.get("clasic")),)
    cases: list[tuple[Callable[[], object], SimErrorCode]] = [
        (lambda: Simulation(clasic, ("random", "clever"), 10), SimErrorCode.UNKNOWN_BOT),
        (lambda: Simulation(clasic, ("random",), 10), SimErrorCode.BAD_SEATS),
        (lambda: Simulation(clasic, ("random", "random"), 0), SimErrorCode.BAD_ROUNDS),
        (lambda: Simulation(clasic * 2, ("random", "random"), 10), SimErrorCode.BAD_LABELS),
        (
            lambda: run(Simulation(clasic, ("random", "random"), 1), backend="dask"),
            SimErrorCode.UNKNOWN_BACKEND,
        ),
    ]
    for make, code in cases:
        with pytest.raises(InvalidSimulationError) as caught:
            make()
        assert caught.value.code is code
        assert isinstance(caught.value, ValueError)  # as before the codes
    assert set(BOTS) == {"greedy", "fast", "random"}


def test_reports(tmp_path: object) -> None:
    results = run(sim(rounds=5))
    table = to_table(results)
    assert "== clasic" in table and "first-player advantage" in table
    rows = to_csv(results).splitlines()
    assert rows[0] == "ruleset,measure,seat,value,ci_low,ci_high"
    assert any(r.startswith("online,ended_max_turns,") for r in rows)
    assert json.loads(to_json(results)) == results


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib: [plot]")
def test_the_plot_is_written(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "presets.png"
    write_plot(run(sim(rounds=4)), str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- every public name of remi_rules.sim, given bad values -----------------------------------

CLASIC = variants.get("clasic")
OK_SIM = Simulation((("clasic", CLASIC),), ("random", "random"), 1)
OK_TASK = SimTask(CLASIC, ("random", "random"), 0, 1, "clasic")
OUTCOME: dict[str, Any] = dict(
    seed=0, starter=0, turns=5, reason="closed", closer=1, totals=(0, 10)
)

# (call, what it must raise: TypeError or a SimErrorCode)
BAD_CALLS: dict[str, list[tuple[Any, type[TypeError] | SimErrorCode]]] = {
    "make_bot": [
        (lambda: make_bot("nope", 0), SimErrorCode.UNKNOWN_BOT),
        (lambda: make_bot(3, 0), TypeError),  # type: ignore[arg-type]
        (lambda: make_bot("random", "x"), TypeError),  # type: ignore[arg-type]
        (lambda: make_bot("greedy", 1.5), TypeError),  # type: ignore[arg-type]
    ],
    "BOTS": [
        (lambda: BOTS["random"]("seed"), TypeError),  # type: ignore[arg-type]
        (lambda: BOTS["greedy"](None), TypeError),  # type: ignore[arg-type]
    ],
    "SimTask": [
        (lambda: SimTask("clasic", ("random", "random"), 0, 1), TypeError),  # type: ignore[arg-type]
        (lambda: SimTask(CLASIC, "random,random", 0, 1), TypeError),
        (lambda: SimTask(CLASIC, ("random", 2), 0, 1), TypeError),
        (lambda: SimTask(CLASIC, ("random",), 0, 1), SimErrorCode.BAD_SEATS),
        (lambda: SimTask(CLASIC, ("random",) * 5, 0, 1), SimErrorCode.BAD_SEATS),
        (lambda: SimTask(CLASIC, ("random", "nope"), 0, 1), SimErrorCode.UNKNOWN_BOT),
        (lambda: SimTask(CLASIC, ("random", "random"), "0", 1), TypeError),  # type: ignore[arg-type]
        (lambda: SimTask(CLASIC, ("random", "random"), 0, 1.0), TypeError),  # type: ignore[arg-type]
        (lambda: SimTask(CLASIC, ("random", "random"), 5, 4), SimErrorCode.BAD_SEED_RANGE),
        (lambda: SimTask(CLASIC, ("random", "random"), 0, 1, None), TypeError),  # type: ignore[arg-type]
    ],
    "RoundOutcome": [
        (lambda: RoundOutcome(**{**OUTCOME, "seed": "0"}), TypeError),
        (lambda: RoundOutcome(**{**OUTCOME, "totals": [0, 10]}), TypeError),
        (lambda: RoundOutcome(**{**OUTCOME, "totals": (0, 1.5)}), TypeError),
        (lambda: RoundOutcome(**{**OUTCOME, "reason": 1}), TypeError),
        (lambda: RoundOutcome(**{**OUTCOME, "totals": (0,)}), SimErrorCode.BAD_OUTCOME),
        (lambda: RoundOutcome(**{**OUTCOME, "starter": 2}), SimErrorCode.BAD_OUTCOME),
        (lambda: RoundOutcome(**{**OUTCOME, "turns": -1}), SimErrorCode.BAD_OUTCOME),
        (lambda: RoundOutcome(**{**OUTCOME, "reason": "bored"}), SimErrorCode.BAD_OUTCOME),
        (lambda: RoundOutcome(**{**OUTCOME, "closer": None}), SimErrorCode.BAD_OUTCOME),
        (lambda: RoundOutcome(**{**OUTCOME, "closer": 7}), SimErrorCode.BAD_OUTCOME),
    ],
    "Simulation": [
        (lambda: Simulation("clasic", ("random", "random"), 1), TypeError),
        (lambda: Simulation((("clasic", "clasic"),), ("random", "random"), 1), TypeError),
        (lambda: Simulation((("clasic", CLASIC),), ("random", "random"), "1"), TypeError),  # type: ignore[arg-type]
        (lambda: Simulation((("clasic", CLASIC),), ("random", "random"), 1, 0.5), TypeError),  # type: ignore[arg-type]
        (lambda: Simulation((), ("random", "random"), 1), SimErrorCode.BAD_LABELS),
        (lambda: Simulation((("", CLASIC),), ("random", "random"), 1), SimErrorCode.BAD_LABELS),
        (
            lambda: Simulation((("clasic", CLASIC),), ("random", "random"), -3),
            SimErrorCode.BAD_ROUNDS,
        ),
        (lambda: Simulation((("clasic", CLASIC),), ("x", "random"), 1), SimErrorCode.UNKNOWN_BOT),
    ],
    "plan_tasks": [
        (lambda: plan_tasks("sim"), TypeError),  # type: ignore[arg-type]
        (lambda: plan_tasks(OK_SIM, "25"), TypeError),  # type: ignore[arg-type]
        (lambda: plan_tasks(OK_SIM, 0), SimErrorCode.BAD_CHUNK),
    ],
    "run": [
        (lambda: run("sim"), TypeError),  # type: ignore[arg-type]
        (lambda: run(OK_SIM, jobs="2"), TypeError),  # type: ignore[arg-type]
        (lambda: run(OK_SIM, jobs=0), SimErrorCode.BAD_JOBS),
        (lambda: run(OK_SIM, jobs=-4), SimErrorCode.BAD_JOBS),
        (lambda: run(OK_SIM, backend=1), TypeError),  # type: ignore[arg-type]
        (lambda: run(OK_SIM, backend="dask"), SimErrorCode.UNKNOWN_BACKEND),
        (lambda: run(OK_SIM, address=5), TypeError),  # type: ignore[arg-type]
        (lambda: run(OK_SIM, progress="bar"), TypeError),  # type: ignore[arg-type]
    ],
    "run_task": [(lambda: run_task("task"), TypeError), (lambda: run_task(OK_SIM), TypeError)],  # type: ignore[arg-type]
    "summarize": [
        (lambda: summarize("outcomes", ("random", "random")), TypeError),  # type: ignore[arg-type]
        (lambda: summarize([1, 2], ("random", "random")), TypeError),  # type: ignore[list-item]
        (lambda: summarize([], "random"), TypeError),
        (lambda: summarize([], ("random",)), SimErrorCode.BAD_SEATS),
        (lambda: summarize([RoundOutcome(**OUTCOME)], ("random",) * 3), SimErrorCode.BAD_OUTCOME),
    ],
    "mean_ci": [
        (lambda: mean_ci(5), TypeError),  # type: ignore[arg-type]
        (lambda: mean_ci("12"), TypeError),  # type: ignore[arg-type]
        (lambda: mean_ci([1, "2"]), TypeError),  # type: ignore[list-item]
        (lambda: mean_ci([1.0, float("nan")]), SimErrorCode.BAD_VALUES),
        (lambda: mean_ci([float("inf")]), SimErrorCode.BAD_VALUES),
        (lambda: mean_ci([10**400]), SimErrorCode.BAD_VALUES),
    ],
    "wilson_ci": [
        (lambda: wilson_ci(1.0, 2), TypeError),  # type: ignore[arg-type]
        (lambda: wilson_ci(1, "2"), TypeError),  # type: ignore[arg-type]
        (lambda: wilson_ci(3, 2), SimErrorCode.BAD_COUNTS),
        (lambda: wilson_ci(-1, 2), SimErrorCode.BAD_COUNTS),
        (lambda: wilson_ci(0, -1), SimErrorCode.BAD_COUNTS),
    ],
}
CONSTANTS = {"BACKENDS"}


def test_every_public_name_is_walked() -> None:
    assert set(sim_module.__all__) == set(BAD_CALLS) | CONSTANTS


@pytest.mark.parametrize(
    ("name", "k"), [(name, k) for name, calls in BAD_CALLS.items() for k in range(len(calls))]
)
def test_a_bad_value_is_a_coded_error_or_a_type_error(name: str, k: int) -> None:
    call, expected = BAD_CALLS[name][k]
    with pytest.raises(Exception) as caught:
        call()
    if expected is TypeError:
        assert isinstance(caught.value, TypeError), repr(caught.value)
    else:
        assert isinstance(caught.value, InvalidSimulationError), repr(caught.value)
        assert caught.value.code is expected
        assert caught.value.message("ro") != caught.value.message("en")


def test_the_good_values_still_work() -> None:
    assert make_bot("random", 3) is not None and OK_TASK.players == 2
    assert RoundOutcome(**OUTCOME).totals == (0, 10)
    assert mean_ci([1, 2.5])["mean"] == 1.75 and wilson_ci(0, 0)["share"] == 0.0
    assert summarize([], ("random", "random"))["rounds"] == 0
    assert len(plan_tasks(OK_SIM, 1)) == 1


def test_wilson_ci_refuses_counts_too_large_to_measure() -> None:
    from remi_rules.sim.stats import MAX_COUNT

    assert wilson_ci(MAX_COUNT, MAX_COUNT)["share"] == 1.0
    for n in (MAX_COUNT + 1, 10**5000):
        with pytest.raises(InvalidSimulationError) as err:
            wilson_ci(1, n)
        assert err.value.code is SimErrorCode.COUNT_TOO_LARGE and err.value.message("ro")


def test_simulation_messages_never_write_the_argument() -> None:
    with pytest.raises(TypeError, match="not int"):
        Simulation(10**5000, ("random", "greedy"), 1)
    with pytest.raises(TypeError, match=r"\(int, str\)"):
        Simulation([(10**5000, "x" * 10**6)], ("random", "greedy"), 1)


def test_the_reports_check_their_results() -> None:
    results = run(sim(rounds=2), jobs=1)
    for report in (to_table, to_csv, to_json):
        assert report(results)
        with pytest.raises(TypeError):
            report(None)  # type: ignore[arg-type]
        for broken, field in (
            ({**results, "rounds": 10**5000}, "rounds"),
            ({k: v for k, v in results.items() if k != "rulesets"}, "rulesets"),
            ({**results, "rulesets": [{**results["rulesets"][0], "seats": []}]}, "seats"),
            ({**results, "bots": [None, None]}, "bots[0]"),
        ):
            with pytest.raises(InvalidSimulationError) as err:
                report(broken)
            assert err.value.code is SimErrorCode.BAD_RESULTS
            assert field in err.value.message("ro")
    with pytest.raises(InvalidSimulationError) as huge:
        to_json({**results, "extra": 10**5000})
    assert huge.value.code is SimErrorCode.BAD_RESULTS
