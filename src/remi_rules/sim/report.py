"""The simulator's results as text: a table for people, JSON and CSV for programs,
and a plot (matplotlib, imported only when a plot is asked for).

The JSON holds the results only (sorted keys, two-space indent), so two runs with the
same rulesets, bots, rounds and seed compare byte for byte, whatever the backend.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

__all__ = ["to_csv", "to_json", "to_table", "write_plot"]

_END_NAMES = {"closed": "a close", "stock_exhausted": "the stock", "max_turns": "the turn cap"}


def to_json(results: dict[str, Any]) -> str:
    return json.dumps(results, sort_keys=True, indent=2) + "\n"


def _ci(m: dict[str, float], fmt: str = "{:.1f}") -> str:
    return f"{fmt.format(m['mean'])} [{fmt.format(m['ci_low'])}, {fmt.format(m['ci_high'])}]"


def _share(m: dict[str, float]) -> str:
    return f"{100 * m['share']:.1f}% [{100 * m['ci_low']:.1f}, {100 * m['ci_high']:.1f}]"


def to_table(results: dict[str, Any]) -> str:
    """A readable summary, one block per ruleset (95 % intervals in brackets)."""
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
    """One row per ruleset and measurement: ruleset, measure, seat, value, ci_low, ci_high."""
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
