"""How the files of tests/data/ were made (run once, by hand, with the code of the
commit that added them; never by the tests).  The files are the contract: every later
version of the library must load them (``tests/test_saved_files.py``).

    PYTHONPATH=src python tests/data/generate.py tests/data
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import attrs

from remi_rules import serde, variants
from remi_rules.bots import GreedyBot
from remi_rules.engine import Game, Match, MatchConfig, play_round

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from fuzzing.play import play_randomly


def _write(out: Path, name: str, text: str) -> None:
    (out / name).write_text(text, encoding="utf-8")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for preset, players, seed in (("clasic", 4, 1), ("online", 3, 2), ("rummy45", 2, 3)):
        rules = variants.get(preset)
        # A round in progress: random play, stopped mid-turn (a pending turn with steps).
        game = Game.new(rules, players, seed=seed)
        steps = 0

        def stop(g: Game) -> None:
            nonlocal steps
            steps += 1

        play_randomly(game, random.Random(seed), max_steps=60 + 7 * seed, on_step=stop)
        _write(out, f"game-{preset}-{players}p-in-progress.json", serde.dumps_game(game))
        _write(out, f"record-{preset}-{players}p-in-progress.json", serde.dumps_record(game))
        _write(
            out,
            f"view-{preset}-{players}p-in-progress.json",
            json.dumps(serde.dump_view(game.view(game.state.current)), sort_keys=True),
        )
        # A finished round, played by the greedy bot (melds, lay-offs, a close).
        done = Game.new(rules, players, seed=seed + 100)
        play_round(done, [GreedyBot() for _ in range(players)])
        _write(out, f"game-{preset}-{players}p-finished.json", serde.dumps_game(done))
        _write(out, f"record-{preset}-{players}p-finished.json", serde.dumps_record(done))
    # A match of three rounds of 3 players, the third in progress.
    rules = attrs.evolve(variants.get("clasic"), max_turns_per_round=40)
    match = Match(rules, 3, MatchConfig(rounds=3, target=None), seed=7)
    for _ in range(2):
        play_round(match.game, [GreedyBot() for _ in range(3)])
        match.next_round()
    play_randomly(match.game, random.Random(7), max_steps=25)
    _write(out, "match-clasic-3p.json", json.dumps(serde.dump_match(match), sort_keys=True))
    # House rules, in both formats (a None knob in TOML is "none").
    house = attrs.evolve(
        variants.get("clasic"), closing_bonus=50, no_announce_penalty=None, max_turns_per_round=300
    )
    _write(out, "house-rules.json", serde.dumps_house_rules(house, "clasic", "json"))
    _write(out, "house-rules.toml", serde.dumps_house_rules(house, "clasic", "toml"))
    online_house = attrs.evolve(variants.get("online"), max_turns_per_round=200)
    _write(out, "house-rules-online.toml", serde.dumps_house_rules(online_house, "online", "toml"))
    _write(
        out, "ruleset-online.json", json.dumps(serde.ruleset_to_dict(online_house), sort_keys=True)
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
