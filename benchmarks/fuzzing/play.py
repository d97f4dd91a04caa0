"""A simple random player over ``Game.legal_steps()`` and seeded sample games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

from remi_rules import (
    variants,
)
from remi_rules.engine import Game, Step, Undo

PRESETS = variants.names()

# -- a simple random policy -------------------------------------------------------------------

_OUT_OF_TURN = {
    "announce_few_tiles": 0.4,
    "announce_atu": 0.3,
    "declare_pe_tabla": 0.03,
    "offer_doubles": 0.5,
    "accept_doubles": 0.9,
    "demand_redeal": 0.05,
}
_TAKE_WEIGHT = {"draw": 6, "take_last_discard": 3, "rupere": 2, "take_atu": 3}
_ACTION_WEIGHT = {"meld": 3, "lay_off": 3, "swap_joker": 6}


def play_randomly(
    game: Game,
    rng: random.Random,
    *,
    max_steps: int = 600,
    on_step: Callable[[Game], None] | None = None,
) -> Counter[str]:
    """Play ``game`` with a random policy over ``game.legal_steps()`` until it ends or
    ``max_steps`` steps were made; call ``on_step(game)`` after each.  It prefers
    takes, then closing, melding, laying off and swapping, and undoes (marking the
    step undone as a dead end for the rest of the turn) when the turn cannot end.
    Returns how many steps of each kind it made."""
    kinds: Counter[str] = Counter()
    tabu: set[Step] = set()
    stack: list[Step] = []
    turn: tuple[int, int] | None = None
    for _ in range(max_steps):
        if game.over:
            break
        state = game.state
        if (state.turn, state.current) != turn:
            turn, tabu, stack = (state.turn, state.current), set(), []
        steps = game.legal_steps()
        step: Step | None = None
        others = [s for s in steps if not s.in_turn]
        rng.shuffle(others)
        for s in others:
            if rng.random() < _OUT_OF_TURN.get(s.kind, 0.1):
                step = s
                break
        if step is None:
            mine = [s for s in steps if s.in_turn and not isinstance(s, Undo) and s not in tabu]
            takes = [s for s in mine if s.kind in _TAKE_WEIGHT]
            actions = [s for s in mine if s.kind in _ACTION_WEIGHT]
            ends = [s for s in mine if s.kind in ("discard", "close")]
            closes = [s for s in ends if s.kind == "close"]
            if takes:
                step = rng.choices(takes, [_TAKE_WEIGHT[s.kind] for s in takes])[0]
            elif closes and rng.random() < 0.9:
                step = closes[0]
            elif actions and (not ends or rng.random() < 0.7):
                step = rng.choices(actions, [_ACTION_WEIGHT[s.kind] for s in actions])[0]
            elif ends:
                step = rng.choice(ends)
            else:  # a dead end: take back the last step and never make it again this turn
                step = Undo()
                tabu.add(stack.pop())
        if step.undoable:
            stack.append(step)
        elif step.in_turn and not isinstance(step, Undo):
            stack = []
        game.apply(step)
        kinds[step.kind] += 1
        if on_step is not None:
            on_step(game)
    return kinds


def sample_games(games: int = 2, *, seed: int = 0, every: int = 25) -> Iterator[Game]:
    """Seeded games of every preset (2, 3 and 4 players in turn) at several points:
    after the deal, every ``every`` steps, and at the end (copies made by replay)."""
    for preset in PRESETS:
        for k in range(games):
            game_seed = seed * 1000 + k
            game = Game.new(variants.get(preset), 2 + (game_seed + len(preset)) % 3, seed=game_seed)
            yield Game.replay(game.record())
            marks: list[int] = []

            def mark(g: Game, marks: list[int] = marks) -> None:
                if len(g.record().steps) % every == 0:
                    marks.append(len(g.record().steps))

            play_randomly(game, random.Random(game_seed), max_steps=400, on_step=mark)
            record = game.record()
            for upto in marks:
                yield Game.replay(record, upto=upto)
            yield game
