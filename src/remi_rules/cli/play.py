"""``remi-rules play``: a round in the terminal against bots.

The player's turn shows the table, the discard row with its positions, the rack
sizes, the stock and the atu, his rack sorted, and what the turn still owes
(``state.obligations()``: the take, TURN-02; the taken tile's meld, RUPE-01; the
opening, OPEN-02/03; ...).  Steps are typed in the notation of
:mod:`remi_rules.notation`, short form (``draw``, ``take``, ``rupere 9R``, ``meld 5R
6R 7R``, ``lay 9G on 2``, ``swap 6R on 3``, ``discard 13R``, ``close 2A``, ``undo``, in
English or Romanian); ``hint`` prints the hint's reason and steps (ONLINE-06),
``show`` the table again, ``help`` the notation, ``quit`` stops.  A refused step
prints the engine's reason (``IllegalStepError.message(lang)``) and changes nothing;
a misspelt word gets the closest one ("did you mean draw?").  At a terminal the line
is edited with readline (arrows, history, Tab completes the words), where Python has
it.  ``--resume FILE`` goes on with a saved game (JSON) or a text record;
``--save FILE`` writes the game when it stops: a text record
(:func:`remi_rules.serde.dump_record_text`) for a name ending ``.txt`` or ``.remi``,
else JSON.
After his discard, a player left with few tiles is asked whether to announce it
(ANNOUNCE-01/02), where the rules do not announce for him (ANNOUNCE-04).

Commands are read line by line from stdin, so the game can be scripted; the end of
the input ends the game cleanly.  The other seats are bots (``--bots``); the engine
announces where the rules make it automatic (ANNOUNCE-04).
"""

from __future__ import annotations

import argparse
import datetime
import enum
import random
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final, TextIO

from .. import variants
from .._hint_explain import few_tiles_note
from ..engine import (
    AnnounceFewTiles,
    Bot,
    Draw,
    Game,
    GameState,
    Obligation,
    PlayerView,
    Rupere,
    Step,
    TakeLastDiscard,
    Undo,
)
from ..engine.transition import NoChance, apply_step
from ..errors import HintError, IllegalStepError, NotationError, NotationErrorCode
from ..hints import hint
from ..notation import STEP_WORDS, format_step, match_verb, parse_step, step_words, suggest
from ..table import Table
from .common import (
    AUTOMATION,
    INVALID,
    OK,
    CliError,
    RulesChoice,
    add_lang,
    add_rules,
    chosen_rules,
    load_game_file,
    make_bots,
    parse_bot_kinds,
    save_game,
)
from .narrate import TurnLog, apply_logged, step_view
from .render import (
    end_lines,
    ids_text,
    rack_text,
    row_text,
    seat_name,
    status_text,
    table_lines,
)
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["META_WORDS", "Meta", "add_parser", "parse_command", "run"]


class Meta(enum.StrEnum):
    """A command of the terminal, not a step of the game (its catalogue word is
    ``word:<value>``)."""

    HINT = "hint"
    HELP = "help"
    QUIT = "quit"
    SHOW = "show"
    PASS = "pass"
    """An empty line (or ``pass``): go on without a step."""


META_WORDS: Final = tuple(m.value for m in Meta)
"""The keys of the terminal's own words in the catalogues."""


def parse_command(text: str, view: PlayerView, lang: str = "en") -> Step | Meta:
    """The step (:func:`remi_rules.notation.parse_step`, short form for the seat of
    ``view``) or terminal command typed as ``text``.  Unlike the library, a rupere at
    the last row position is the take of the last discard, and an unknown word is
    matched against the terminal's words too ("did you mean hint?")."""
    words = text.replace(",", " ").split()
    if not words:
        return Meta.PASS
    found = match_verb(words, lang, META_WORDS)
    if found is not None and match_verb(words, lang) is None:
        key, length = found
        if len(words) > length:
            raise NotationError(
                NotationErrorCode.EXTRA, text=" ".join(words[length:]), word=words[0]
            )
        return Meta(key)
    try:
        step = parse_step(text, view, lang)
    except NotationError as err:
        if err.code is NotationErrorCode.UNKNOWN_COMMAND:
            details = dict(err.details)
            details["suggestion"] = suggest(str(details.get("word", "")), lang, _ALL_WORDS)
            raise NotationError(err.code, **details) from None
        raise
    if isinstance(step, Rupere) and step.index == len(view.row) - 1:
        return TakeLastDiscard()
    return step


_ALL_WORDS: Final = (*STEP_WORDS, *META_WORDS)


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "play",
        help="play a round in the terminal against bots (commands on stdin)",
        description="Play a round against bots.  Type steps such as draw, take, rupere 9R, "
        "meld 5R 6R 7R, lay 9G on 2, swap 6R on 3, discard 13R, close 2A, undo; hint, show, "
        "help and quit.  Commands are read from stdin, so a game can be scripted.",
    )
    add_rules(parser)
    parser.add_argument("--seed", type=int, help="the deal's seed (default: a random one)")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=4, help="2, 3 or 4 (default: 4)"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default: 0)")
    parser.add_argument(
        "--bots",
        default="greedy",
        metavar="KIND[,KIND...]",
        help="the other seats (greedy, fast or random), one per seat or one for all "
        "(default: greedy)",
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="save the game when it stops: a text record for FILE.txt or FILE.remi, else JSON",
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with a saved game (JSON) or a text record (--players and the rules "
        "come from it)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="stop with exit code 1 at the first unreadable or refused step (for scripts)",
    )
    add_lang(parser)
    return parser


_OBLIGATION_KEY = {
    Obligation.TAKE: "ob_take",
    Obligation.MELD_TAKEN_TILE: "ob_meld_taken_tile",
    Obligation.CLOSE: "ob_close",
    Obligation.OPENING: "ob_opening",
    Obligation.MELD_SWAPPED_JOKER: "ob_meld_swapped_joker",
}


class _Session:
    """One game at the terminal: the engine, the bots, the player's seat, the streams."""

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        you: int,
        lang: str,
        out: TextIO,
        stdin: TextIO,
        *,
        strict: bool,
    ) -> None:
        self.game = game
        self.bots = bots
        self.you = you
        self.lang = lang
        self.out = out
        self.stdin = stdin
        self.strict = strict
        self.log = TurnLog(lang, you=you)
        self._shown_turn = 0
        self._asked_turn = 0
        """The turn in which the player was asked whether to announce."""
        self._declined_turn = 0
        """The turn in which he chose not to announce."""
        self._echo = not _isatty(stdin)
        self._editing = (
            stdin is sys.stdin and out is sys.stdout and _isatty(stdin) and _line_editing(lang)
        )

    # -- output ----------------------------------------------------------------------------

    def view_of(self, state: GameState) -> PlayerView | None:
        """The player's view of ``state``: his steps are written in its short form."""
        return step_view(state, self.you)

    def say(self, key: str, **details: object) -> None:
        self.write([tr(self.lang, key, **details)])

    def write(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.out.write(line + "\n")

    def apply(self, step: Step, *, seat: int | None = None) -> None:
        """Apply ``step`` sent by ``seat`` (IllegalStepError if refused) and tell it in
        the turn log."""
        before = self.game.state
        entries = apply_logged(
            self.game, step, self.lang, reveal=lambda s: s == self.you, seat=seat
        )
        for k, entry in enumerate(entries):
            self.write(self.log.add(entry, before if k == 0 else self.game.state))

    def show(self) -> None:
        """The position as the player sees it: table, row, counts, rack, what is owed."""
        view = self.game.view(self.you)
        lang = self.lang
        lines = [
            tr(lang, "your_turn", turn=view.turn) if view.current == self.you else "",
            *table_lines(view.table, lang, you=self.you),
            row_text(view.row, view.table, lang, dead_first=view.row_dead_first),
            status_text(view, lang),
            tr(lang, "your_rack", n=len(view.rack), tiles=rack_text(view.rack, view.table)),
        ]
        turn = view.own_turn
        if turn is not None:
            todo = [tr(lang, _OBLIGATION_KEY[o]) for o in self.game.state.obligations()]
            if turn.number == 1:
                todo.append(tr(lang, "starter_discards"))
            if todo:
                lines.append(tr(lang, "to_do", items="; ".join(todo)))
        self.write(line for line in lines if line)

    def show_hint(self) -> None:
        """The hint's reason and steps, in the notation the player types (ONLINE-06);
        after his discard, the announcement he may still make (ANNOUNCE-02)."""
        state = self.game.state
        penalty = state.rules.no_announce_penalty
        if state.current != self.you and penalty is not None and self.may_announce():
            count = len(state.rack(self.you))
            note = few_tiles_note(count, penalty)
            self.say("hint", reason=note.message(self.lang))
            announce = AnnounceFewTiles(self.you)
            self.out.write(f"  1) {format_step(announce, self.view_of(state), self.lang)}\n")
            return
        try:
            plan = hint(self.game.view(self.you))
        except HintError as err:
            self.say("no_hint", why=err.message(self.lang))
            return
        self.say("hint", reason=plan.reason(self.lang))
        for number, step in enumerate(plan.steps, start=1):
            self.out.write(f"  {number}) {format_step(step, self.view_of(state), self.lang)}\n")
            if isinstance(step, Draw):
                break
            try:  # the next step is written for the position after this one
                state, _ = apply_step(state, step, NoChance())
            except IllegalStepError:
                break

    # -- input -----------------------------------------------------------------------------

    def read(self) -> str | None:
        """The next command line, or ``None`` at the end of the input (at a terminal,
        edited with readline: :func:`_line_editing`)."""
        if self._editing:
            self.out.flush()
            try:
                return input("> ")
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write("> ")
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.out.write("\n")
            return None
        line = line.rstrip("\r\n")
        if self._echo:
            self.out.write(line + "\n")
        return line

    def refused(self, key: str, code: object, why: str) -> int | None:
        self.say(key, code=code, why=why)
        return INVALID if self.strict else None

    def prompt(self, *, optional: bool) -> int | None:
        """Read and carry out one command of the player; an exit code ends the game.
        ``optional``: it is not his turn, he may only announce (or press Enter)."""
        game, lang = self.game, self.lang
        if not optional and self._shown_turn != game.state.turn:
            self._shown_turn = game.state.turn
            self.show()
        elif optional and self._asked_turn != game.state.turn:
            self._asked_turn = game.state.turn
            self.say("announce_prompt", count=len(game.state.rack(self.you)))
        line = self.read()
        if line is None:
            self.write(self.log.finish(game.state))
            self.say("input_ended", turn=game.state.turn)
            return OK
        try:
            command = parse_command(line, game.view(self.you), lang)
        except NotationError as err:
            return self.refused("unreadable", err.code, err.message(lang))
        if isinstance(command, Meta):
            return self.meta(command, optional=optional)
        if optional and command.in_turn:
            self.say("not_now")
            return INVALID if self.strict else None
        return self.step(command)

    def meta(self, command: Meta, *, optional: bool) -> int | None:
        game = self.game
        if command is Meta.QUIT:
            self.write(self.log.finish(game.state))
            self.say("quit", turn=game.state.turn)
            return OK
        if command is Meta.HELP:
            self.say("help")
        elif command is Meta.SHOW:
            self.show()
        elif command is Meta.HINT:
            self.show_hint()
        elif optional:  # Enter: no announcement
            self._declined_turn = game.state.turn
        else:
            self.say("your_move")
        return None

    def step(self, step: Step) -> int | None:
        """Apply a typed step, or say why the engine refuses it (nothing changes)."""
        game, lang = self.game, self.lang
        before = game.state
        made = game.record().steps
        try:
            self.apply(step, seat=self.you)  # "seat 2: announce" is not the player's
        except IllegalStepError as err:
            return self.refused("refused", err.code, err.message(lang))
        state = game.state
        if isinstance(step, Undo):
            # The state after an undo is the one the undone step was made from.
            self.say("undone", step=format_step(_undone(made), self.view_of(state), lang))
        elif isinstance(step, Draw):
            self.say("you_drew", tile=ids_text(state.rack(self.you)[-1:], state.table))
        else:
            self.say("done", step=format_step(step, self.view_of(before), lang))
        self.write(_changed_melds(before.table, state.table, lang, self.you))
        if state.current == self.you and state.pending is not None and step.in_turn:
            rack = state.rack(self.you)
            self.say("your_rack", n=len(rack), tiles=rack_text(rack, state.table))
        return None

    # -- the game --------------------------------------------------------------------------

    def may_announce(self) -> bool:
        """The player's announcement window is open (ANNOUNCE-02), the rules leave it
        to him (not ANNOUNCE-04's automatic announcement) and he has not declined."""
        state = self.game.state
        return (
            state.announce_window == self.you
            and self._declined_turn != state.turn
            and self.game.can(AnnounceFewTiles(self.you))
        )

    def react(self) -> None:
        """Each bot's out-of-turn step, if it has one (an announcement)."""
        for seat, bot in self.bots.items():
            react = getattr(bot, "react", None)
            step = None if react is None or self.game.over else react(self.game.view(seat))
            if step is not None:
                self.apply(step)

    def play(self) -> int:
        game = self.game
        while not game.over:
            self.react()
            if game.over:
                break
            current = game.state.current
            if current == self.you or self.may_announce():
                if self.log.mover != self.you:
                    self.write(self.log.finish(game.state))
                code = self.prompt(optional=current != self.you)
                if code is not None:
                    return code
                continue
            self.apply(self.bots[current].choose(game.view(current)))
        self.write(self.log.finish(game.state))
        result = game.result()
        assert result is not None
        self.write(["", *end_lines(game.state, result, self.lang, you=self.you)])
        return OK


def _undone(steps: Sequence[Step]) -> Step:
    """The step an :class:`Undo` made after ``steps`` takes back: the last in-turn
    step not already taken back."""
    pending = 0
    for step in reversed(steps):
        if isinstance(step, Undo):
            pending += 1
        elif step.in_turn:
            if not pending:
                return step
            pending -= 1
    return Undo()


def _changed_melds(before: Table, after: Table, lang: str, you: int) -> list[str]:
    """The melds a step put down (``+``) or changed (``~``); the whole table when an
    undo took a meld back."""
    if len(after.melds) < len(before.melds):
        return table_lines(after, lang, you=you, indent="  ")
    marks: dict[int, str] = {}
    for index, meld in enumerate(after.melds):
        if index >= len(before.melds):
            marks[index] = "+"
        elif before.melds[index].ids != meld.ids:
            marks[index] = "~"
    if not marks:
        return []
    return table_lines(after, lang, you=you, only=sorted(marks), marks=marks, indent="  ")


def _line_editing(lang: str) -> bool:
    """Turn on readline for :func:`input` (arrows, history, Tab completing the words of
    ``lang`` and English); False where Python has no readline (Windows)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without it
        return False
    words = sorted(
        {
            " ".join(phrase)
            for key in _ALL_WORDS
            for phrase in _phrases_of(key, lang)
            if phrase and phrase[0] not in ("?",)
        }
    )

    def complete(text: str, state: int) -> str | None:
        found = [w for w in words if w.startswith(text.lower())]
        return found[state] if state < len(found) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")
    readline.parse_and_bind("tab: complete")
    return True


def _phrases_of(key: str, lang: str) -> list[tuple[str, ...]]:
    """The one-word forms of ``key`` the completion offers (the written word in
    ``lang``, diacritics kept)."""
    written = step_words(lang).get(key) if key in STEP_WORDS else None
    if written is None:
        from .. import _i18n as i18n

        written = i18n.template(f"word:{key}", lang)
    return [tuple(written.split()[:1])]


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run(args: argparse.Namespace, out: TextIO) -> int:
    lang: str = args.lang
    you: int = args.seat
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    resumed = args.resume is not None
    if resumed:
        game = load_game_file(args.resume, lang, seed=seed)
        game.automation = AUTOMATION
        players = game.state.players
        rules = game.rules
        name = variants.name_of(rules)
        choice = RulesChoice(rules, name or "", preset=name is not None)
    else:
        choice = chosen_rules(args)
        players = args.players
    if not 0 <= you < players:
        raise CliError("bad_seat", seat=you, last=players - 1)
    others = [s for s in range(players) if s != you]
    kinds = parse_bot_kinds(args.bots, len(others))
    kind_of = dict(zip(others, kinds, strict=True))
    if not resumed:
        names = [tr(lang, "you_short") if s == you else kind_of[s] for s in range(players)]
        game = Game.new(choice.rules, names, seed=seed, automation=AUTOMATION)
    state = game.state
    seats = ", ".join(
        seat_name(s, lang, you) if s == you else f"{seat_name(s, lang)} {tr(lang, kind_of[s])}"
        for s in range(players)
    )
    head = (
        tr(lang, "resumed", rules=choice.label(lang), players=players, path=args.resume)
        if resumed
        else tr(lang, "title", rules=choice.label(lang), players=players, seed=seed)
    )
    lines = [head, tr(lang, "players_line", seats=seats)]
    if resumed:
        lines.append(
            tr(lang, "resumed_at", turn=state.turn, seat=seat_name(state.current, lang, you))
        )
    else:
        lines.append(
            tr(
                lang,
                "start_line",
                tile=state.table.tile(state.atu),
                seat=seat_name(state.starter, lang, you),
            )
        )
    lines += [tr(lang, "play_intro", n=you, help=step_words_help(lang)), ""]
    out.write("\n".join(lines) + "\n")
    session = _Session(
        game, make_bots(kinds, others, seed), you, lang, out, sys.stdin, strict=args.strict
    )
    try:
        code = session.play()
    except KeyboardInterrupt:
        out.write("\n")
        session.say("quit", turn=game.state.turn)
        code = OK
    if args.save:
        today = datetime.date.today()
        save_game(args.save, game, lang, seed=None if resumed else seed, date=today)
        session.say("saved", path=args.save)
    return code


def step_words_help(lang: str) -> str:
    """The word of ``help`` in ``lang`` (the intro line names it)."""
    from .. import _i18n as i18n

    return i18n.template("word:help", lang)
