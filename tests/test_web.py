"""The reference web table's server (docs/web.md), through Starlette's test client: the
lobby's API, the WebSocket protocol, every adversarial message, reconnecting with a
token, a restart from the state folder and the privacy of each seat on the wire."""

from __future__ import annotations

import io
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_support import receive_until, require

from remi_rules import serde, variants
from remi_rules.engine import Game, Match, MatchConfig
from remi_rules.tiles import tile_of

require("starlette.testclient")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from remi_rules.notation import format_step  # noqa: E402
from remi_rules.web import protocol  # noqa: E402
from remi_rules.web.app import create_app, page_strings  # noqa: E402
from remi_rules.web.registry import Registry  # noqa: E402
from remi_rules.web.specs import AUTOMATION, TableSpec  # noqa: E402
from remi_rules.web.store import Store  # noqa: E402
from remi_rules.web.tables import Client  # noqa: E402

STATIC = Path(__file__).parents[1] / "src" / "remi_rules" / "web" / "static"
HUMANS_AND_BOTS = {"seats": ["human", "greedy", "greedy", "greedy"], "variant": "clasic"}


@contextmanager
def served(registry: Registry | None = None) -> Iterator[tuple[TestClient, Registry]]:
    reg = registry if registry is not None else Registry(seed=5)
    with TestClient(create_app(reg)) as client:
        yield client, reg


def new_table(client: TestClient, spec: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/tables", json=spec)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def token_of(link: dict[str, Any]) -> str:
    return str(link["url"].split("token=")[1])


def my_turn(message: dict[str, Any]) -> bool:
    return message["type"] == "update" and bool(message["legal"])


# -- the page and the lobby --------------------------------------------------------------------


def test_the_page_its_files_and_its_strings_are_served() -> None:
    with served() as (client, _):
        page = client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert client.get("/t/anything").text == page.text
        for name in ("app.js", "style.css"):
            assert client.get(f"/static/{name}").status_code == 200
        config = client.get("/api/config").json()
        assert config["variants"] == list(variants.names())
        assert config["max_message_bytes"] == serde.MAX_MESSAGE_BYTES
        ro = client.get("/api/i18n/ro").json()
        assert ro["hint"] == "Sugestie" and ro["row"] == "Șirul"
        assert client.get("/api/i18n/xx").status_code == 404


def test_every_string_the_page_uses_is_in_both_catalogues() -> None:
    """The page has no translation table of its own: each key it looks up (``t("…")``,
    ``data-t="…"``, and the keys it builds from a step, event or score kind) is a
    ``web:`` entry of every catalogue."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\("([a-z_]+)"\s*[,)]""", script))
    used |= set(re.findall(r'data-t="([a-z_]+)"', html))
    used |= set(re.findall(r'button\("([a-z_]+)"', script))
    from remi_rules.engine import STEP_TYPES
    from remi_rules.scoring import MultiplierReason, PenaltyKind

    used |= {f"step_{s.kind}" for s in STEP_TYPES}
    used |= {f"mult_{r.value}" for r in MultiplierReason}
    used |= {f"penalty_{p.value}" for p in PenaltyKind}
    used |= {f"end_{r}" for r in ("closed", "stock_exhausted", "max_turns")}
    en, ro = page_strings("en"), page_strings("ro")
    assert used - set(en) == set()
    assert set(en) == set(ro)
    assert {k for k in en if en[k] == ro[k]} <= {
        "title",
        "atu",
        "step_rupere",
        "spectator",
        "declared_pe_tabla",
        "total",
        "term_total",
    }


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"seats": ["human"]}, "bad_table"),
        ({"seats": ["human", "wizard"]}, "bad_table"),
        ({"seats": ["human", "greedy"], "variant": "chess"}, "bad_table"),
        ({"seats": ["human", "greedy"], "rounds": 0}, "bad_table"),
        ({"seats": ["human", "greedy"], "colour": "red"}, "bad_table"),
        (
            {
                "seats": ["human", "greedy"],
                "house_rules": '{"base": "clasic", "overrides": {"closing_bonus": "lots"}}',
            },
            None,
        ),
    ],
)
def test_a_bad_table_request_is_refused_with_a_code(body: dict[str, Any], code: str | None) -> None:
    with served() as (client, reg):
        answer = client.post("/api/tables?lang=ro", json=body)
        assert answer.status_code == 400
        error = answer.json()["error"]
        if code is None:  # the library's own ruleset error, in Romanian
            assert error["code"].startswith("ruleset_") or error["code"] == "wrong_type"
        else:
            assert error["code"] == code
        assert error["message"] and not reg.tables


def test_a_house_rules_table_plays_under_those_rules() -> None:
    house = 'base = "online"\n\n[overrides]\nclosing_bonus = 77\n'
    with served() as (client, reg):
        data = new_table(client, {"seats": ["human", "random"], "house_rules": house})
        table = reg.tables[data["id"]]
        assert table.match.rules.closing_bonus == 77
        assert table.match.rules == serde.loads_house_rules(house, "toml")
        assert client.get("/api/tables").json()[0]["rules"] == "online+"


def test_the_lobby_refuses_other_sites_and_huge_bodies() -> None:
    with served() as (client, reg):
        other = client.post(
            "/api/tables", json=HUMANS_AND_BOTS, headers={"origin": "http://evil.example"}
        )
        assert other.status_code == 403 and other.json()["error"]["code"] == "bad_origin"
        huge = client.post("/api/tables", content=b"{" + b" " * 40_000 + b"}")
        assert huge.status_code == 413
        assert client.post("/api/tables", content=b"{nope").json()["error"]["code"] == "bad_json"
        assert not reg.tables
        same = client.post(
            "/api/tables", json=HUMANS_AND_BOTS, headers={"origin": "http://testserver"}
        )
        assert same.status_code == 201
        listed = client.get("/api/tables").json()
        assert [t["id"] for t in listed] == [same.json()["id"]]
        assert "token" not in json.dumps(listed)


# -- the protocol --------------------------------------------------------------------------------


def test_a_seat_plays_its_legal_steps_and_a_refusal_changes_nothing() -> None:
    with served() as (client, reg):
        data = new_table(client, HUMANS_AND_BOTS)
        table = reg.tables[data["id"]]
        with client.websocket_connect(
            f"/ws/{data['id']}?token={token_of(data['links'][0])}&lang=ro"
        ) as ws:
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            assert len(welcome["tiles"]) == 106 and welcome["tiles"][104]["joker"]
            update = receive_until(ws, my_turn)
            game = table.match.game
            assert update["view"] == serde.dump_view(game.view(0), with_rules=False)
            assert [e["step"] for e in update["legal"]] == [
                serde.dump_step(s) for s in game.legal_steps(0)
            ]
            assert all(
                e["finishable"] is None or isinstance(e["finishable"], bool)
                for e in update["legal"]
            )
            # a refused step: the library's code and Romanian message; nothing changes
            before = serde.dumps_game(game)
            ws.send_json({"type": "step", "step": {"kind": "discard", "tile": 999}})
            refused = ws.receive_json()
            assert refused["type"] == "refused"
            assert refused["error"]["code"] == "state_out_of_range"
            rack = set(update["view"]["rack"])
            not_mine = next(i for i in range(104) if i not in rack)
            ws.send_json({"type": "step", "step": {"kind": "meld", "tiles": [not_mine, 1, 2]}})
            refused = ws.receive_json()
            assert refused["type"] == "refused" and refused["error"]["message"]
            assert serde.dumps_game(game) == before
            # the hint, with its reason; its first step is legal and is applied
            ws.send_json({"type": "hint"})
            hinted = ws.receive_json()
            assert hinted["type"] == "hint" and hinted["reason"]
            first = hinted["steps"][0]["step"]
            assert first in [e["step"] for e in update["legal"]]
            ws.send_json({"type": "step", "step": first})
            after = receive_until(ws, lambda m: m["type"] == "update" and m["log"])
            assert after["log"][0]["seat"] == 0 and after["log"][0]["kind"] == first["kind"]
            assert serde.dump_step(game.record().steps[0]) == first or game.record().steps


def test_the_language_switch_changes_the_refusals() -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        with client.websocket_connect(f"/ws/{data['id']}?token={token_of(data['links'][0])}") as ws:
            receive_until(ws, my_turn)
            ws.send_json({"type": "step", "step": {"kind": "undo"}})
            english = ws.receive_json()["error"]
            ws.send_json({"type": "lang", "lang": "ro"})
            assert receive_until(ws, lambda m: m["type"] == "update")["fresh"]
            ws.send_json({"type": "step", "step": {"kind": "undo"}})
            romanian = ws.receive_json()["error"]
            assert english["code"] == romanian["code"]
            assert english["message"] != romanian["message"]
            ws.send_json({"type": "lang", "lang": "xx"})
            assert ws.receive_json()["error"]["code"] == "bad_lang"


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": 7}', "bad_message"),
        ('{"type": "teleport"}', "unknown_message"),
        ('{"type": "hint", "seat": 3}', "bad_message_key"),
        ('{"type": "step"}', "bad_message_key"),
        ('{"type": "step", "step": {"kind": "draw", "extra": 1}}', "state_unknown_key"),
        ('{"type": "step", "step": {"kind": "nope"}}', "state_bad_value"),
        ('{"type": "step", "step": {"kind": "announce_atu", "seat": 1}}', "not_your_step"),
        ('{"type": "step", "step": {"kind": "announce_atu", "seat": 9}}', "state_out_of_range"),
    ],
)
def test_a_bad_message_gets_a_typed_refusal_and_the_table_goes_on(frame: str, code: str) -> None:
    with served() as (client, reg):
        data = new_table(client, HUMANS_AND_BOTS)
        table = reg.tables[data["id"]]
        with client.websocket_connect(f"/ws/{data['id']}?token={token_of(data['links'][0])}") as ws:
            update = receive_until(ws, my_turn)
            before = serde.dumps_game(table.match.game)
            ws.send_text(frame)
            refused = ws.receive_json()
            assert refused["type"] == "refused" and refused["error"]["code"] == code
            assert refused["error"]["message"]
            assert serde.dumps_game(table.match.game) == before
            ws.send_json({"type": "step", "step": update["legal"][0]["step"]})
            assert receive_until(ws, lambda m: m["type"] == "update")["type"] == "update"


def test_a_step_out_of_turn_and_a_spectators_step_are_refused() -> None:
    with served() as (client, reg):
        data = new_table(client, {"seats": ["human", "human"]})
        table = reg.tables[data["id"]]
        current = table.match.game.state.current
        waiting = data["links"][1 - current]
        with client.websocket_connect(f"/ws/{data['id']}?token={token_of(waiting)}") as ws:
            receive_until(ws, lambda m: m["type"] == "update")
            ws.send_json({"type": "step", "step": {"kind": "draw"}})
            error = ws.receive_json()["error"]
            assert error["code"] == "not_your_step" and error["details"]["owner"] == current
        with client.websocket_connect(f"/ws/{data['id']}") as spectator:
            welcome = spectator.receive_json()
            assert welcome["seat"] is None
            update = receive_until(spectator, lambda m: m["type"] == "update")
            assert "rack" not in update["view"] and update["legal"] == []
            for frame in (
                {"type": "step", "step": {"kind": "draw"}},
                {"type": "hint"},
                {"type": "next_round"},
            ):
                spectator.send_json(frame)
                assert spectator.receive_json()["error"]["code"] == "not_seated"


def _closed_with(ws: Any) -> tuple[int, str]:
    with pytest.raises(WebSocketDisconnect) as info:
        for _ in range(100):
            ws.receive_json()
    return info.value.code, info.value.reason


def test_an_oversized_frame_is_closed_with_1009_and_the_table_goes_on() -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        url = f"/ws/{data['id']}?token={token_of(data['links'][0])}"
        with client.websocket_connect(url) as ws:
            receive_until(ws, my_turn)
            ws.send_text('{"type": "ping", "pad": "' + "x" * protocol.MAX_FRAME_BYTES + '"}')
            assert _closed_with(ws) == (protocol.CLOSE_TOO_BIG, "message too big")
        with client.websocket_connect(url) as ws:  # the seat is still there
            update = receive_until(ws, my_turn)
            ws.send_json({"type": "step", "step": update["legal"][0]["step"]})
            assert receive_until(ws, lambda m: m["type"] == "update")


def test_too_many_messages_a_second_close_with_1008() -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        with client.websocket_connect(f"/ws/{data['id']}") as ws:
            receive_until(ws, lambda m: m["type"] == "update")
            for _ in range(protocol.MAX_MESSAGES_PER_SECOND + 5):
                ws.send_json({"type": "ping"})
            assert _closed_with(ws) == (protocol.CLOSE_POLICY, "too many messages")


def test_the_rate_limit_is_a_sliding_second() -> None:
    now = [0.0]
    limit = protocol.RateLimit(3, 1.0, clock=lambda: now[0])
    assert [limit.hit() for _ in range(4)] == [True, True, True, False]
    now[0] = 1.5
    assert limit.hit()


@pytest.mark.parametrize(
    ("url", "headers", "reason"),
    [
        ("/ws/{id}", {"origin": "http://evil.example"}, "origin not allowed"),
        ("/ws/nosuchtable", {}, "no such table"),
        ("/ws/{id}?token=forged", {}, "unknown token"),
    ],
)
def test_a_wrong_origin_table_or_token_is_closed_with_1008(
    url: str, headers: dict[str, str], reason: str
) -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        with client.websocket_connect(url.format(id=data["id"]), headers=headers) as ws:
            assert _closed_with(ws) == (protocol.CLOSE_POLICY, reason)


def test_a_binary_frame_is_refused() -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        with client.websocket_connect(f"/ws/{data['id']}") as ws:
            receive_until(ws, lambda m: m["type"] == "update")
            ws.send_bytes(b'{"type": "ping"}')
            assert ws.receive_json()["error"]["code"] == "binary"


# -- reconnecting, restarting, several tables ------------------------------------------------------


def test_a_player_reconnects_with_the_token_and_gets_the_seat_back() -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        url = f"/ws/{data['id']}?token={token_of(data['links'][0])}"
        with client.websocket_connect(url) as ws:
            first = receive_until(ws, my_turn)
            ws.send_json({"type": "step", "step": {"kind": "draw"}})
            drawn = receive_until(ws, lambda m: m["type"] == "update" and m["log"])
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["seat"] == 0
            again = receive_until(ws, lambda m: m["type"] == "update")
            assert again["fresh"] and again["view"]["rack"] == drawn["view"]["rack"]
            assert len(again["view"]["rack"]) == len(first["view"]["rack"]) + 1
            assert [line["kind"] for line in again["log"]][-1] == "draw"


def test_tables_survive_a_restart_from_the_state_folder(tmp_path: Path) -> None:
    with served(Registry(seed=11, store=Store(tmp_path))) as (client, reg):
        data = new_table(client, HUMANS_AND_BOTS)
        url = f"/ws/{data['id']}?token={token_of(data['links'][0])}"
        with client.websocket_connect(url) as ws:
            first = _pick(receive_until(ws, my_turn)["legal"])
            ws.send_json({"type": "step", "step": first})
            receive_until(ws, lambda m: m["type"] == "update" and m["log"])
    # the server stopped (its bots with it): what it holds is what the folder holds
    saved = serde.dumps_game(reg.tables[data["id"]].match.game)
    log = reg.tables[data["id"]].log
    assert [p.name for p in tmp_path.iterdir()] == [f"{data['id']}.json"]
    again = Registry(seed=11, store=Store(tmp_path))
    table = again.tables[data["id"]]
    assert serde.dumps_game(table.match.game) == saved and table.log == log
    with served(again) as (client, _), client.websocket_connect(url) as ws:
        assert ws.receive_json()["seat"] == 0
        update = receive_until(ws, lambda m: m["type"] == "update")
        assert [line["kind"] for line in update["log"]][: len(log[0])] == [
            line["step"]["kind"] for line in log[0]
        ]
        assert first["kind"] in {line["kind"] for line in update["log"]}
        if not update["legal"]:
            update = receive_until(ws, my_turn)
        ws.send_json({"type": "step", "step": _pick(update["legal"])})
        assert receive_until(ws, lambda m: m["type"] == "update" and m["log"])


def test_a_broken_table_file_is_skipped_and_the_others_load(tmp_path: Path) -> None:
    reg = Registry(store=Store(tmp_path))
    good = reg.create(TableSpec(seats=("human", "random")))
    (tmp_path / "broken.json").write_text('{"kind": "remi_web_table", "id": "broken"}')
    (tmp_path / "junk.json").write_text("not json")
    (tmp_path / ".half.tmp").write_text("{")
    again = Registry(store=Store(tmp_path))
    assert list(again.tables) == [good.id]
    assert not (tmp_path / ".half.tmp").exists()


def test_a_bot_table_plays_its_match_to_the_end_with_the_librarys_totals() -> None:
    with served() as (client, reg):
        data = new_table(client, {"seats": ["greedy", "random"], "rounds": 2})
        table = reg.tables[data["id"]]
        deadline = time.monotonic() + 60
        while not table.match.over and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.match.over and len(table.match.games) == 2
        results = [g.result() for g in table.match.games]
        assert all(r is not None for r in results)
        assert list(table.match.totals) == [
            sum(r.totals[s] for r in results if r is not None) for s in range(2)
        ]
        with client.websocket_connect(f"/ws/{data['id']}") as ws:
            update = receive_until(ws, lambda m: m["type"] == "update")
            assert update["match"]["over"] and update["match"]["totals"] == list(table.match.totals)
            result = table.match.game.result()
            assert result is not None and update["result"] == serde.dump_result(result)


def test_next_round_waits_for_the_round_to_end() -> None:
    with served() as (client, _):
        data = new_table(client, HUMANS_AND_BOTS)
        with client.websocket_connect(f"/ws/{data['id']}?token={token_of(data['links'][0])}") as ws:
            receive_until(ws, my_turn)
            ws.send_json({"type": "next_round"})
            assert ws.receive_json()["error"]["code"] == "engine_match_round_pending"


# -- privacy on the wire ---------------------------------------------------------------------------


def _two_deals() -> tuple[list[int], list[int]]:
    """Two deals for 2 players that differ only in a tile of seat 1's rack and one deep
    in the stock: what seat 0 and a spectator see must not tell them apart."""
    rules = variants.get("clasic")
    order = list(range(106))
    random.Random(7).shuffle(order)
    other = list(order)
    theirs, deep = rules.hand_sizes[0], len(order) - 1
    other[theirs], other[deep] = other[deep], other[theirs]
    return order, other


def _stream_of(deal: list[int]) -> tuple[list[str], list[str], str]:
    rules = variants.get("clasic")
    game = Game.new(rules, 2, deal=deal, automation=AUTOMATION)
    match = Match.from_games(rules, 2, MatchConfig(automation=AUTOMATION), [game], first_starter=0)
    reg = Registry()
    with served(reg) as (client, _):
        table = reg.create(TableSpec(seats=("human", "human")), table_id="same", match=match)
        tokens = table.tokens
        assert tokens[0] is not None and tokens[1] is not None
        watcher = client.websocket_connect("/ws/same")
        me = client.websocket_connect(f"/ws/same?token={tokens[0]}")
        other = client.websocket_connect(f"/ws/same?token={tokens[1]}")
        streams: dict[str, list[str]] = {"me": [], "watcher": []}
        with watcher as w, me as m, other as o:
            socks = {"me": m, "watcher": w}

            def drain(n: int) -> None:
                for name, sock in socks.items():
                    for _ in range(n):
                        streams[name].append(json.dumps(sock.receive_json(), sort_keys=True))

            streams["watcher"] += [json.dumps(w.receive_json(), sort_keys=True) for _ in range(4)]
            streams["me"] += [json.dumps(m.receive_json(), sort_keys=True) for _ in range(3)]
            o.receive_json()
            o.receive_json()
            for _ in range(3):  # seat 0 discards its first tile; seat 1 draws and discards it
                mine = game.state.seats[0].rack[0]
                m.send_json({"type": "step", "step": {"kind": "discard", "tile": mine}})
                drain(1)
                o.send_json({"type": "step", "step": {"kind": "draw"}})
                drain(1)
                drawn = game.state.seats[1].rack[-1]
                o.send_json({"type": "step", "step": {"kind": "discard", "tile": drawn}})
                drain(1)
                if game.state.phase.value == "take" and game.state.current == 0:
                    m.send_json({"type": "step", "step": {"kind": "draw"}})
                    drain(1)
        full = json.dumps(serde.dump_game(game), sort_keys=True)
    return streams["me"], streams["watcher"], full


def test_a_seat_and_a_spectator_get_the_same_bytes_whatever_they_cannot_see() -> None:
    order, other = _two_deals()
    me_a, watcher_a, full_a = _stream_of(order)
    me_b, watcher_b, full_b = _stream_of(other)
    assert full_a != full_b  # the games differ ...
    assert len(me_a) > 10 and me_a == me_b  # ... but not what seat 0 is sent
    assert watcher_a == watcher_b
    hidden = {order[15 + k] for k in range(14)} | {other[15]}
    for text in watcher_a:
        message = json.loads(text)
        if message["type"] == "update":
            assert "rack" not in message["view"]
            seen = {i for e in message["events"] for i in _event_ids(e)}
            assert not seen & (hidden - set(message["view"]["row"]) - _table_ids(message))


def test_an_offer_of_a_double_and_its_acceptance_through_the_page() -> None:
    """DUBLE-03 over the wire: seat 0 (to move) offers its double of 5R; seat 1 and the
    spectator see the offer's class, never its tile (also in the spectator's view, the
    current player's); seat 1's legal steps list the acceptance with its label and it
    is applied; only seats 0 and 1 see the exchanged tiles."""
    from engine_deals import build_deal

    def offered(message: dict[str, Any]) -> bool:
        kinds = [e["kind"] for e in message.get("events", [])]
        return message["type"] == "update" and "doubles_offered" in kinds

    rules = variants.get("clasic")
    deal = build_deal(3, 0, {0: "5R 5R", 1: "7N 7N", 2: "9A 9A"})
    game = Game.new(rules, 3, deal=list(deal), automation=AUTOMATION)
    match = Match.from_games(rules, 3, MatchConfig(automation=AUTOMATION), [game], first_starter=0)
    reg = Registry()
    fives = sorted(i for i in game.state.rack(0) if i < 104 and str(tile_of(i)) == "5R")
    sevens = sorted(i for i in game.state.rack(1) if i < 104 and str(tile_of(i)) == "7N")
    assert len(fives) == 2 and len(sevens) == 2
    with served(reg) as (client, _):
        table = reg.create(TableSpec(seats=("human",) * 3), table_id="duble", match=match)
        tokens = table.tokens
        with (
            client.websocket_connect(f"/ws/duble?token={tokens[0]}") as zero,
            client.websocket_connect(f"/ws/duble?token={tokens[1]}&lang=ro") as one,
            client.websocket_connect(f"/ws/duble?token={tokens[2]}") as two,
            client.websocket_connect("/ws/duble") as watcher,
        ):
            first = receive_until(zero, lambda m: m["type"] == "update")
            offers = [e for e in first["legal"] if e["step"]["kind"] == "offer_doubles"]
            assert {e["step"]["tile"] for e in offers} >= {fives[0]} and offers[0]["label"]
            step = next(e["step"] for e in offers if e["step"]["tile"] in fives)
            zero.send_json({"type": "step", "step": step})
            mine = receive_until(zero, offered)
            assert mine["view"]["offers"] == [
                {"seat": 0, "double_class": "small", "tile": step["tile"]}
            ]
            assert mine["events"][-1] == {
                "kind": "doubles_offered",
                "seat": 0,
                "double_class": "small",
                "tile": step["tile"],
            }
            for sock in (two, watcher):
                seen = receive_until(sock, offered)
                assert seen["view"]["offers"] == [
                    {"seat": 0, "double_class": "small", "tile": None}
                ]
                assert seen["events"][-1]["tile"] is None
                for line in seen["log"]:  # the offer's line names no tile to them
                    assert str(tile_of(step["tile"])) not in json.dumps(line, ensure_ascii=False)
            theirs = receive_until(one, offered)
            accepts = [e for e in theirs["legal"] if e["step"]["kind"] == "accept_doubles"]
            assert {e["step"]["tile"] for e in accepts} == {sevens[0]}  # a double's first copy
            assert accepts[0]["label"].startswith("acceptă locul 0 cu 7N")
            one.send_json({"type": "step", "step": accepts[0]["step"]})
            done = receive_until(one, lambda m: m["type"] == "update" and m["view"]["offers"] == [])
            exchanged = done["events"][-1]
            assert exchanged["kind"] == "doubles_exchanged"
            assert exchanged["given"] == [step["tile"]] and exchanged["received"] == [sevens[0]]
            assert done["view"]["offers"] == [] and step["tile"] in done["view"]["rack"]
            for sock in (two, watcher):
                seen = receive_until(
                    sock, lambda m: m["type"] == "update" and m["view"]["offers"] == []
                )
                assert [e for e in seen["events"] if e["kind"] == "doubles_exchanged"] == [
                    {**exchanged, "given": [None], "received": [None]}
                ]
        assert step["tile"] in game.state.rack(1) and sevens[0] in game.state.rack(0)


def _event_ids(event: dict[str, Any]) -> Iterator[int]:
    for key in ("tile", "tiles", "order", "stock", "given", "received"):
        value = event.get(key)
        if type(value) is int:
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if type(v) is int)


def _table_ids(message: dict[str, Any]) -> set[int]:
    return {i for meld in message["melds"] for i in meld["ids"]}


def test_a_seat_never_sees_another_racks_tiles_in_a_full_bot_round() -> None:
    """A whole round at a table of one person and three bots: every message the person's
    connection and a spectator's get names, in the view's rack, the events and the legal
    steps, only tiles that seat could know (the protocol's projections, on the wire)."""
    with served(Registry(seed=3)) as (client, reg):
        data = new_table(client, {"seats": ["human", "random", "random", "random"]})
        table = reg.tables[data["id"]]
        with client.websocket_connect(f"/ws/{data['id']}?token={token_of(data['links'][0])}") as ws:
            for _ in range(400):
                message = ws.receive_json()
                if message["type"] != "update":
                    continue
                game = table.match.game
                others = {i for s in (1, 2, 3) for i in game.state.seats[s].rack}
                if message["result"] is None:
                    visible = set(game.view(0).visible_ids())
                    secret = (others | set(game.state.stock)) - visible
                    assert not set(message["view"]["rack"]) & secret
                    named = {i for e in message["events"] for i in _event_ids(e)}
                    assert not named & secret - _past(game)
                    for entry in message["legal"]:
                        assert not set(_event_ids(entry["step"])) & secret
                if message["result"] is not None:
                    break
                if message["legal"] and message["view"]["current"] == 0:
                    time.sleep(1.2 / protocol.MAX_MESSAGES_PER_SECOND)  # within the limit
                    ws.send_json({"type": "step", "step": _pick(message["legal"])})
            assert table.match.game.over


def _past(game: Game) -> set[int]:
    """Tiles that were in sight of the whole table at some point (the row's, the
    table's, the atu): an event may name them after they went into a rack."""
    out: set[int] = set()
    for event in game.events_for(None):
        for key in ("tile", "tiles", "atu"):
            value = getattr(event, key, None)
            if type(value) is int:
                out.add(value)
            elif isinstance(value, tuple):
                out.update(v for v in value if type(v) is int)
    return out


def _pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A quick player: draw, else discard, else the first legal step."""
    kinds: dict[str, dict[str, Any]] = {e["step"]["kind"]: e["step"] for e in legal}
    for kind in ("draw", "discard", "close"):
        if kind in kinds:
            return kinds[kind]
    step: dict[str, Any] = legal[0]["step"]
    return step


# -- remi-rules serve ------------------------------------------------------------------------------


def test_serve_without_the_extra_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from remi_rules.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn fails
    assert main(["serve", "--lang", "ro"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err == "remi-rules: serve are nevoie de extra web: pip install 'remi-rules[web]'\n"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["serve", "--port", "70000"], "--port 70000"),
        (["serve", "--bot-delay", "-1"], "--bot-delay -1"),
        (["serve", "--rules", "/no/such/house.toml"], "house.toml"),
        (["serve", "--variant", "chess"], "chess"),
    ],
)
def test_serve_refuses_bad_options_with_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from remi_rules.cli import main

    assert main(argv, out=io.StringIO()) == 2
    assert needle in capsys.readouterr().err


def test_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    command = [sys.executable, "-m", "remi_rules", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--state-dir", str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line == f"Remi web table at http://127.0.0.1:{port}/ (Ctrl+C stops it)\n"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/config") as answer:
                    config = json.loads(answer.read())
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
        assert config["lang"] == "en" and config["variant"] == "clasic"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_finishable_flags_come_from_the_engine_when_it_has_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A feature check: ``None`` today; once ``Game`` has ``is_finishable`` (and
    ``legal_steps(seat, finishable=True)``), the flags are the engine's."""
    from remi_rules.web.present import finishable

    game = Game.new(variants.get("clasic"), 2, seed=3)
    seat = game.state.current
    steps = game.legal_steps(seat)
    if not hasattr(Game, "is_finishable"):
        assert finishable(game, seat, steps) == [None] * len(steps)
        odd = {s for k, s in enumerate(steps) if k % 2}
        monkeypatch.setattr(Game, "is_finishable", lambda self, step: step not in odd, False)
        assert finishable(game, seat, steps) == [s not in odd for s in steps]


def test_labels_and_log_lines_are_the_librarys_notation() -> None:
    """Every label and log line is written by ``remi_rules.notation.format_step`` in
    the connection's language, with the view the step was made in."""
    table = Registry().create(TableSpec(seats=("human", "human")))
    game = table.match.game
    current = game.state.current
    before = game.view(current)
    first = game.legal_steps(current)[0]
    update = table.update(_client_of(current))
    assert update["legal"][0]["label"] == format_step(first, before, "ro")
    table.apply(first, current)
    line = table.update(_client_of(current))["log"][0]
    assert line["text"] == format_step(first, before, "ro")
    assert table.update(Client(current, "en"))["log"][0]["text"] == format_step(first, before)


def _client_of(seat: int) -> Any:
    return Client(seat, "ro")


def test_a_connection_too_far_behind_is_ended_after_what_was_queued() -> None:
    from remi_rules.web.tables import MAX_QUEUE

    client = Client(0, "en")
    for k in range(MAX_QUEUE + 1):
        client.put({"n": k})
    assert client.overflow and client.closed
    queued = [client.queue.get_nowait() for _ in range(client.queue.qsize())]
    assert queued[-1] is None and len(queued) == MAX_QUEUE
    assert queued[:-1] == [{"n": k} for k in range(1, MAX_QUEUE)]
    client.put({"n": "late"})
    assert client.queue.empty()


def test_import_remi_rules_imports_no_web_package() -> None:
    """The ASGI stack is the optional extra's: neither the library nor its command
    line imports it until ``serve`` runs."""
    code = (
        "import sys, remi_rules, remi_rules.cli, remi_rules.web.tables\n"
        "print(sorted(m for m in ('starlette', 'uvicorn', 'websockets', 'httpx') "
        "if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout == "[]\n"
