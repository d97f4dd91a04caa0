"""The simulator's results as text: a table for people, JSON and CSV for programs,
and a plot (matplotlib, imported only when a plot is asked for).

The JSON holds the results only (sorted keys, two-space indent), so two runs with the
same rulesets, bots, rounds and seed compare byte for byte, whatever the backend.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from ..errors import InvalidSimulationError, SimErrorCode

__all__ = ["check_results", "to_csv", "to_json", "to_table", "write_plot"]

_END_NAMES = {"closed": "a close", "stock_exhausted": "the stock", "max_turns": "the turn cap"}
_MAX_NUMBER = 2**63
_CI_KEYS = ("mean", "ci_low", "ci_high")
_SHARE_KEYS = ("share", "ci_low", "ci_high", "count")
_SEAT_KEYS = ("seat", "mean", "ci_low", "ci_high")
_QUANTILE_KEYS = ("median", "min", "max")


def _bad(why: str, where: str, **details: object) -> InvalidSimulationError:
    """``why`` is a sub-code (the catalogue entry ``why:<sub>``), ``where`` the field."""
    return InvalidSimulationError(SimErrorCode.BAD_RESULTS, why=why, where=where, **details)


def _field(block: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in block:
        raise _bad("results_missing", where, key=key)
    return block[key]


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad("results_not_mapping", where, type=type(value).__name__)
    return value


def _list(value: object, where: str) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise _bad("results_not_list", where, type=type(value).__name__)
    return value


def _number(value: object, where: str, *, whole: bool = False) -> None:
    kinds: tuple[type, ...] = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise _bad("results_not_number", where, type=type(value).__name__)
    if isinstance(value, int) and not -_MAX_NUMBER < value < _MAX_NUMBER:
        raise _bad("results_out_of_range", where)


def _text(value: object, where: str) -> None:
    if not isinstance(value, str):
        raise _bad("results_not_str", where, type=type(value).__name__)


def _numbers(block: object, keys: tuple[str, ...], where: str) -> Mapping[str, Any]:
    m = _mapping(block, where)
    for key in keys:
        _number(_field(m, key, where), f"{where}.{key}", whole=key in ("count", "seat"))
    return m


def check_results(results: object) -> Mapping[str, Any]:
    """``results`` if it has the shape :func:`~remi_rules.sim.run` returns (the fields
    the reports read, each of its type; numbers below 2**63 in size), else
    :class:`TypeError` for no mapping at all and
    :class:`~remi_rules.errors.InvalidSimulationError`
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_RESULTS`, naming the first field at
    fault) for anything else."""
    if not isinstance(results, Mapping):
        raise TypeError(f"results must be a dict, not {type(results).__name__}")
    for key in ("rounds", "seed", "players"):
        _number(_field(results, key, "results"), key, whole=True)
    players = results["players"]
    if not 1 <= players <= 4:
        raise _bad("results_out_of_range", "players")
    for k, name in enumerate(_list(_field(results, "bots", "results"), "bots")):
        _text(name, f"bots[{k}]")
    for b, block in enumerate(_list(_field(results, "rulesets", "results"), "rulesets")):
        where = f"rulesets[{b}]"
        block = _mapping(block, where)
        _text(_field(block, "label", where), f"{where}.label")
        _text(_field(block, "fingerprint", where), f"{where}.fingerprint")
        for key in ("round_length_turns", "first_player_advantage"):
            _numbers(_field(block, key, where), _CI_KEYS, f"{where}.{key}")
        ends = _mapping(_field(block, "ends", where), f"{where}.ends")
        for reason, share in ends.items():
            if reason not in _END_NAMES:
                raise _bad("results_unknown_end", f"{where}.ends")
            _numbers(share, _SHARE_KEYS, f"{where}.ends.{reason}")
        _number(_field(block, "rounds", where), f"{where}.rounds", whole=True)
        seats = _list(_field(block, "seats", where), f"{where}.seats")
        if len(seats) != players:
            raise _bad("results_seats", f"{where}.seats")
        for s, seat in enumerate(seats):
            entry = _numbers(seat, _SEAT_KEYS, f"{where}.seats[{s}]")
            _text(_field(entry, "bot", f"{where}.seats[{s}]"), f"{where}.seats[{s}].bot")
            if block["rounds"]:
                _numbers(entry, _QUANTILE_KEYS, f"{where}.seats[{s}]")
        bots = _mapping(_field(block, "bots", where), f"{where}.bots")
        for name, m in bots.items():
            _text(name, f"{where}.bots (a name)")
            _numbers(m, _CI_KEYS, f"{where}.bots.{name[:40]}")
    return results


def to_json(results: dict[str, Any]) -> str:
    """The results as JSON (sorted keys, two-space indent, a final newline).  Refused
    as :func:`check_results` refuses; any other field must be JSON data too
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_RESULTS` for a huge int or a cycle,
    :class:`TypeError` for a value JSON has no form for)."""
    check_results(results)
    try:
        return json.dumps(results, sort_keys=True, indent=2) + "\n"
    except ValueError as err:  # a cycle, or an int too long to write
        raise _bad("results_not_json", "results") from err
    except RecursionError as err:
        raise _bad("results_too_deep", "results") from err


def _ci(m: dict[str, float], fmt: str = "{:.1f}") -> str:
    return f"{fmt.format(m['mean'])} [{fmt.format(m['ci_low'])}, {fmt.format(m['ci_high'])}]"


def _share(m: dict[str, float]) -> str:
    return f"{100 * m['share']:.1f}% [{100 * m['ci_low']:.1f}, {100 * m['ci_high']:.1f}]"


def to_table(results: dict[str, Any]) -> str:
    """A readable summary, one block per ruleset (95 % intervals in brackets).
    Refused as :func:`check_results` refuses."""
    check_results(results)
    lines = [
        f"{results['rounds']} rounds per ruleset from seed {results['seed']}, "
        f"bots {', '.join(results['bots'])} (seats 0..{results['players'] - 1}); "
        "95 % confidence intervals in brackets"
    ]
    for block in results["rulesets"]:
        lines.append("")
        lines.append(f"== {block['label']} (rules {block['fingerprint']})")
        lines.append(f"  round length (turns)     {_ci(block['round_length_turns'])}")
        for reason, m in block["ends"].items():
            lines.append(f"  ended by {_END_NAMES[reason]:<15} {_share(m)}  ({m['count']})")
        lines.append(f"  first-player advantage   {_ci(block['first_player_advantage'])}")
        for seat in block["seats"]:
            lines.append(
                f"  seat {seat['seat']} ({seat['bot']:<6})        {_ci(seat)}"
                f"  median {seat['median']:.0f}, range {seat['min']:.0f}..{seat['max']:.0f}"
            )
        for name, m in block["bots"].items():
            lines.append(f"  bot {name:<20} {_ci(m)}")
    return "\n".join(lines) + "\n"


def to_csv(results: dict[str, Any]) -> str:
    """One row per ruleset and measurement: ruleset, measure, seat, value, ci_low, ci_high.
    Refused as :func:`check_results` refuses."""
    check_results(results)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["ruleset", "measure", "seat", "value", "ci_low", "ci_high"])
    for block in results["rulesets"]:
        label = block["label"]
        m = block["round_length_turns"]
        writer.writerow([label, "round_length_turns", "", m["mean"], m["ci_low"], m["ci_high"]])
        for reason, e in block["ends"].items():
            writer.writerow([label, f"ended_{reason}", "", e["share"], e["ci_low"], e["ci_high"]])
        m = block["first_player_advantage"]
        writer.writerow([label, "first_player_advantage", "", m["mean"], m["ci_low"], m["ci_high"]])
        for seat in block["seats"]:
            writer.writerow(
                [label, "score", seat["seat"], seat["mean"], seat["ci_low"], seat["ci_high"]]
            )
        for name, m in block["bots"].items():
            writer.writerow([label, f"score_{name}", "", m["mean"], m["ci_low"], m["ci_high"]])
    return buffer.getvalue()


def write_plot(results: dict[str, Any], path: str) -> None:
    """Compare the rulesets in one figure: how rounds end, the mean score per seat and
    the first-player advantage, with their 95 % intervals.  Needs matplotlib
    (``pip install 'remi-rules[plot]'``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise RuntimeError("--plot needs matplotlib: pip install 'remi-rules[plot]'") from err
    check_results(results)
    blocks = results["rulesets"]
    labels = [b["label"] for b in blocks]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    x = list(range(len(blocks)))
    bottom = [0.0] * len(blocks)
    for reason, colour in (
        ("closed", "#4c72b0"),
        ("stock_exhausted", "#dd8452"),
        ("max_turns", "#c44e52"),
    ):
        shares = [100 * b["ends"][reason]["share"] for b in blocks]
        axes[0].bar(x, shares, bottom=bottom, label=_END_NAMES[reason], color=colour)
        bottom = [a + s for a, s in zip(bottom, shares, strict=True)]
    axes[0].set_xticks(x, labels)
    axes[0].set_ylabel("% of rounds")
    axes[0].set_title("How rounds end")
    axes[0].legend(fontsize=8)
    players = results["players"]
    width = 0.8 / players
    for seat in range(players):
        means = [b["seats"][seat]["mean"] for b in blocks]
        errs = [b["seats"][seat]["mean"] - b["seats"][seat]["ci_low"] for b in blocks]
        axes[1].bar(
            [i + (seat - (players - 1) / 2) * width for i in x],
            means,
            width,
            yerr=errs,
            label=f"seat {seat} ({blocks[0]['seats'][seat]['bot']})",
            capsize=2,
        )
    axes[1].set_xticks(x, labels)
    axes[1].axhline(0, color="black", linewidth=0.6)
    axes[1].set_title("Mean score per seat")
    axes[1].legend(fontsize=8)
    adv = [b["first_player_advantage"]["mean"] for b in blocks]
    errs = [
        b["first_player_advantage"]["mean"] - b["first_player_advantage"]["ci_low"] for b in blocks
    ]
    axes[2].bar(x, adv, yerr=errs, capsize=3, color="#55a868")
    axes[2].set_xticks(x, labels)
    axes[2].axhline(0, color="black", linewidth=0.6)
    axes[2].set_title("First-player advantage (points)")
    fig.suptitle(f"{results['rounds']} rounds per ruleset, bots {', '.join(results['bots'])}")
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
