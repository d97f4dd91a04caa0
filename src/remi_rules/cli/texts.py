"""Every sentence the command line writes, in Romanian and English (``--lang ro|en``).

:func:`tr` looks a key up and fills its ``{placeholders}``; the game terms follow the
glossary (docs/glossary.md): *tablă* is the rack, *masă* the table, *șir* the discard
row, *grămadă* the stock, *etalare* the first etalare, *lipire* laying off.

>>> tr("en", "seat", n=2), tr("ro", "seat", n=2)
('seat 2', 'locul 2')
>>> tiles("en", 1), tiles("ro", 3), tiles("ro", 21)
('1 tile', '3 piese', '21 de piese')
"""

from __future__ import annotations

from typing import Final

__all__ = ["LANGS", "TEXT", "tiles", "tr"]

LANGS: Final = ("ro", "en")

# (Romanian, English)
TEXT: Final[dict[str, tuple[str, str]]] = {
    # -- people and places ---------------------------------------------------------------
    "seat": ("locul {n}", "seat {n}"),
    "you": ("tu (locul {n})", "you (seat {n})"),
    "you_short": ("tu", "you"),
    "run": ("suită", "run"),
    "set": ("terță", "set"),
    "points": ("{n} p", "{n} p"),
    "table": ("masa:", "table:"),
    "table_empty": ("masa: goală", "table: empty"),
    "row": ("șir", "row"),
    "row_empty": ("șir: gol", "row: empty"),
    "row_dead": ("(prima piesă e moartă)", "(the first tile is dead)"),
    "stock": ("grămada {n}", "stock {n}"),
    "racks": ("piese în mână: {sizes}", "racks: {sizes}"),
    "atu_up": ("atu {tile} (la vedere)", "atu {tile} (face up)"),
    "atu_taken": ("atu {tile} (luat)", "atu {tile} (taken)"),
    "new_meld": ("nouă", "new"),
    "changed_meld": ("lipită", "laid on"),
    # -- headers -------------------------------------------------------------------------
    "title": (
        "Remi etalat · {rules} · {players} jucători · seed {seed}",
        "Remi etalat · {rules} · {players} players · seed {seed}",
    ),
    "rules_preset": ("{name} (amprenta {fp})", "{name} (fingerprint {fp})"),
    "rules_house": (
        "reguli de casă {name} (amprenta {fp})",
        "house rules {name} (fingerprint {fp})",
    ),
    "players_line": ("jucători: {seats}", "players: {seats}"),
    "start_line": ("atu {tile}; începe {seat}", "atu {tile}; {seat} starts"),
    "greedy": ("greedy", "greedy"),
    "random": ("random", "random"),
    "human": ("om", "human"),
    # -- the end of a round --------------------------------------------------------------
    "round_over": ("joc încheiat: {why}", "round over: {why}"),
    "end_closed": ("{seat} a închis cu {tile}", "{seat} closed with {tile}"),
    "end_pe_tabla": ("{seat} a închis pe tablă cu {tile}", "{seat} closed pe tablă with {tile}"),
    "end_stock": (
        "grămada s-a terminat și nu se mai poate lua nimic",
        "the stock is exhausted and nothing can be taken",
    ),
    "end_max_turns": (
        "s-a atins numărul maxim de ture ({n})",
        "the turn limit ({n}) was reached",
    ),
    "score": ("punctaj:", "score:"),
    "score_line": (
        "{seat}: etalat {melded} + lipiri {credits} - tablă {rack} + închidere {closing}"
        " + atu {atu}{penalty} x{mult} = {total}",
        "{seat}: melded {melded} + credits {credits} - rack {rack} + closing {closing}"
        " + atu {atu}{penalty} x{mult} = {total}",
    ),
    "penalty_unopened": (" penalizare -{n} (neetalat)", " penalty -{n} (unopened)"),
    "penalty_no_announcement": (
        " penalizare -{n} (nu a anunțat)",
        " penalty -{n} (no announcement)",
    ),
    "double_game": ("joc dublu: {why}", "double game: {why}"),
    "why_atu_joker": ("atuul e joker", "the atu is a joker"),
    "why_atu_ace": ("atuul e as", "the atu is an ace"),
    "winners": ("câștigă: {seats}", "winner(s): {seats}"),
    "not_over": (
        "runda nu s-a încheiat: tura {turn}, urmează {seat}",
        "the round is not over: turn {turn}, {seat} to move",
    ),
    # -- matches -------------------------------------------------------------------------
    "match_title": (
        "Meci de remi etalat · {rules} · {players} jucători · seed {seed} · {length}",
        "Remi etalat match · {rules} · {players} players · seed {seed} · {length}",
    ),
    "match_rounds": ("{n} runde", "{n} rounds"),
    "match_target": ("până la {n} de puncte", "to {n} points"),
    "round_header": ("== runda {n}: începe {seat}", "== round {n}: {seat} starts"),
    "round_result": ("runda {n}: {why}", "round {n}: {why}"),
    "totals": ("total după runda {n}: {totals}", "totals after round {n}: {totals}"),
    "match_over": (
        "meciul s-a încheiat după {n} runde; câștigă: {seats}",
        "match over after {n} rounds; winner(s): {seats}",
    ),
    # -- check ---------------------------------------------------------------------------
    "invalid": ("invalidă", "invalid"),
    "opening_ok": (
        "etalare: {points} p (minimul {minimum}): validă",
        "opening: {points} p (minimum {minimum}): valid",
    ),
    "opening_bad": (
        "etalare invalidă [{code}]: {why}",
        "invalid opening [{code}]: {why}",
    ),
    "opening_skipped": (
        "etalare: neverificată, o formație nu este validă",
        "opening: not checked, a meld is invalid",
    ),
    "opening_copies": (
        "etalare invalidă: {tile} apare de {count} ori, dar setul are doar {limit}",
        "invalid opening: {tile} is used {count} times, but the set holds only {limit}",
    ),
    # -- variants ------------------------------------------------------------------------
    "knob": ("opțiune", "knob"),
    "rule_ids": ("reguli", "rules"),
    "no_differences": ("nicio diferență", "no differences"),
    "group_opening": ("etalare", "opening"),
    "group_rupere": ("rupere", "rupere"),
    "group_jokers": ("jokeri", "jokers"),
    "group_closing": ("închidere", "closing"),
    "group_atu": ("atu", "atu"),
    "group_scoring": ("punctaj", "scoring"),
    "group_deal": ("împărțire, duble, grămadă", "deal, doubles, stock"),
    "group_melds": ("formații", "melds"),
    # -- play ----------------------------------------------------------------------------
    "play_intro": (
        "Tu ești locul {n}. Scrie help pentru comenzi.",
        "You are seat {n}. Type help for the commands.",
    ),
    "your_turn": ("-- rândul tău (tura {turn}) --", "-- your turn (turn {turn}) --"),
    "your_rack": ("tabla ta ({n}): {tiles}", "your rack ({n}): {tiles}"),
    "to_do": ("de făcut: {items}", "still to do: {items}"),
    "ob_take": ("ia o piesă", "take a tile"),
    "ob_meld_taken_tile": ("pune piesa luată într-o formație nouă", "meld the tile you took"),
    "ob_close": ("închide în această tură", "close in this turn"),
    "ob_opening": ("o etalare validă", "a valid opening"),
    "ob_meld_swapped_joker": (
        "pune jokerul luat într-o formație nouă",
        "meld the joker you took",
    ),
    "starter_discards": ("în prima tură doar arunci o piesă", "in the first turn you only discard"),
    "done": ("gata: {step}", "done: {step}"),
    "undone": ("luat înapoi: {step}", "taken back: {step}"),
    "you_drew": ("ai tras {tile}", "you drew {tile}"),
    "refused": ("nu se poate [{code}]: {why}", "not allowed [{code}]: {why}"),
    "unreadable": ("nu înțeleg [{code}]: {why}", "cannot read that [{code}]: {why}"),
    "your_move": (
        "e rândul tău: scrie o mutare, hint sau help",
        "it is your turn: type a step, hint or help",
    ),
    "announce_prompt": (
        "Ai {count}: anunță acum (announce) sau apasă Enter ca să continui.",
        "You hold {count}: announce now (announce) or press Enter to go on.",
    ),
    "not_now": (
        "acum poți doar să anunți (announce) sau să continui (Enter)",
        "now you may only announce (announce) or go on (Enter)",
    ),
    "hint": ("sugestie: {reason}", "hint: {reason}"),
    "no_hint": ("nicio sugestie: {why}", "no hint: {why}"),
    "input_ended": (
        "intrarea s-a terminat: runda rămâne neterminată (tura {turn}).",
        "end of input: the round is left unfinished (turn {turn}).",
    ),
    "quit": (
        "ai ieșit: runda rămâne neterminată (tura {turn}).",
        "you quit: the round is left unfinished (turn {turn}).",
    ),
    "saved": ("salvat în {path}", "saved to {path}"),
    "help": (
        "Comenzi (piesele ca 7R, J sau J(=8R); numerele ca pe ecran):\n"
        "  draw | trage                 trage din grămadă\n"
        "  take | ia                    ia ultima piesă aruncată\n"
        "  rupere 9R | rupere 3         rupe șirul la piesa 9R sau la poziția 3\n"
        "  atu                          ia atuul (ca să închizi)\n"
        "  meld 5R 6R 7R | etalează ... pune jos o formație (suita în ordine)\n"
        "  lay 9G on 2 [low|high]       lipește 9G la formația 2 (lipește 9G la 2)\n"
        "  swap 6R on 3                 pune 6R în locul jokerului din formația 3\n"
        "  discard 13R | aruncă 13R     aruncă o piesă și încheie tura\n"
        "  close 2A | închide 2A        închide cu ultima piesă\n"
        "  announce | anunță            anunță că mai ai puține piese\n"
        "  announce atu | anunță atu    anunță perechea atuului\n"
        "  pe tabla                     anunță că joci pe tablă\n"
        "  undo | anulează              ia înapoi ultima mutare din tură\n"
        "  hint | sugestie              cea mai bună tură, cu explicația ei\n"
        "  show | arată                 arată din nou masa și tabla ta\n"
        "  help | ajutor                această listă\n"
        "  quit | ieșire                oprește jocul",
        "Commands (tiles as 7R, J or J(=8R); numbers as shown):\n"
        "  draw                         draw from the stock\n"
        "  take                         take the last discard\n"
        "  rupere 9R | rupere 3         break the row at tile 9R or at position 3\n"
        "  atu                          take the atu (to close with it)\n"
        "  meld 5R 6R 7R                put a meld down (a run in order)\n"
        "  lay 9G on 2 [low|high]       lay 9G off on meld 2\n"
        "  swap 6R on 3                 put 6R in the joker's place in meld 3\n"
        "  discard 13R                  discard a tile, ending the turn\n"
        "  close 2A                     close with your last tile\n"
        "  announce                     announce that you hold few tiles\n"
        "  announce atu                 announce the atu's twin\n"
        "  pe tabla                     declare that you play pe tablă\n"
        "  undo                         take back the last step of the turn\n"
        "  hint                         the best turn, and why\n"
        "  show                         show the table and your rack again\n"
        "  help                         this list\n"
        "  quit                         stop playing\n"
        "(Romanian words work too: trage, ia, etalează, lipește, aruncă, închide ...)",
    ),
    # -- replay --------------------------------------------------------------------------
    "replay_title": ("Reluare: {kind} din {path}", "Replay: {kind} from {path}"),
    "kind_game": ("joc salvat", "saved game"),
    "kind_record": ("înregistrare", "record"),
    "kind_match": ("meci", "match"),
    "replay_rules": ("{rules} · {players} jucători", "{rules} · {players} players"),
    # -- usage errors --------------------------------------------------------------------
    "cannot_read": ("nu pot citi {path}: {why}", "cannot read {path}: {why}"),
    "cannot_write": ("nu pot scrie {path}: {why}", "cannot write {path}: {why}"),
    "bad_save": ("{path}: {why}", "{path}: {why}"),
    "not_a_save": (
        "{path} nu este un joc salvat (kind {kind}): aștept game, record sau match",
        "{path} is not a saved game (kind {kind}): expected game, record or match",
    ),
    "sim_bad": (
        "simularea nu poate porni: {why}",
        "the simulation cannot start: {why}",
    ),
    "sim_stopped": (
        "simularea a fost oprită ({signal}); nu s-a scris niciun rezultat",
        "the simulation was stopped ({signal}); no results were written",
    ),
    "unknown_bot": (
        "bot necunoscut „{name}”: alege dintre {known}",
        "unknown bot '{name}': choose from {known}",
    ),
    "bot_count": (
        "--bots: {given} boți pentru {needed} locuri (sau un singur nume pentru toate)",
        "--bots: {given} bots for {needed} seats (or one name for all of them)",
    ),
    "bad_seat": ("--seat {seat}: locurile sunt 0–{last}", "--seat {seat}: the seats are 0-{last}"),
    "match_only": (
        "{option} merge doar cu --match",
        "{option} goes with --match only",
    ),
}


def tr(lang: str, key: str, /, **details: object) -> str:
    """The sentence ``key`` in ``lang`` (``"ro"`` or ``"en"``), its placeholders filled."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; use 'ro' or 'en'")
    return TEXT[key][LANGS.index(lang)].format(**details)


def tiles(lang: str, n: int) -> str:
    """``n`` tiles, in words: ``1 tile``, ``3 tiles``; ``1 piesă``, ``3 piese``,
    ``20 de piese`` (Romanian puts *de* after 20 and up)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; use 'ro' or 'en'")
    if lang == "en":
        return "1 tile" if n == 1 else f"{n} tiles"
    if n == 1:
        return "1 piesă"
    return f"{n} piese" if 0 < n % 100 < 20 else f"{n} de piese"
