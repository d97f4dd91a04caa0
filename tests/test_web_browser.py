"""The reference web table in a real browser: Debian's Chromium (/usr/bin/chromium),
headless, driven by Playwright for Python (no browser download), against
``remi-rules serve`` started as a person starts it.

Locally these tests skip without Chromium or Playwright; under ``CI=true`` they fail
(``.ci/run`` installs both).  Screenshots go to ``tests/artifacts/`` (git-ignored).

The seed: with ``serve --seed 6`` the first table (one person, three greedy bots, clasic)
deals a round in which the person, playing the hint's first step each time, draws,
takes the last discard, breaks the row (rupere), announces the atu, melds, lays off,
swaps a joker and discards before a bot closes.  The test asserts each of them
happened, so a change in the library that loses one fails here, not silently.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import ON_CI, require

from remi_rules import IllegalStepError, StepErrorCode, serde

CHROMIUM = Path(os.environ.get("REMI_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).parent / "artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
SEED = 6
WANTED = {
    "draw",
    "take_last_discard",
    "rupere",
    "announce_atu",
    "meld",
    "lay_off",
    "swap_joker",
    "discard",
}


def _browser_or_skip() -> Any:
    require("starlette")
    sync_api = require("playwright.sync_api")
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if ON_CI:
            pytest.fail(message)
        pytest.skip(message)
    return sync_api


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``remi-rules serve --seed 6`` with its state folder, on a free loopback port."""
    _browser_or_skip()
    state = tmp_path_factory.mktemp("state")
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "remi_rules",
        "serve",
        "--port",
        str(port),
        "--seed",
        str(SEED),
        "--bot-delay",
        "0",
        "--state-dir",
        str(state),
        "--lang",
        "ro",
    ]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert f"{url}/" in first, first
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/config", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        yield url, state
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser(server: tuple[str, Path]) -> Iterator[Any]:
    sync_api = _browser_or_skip()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


MY_TURN = """() => {
  const s = window.remiTable.state;
  return !!s && (s.result !== null || (s.view.current === 0 && s.legal.length > 0));
}"""


def _my_steps(page: Any) -> list[str]:
    kinds: list[str] = page.eval_on_selector_all(
        '#log li.step[data-seat="0"]', "nodes => nodes.map(n => n.dataset.kind)"
    )
    return kinds


def _do(page: Any, step: dict[str, Any]) -> None:
    """Make ``step`` through the page's own controls, as a person would."""
    kind = step["kind"]
    rack = '#rack .tile[data-id="{}"]'
    if kind == "draw":
        page.click("#btn-draw")
    elif kind == "take_last_discard":
        page.click("#btn-take")
    elif kind == "rupere":
        page.click(f'#row .tile[data-index="{step["index"]}"]')
    elif kind == "take_atu":
        page.click("#atu-tile")
    elif kind == "meld":
        for tile in step["tiles"]:
            page.click(rack.format(tile))
        page.click("#btn-meld")
    elif kind == "lay_off":  # dragged onto the meld, at the end the step names
        meld = f'.meld[data-meld="{step["meld"]}"]'
        end = step["end"]
        target = f'{meld} .tile[data-end="{end}"]:not([data-joker])'
        if end not in ("low", "high") or page.locator(target).count() == 0:
            target = f"{meld} .about"
        page.drag_and_drop(rack.format(step["tile"]), target)
    elif kind == "swap_joker":  # the tile selected, then the joker's slot clicked
        page.click(rack.format(step["tile"]))
        page.click(f'.meld[data-meld="{step["meld"]}"] .tile[data-joker="{step["joker"]}"]')
    elif kind in ("discard", "close"):
        page.click(rack.format(step["tile"]))
        page.click(f"#btn-{kind}")
    else:  # announcements, pe tablă, a redeal, the doubles: one button per legal step
        page.click(f'#extra button[data-kind="{kind}"]')


def _made(page: Any, before: int, refusals: int) -> None:
    page.wait_for_function(
        f"""() => document.querySelectorAll('#log li.step[data-seat="0"]').length > {before}
        || window.remiTable.refusals > {refusals}"""
    )
    refused = page.evaluate("window.remiTable.refusals")
    assert refused == refusals, page.text_content("#message")


def test_a_person_plays_a_round_against_three_bots(server: tuple[str, Path], browser: Any) -> None:
    url, state = server
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/?lang=ro")
    page.wait_for_selector("#kind-3")
    assert page.text_content("#create") == "Creează masa"
    assert [page.input_value(f"#kind-{s}") for s in range(4)] == ["human"] + ["greedy"] * 3
    _shot(page, "lobby-1280.png")
    page.click("#create")
    page.wait_for_selector("#rack .tile")
    made: list[str] = []
    undone = False
    sorted_once = False
    for _ in range(200):
        page.wait_for_function(MY_TURN)
        if page.evaluate("window.remiTable.state.result !== null"):
            break
        if not sorted_once:  # the rack sorted both ways, then one tile dragged
            page.click("#sort-rank")
            page.click("#sort-color")
            order = page.evaluate("window.remiTable.rackOrder.slice()")
            page.drag_and_drop(
                f'#rack .tile[data-id="{order[-1]}"]', f'#rack .tile[data-id="{order[0]}"]'
            )
            moved = page.evaluate("window.remiTable.rackOrder.slice()")
            assert moved[0] == order[-1] and sorted(moved) == sorted(order)
            sorted_once = True
        hints = page.evaluate("window.remiTable.hints")
        page.click("#btn-hint")
        page.wait_for_function(f"window.remiTable.hints > {hints}")
        assert page.text_content("#hint .reason")
        step = page.evaluate("window.remiTable.hint.steps[0].step")
        before, refusals = len(_my_steps(page)), page.evaluate("window.remiTable.refusals")
        _do(page, step)
        _made(page, before, refusals)
        made.append(step["kind"])
        if step["kind"] == "meld" and not undone:  # take it back, then meld again
            _shot(page, "table-meld-1280.png")
            page.click("#btn-undo")
            _made(page, before + 1, refusals)
            made.append("undo")
            page.wait_for_function(MY_TURN)
            _do(page, step)
            _made(page, before + 2, refusals)
            made.append("meld")
            undone = True
    assert errors == []
    assert set(made) >= WANTED and undone, made
    assert _my_steps(page) == made  # each step in the page's log, in order
    # the score shown is the library's result for the saved round
    page.wait_for_selector("#result tr[data-seat]")
    _shot(page, "table-end-1280.png")
    table_file = next(state.glob("*.json"))
    match = serde.load_match(json.loads(table_file.read_text())["match"])
    result = match.games[0].result()
    assert result is not None
    shown = page.eval_on_selector_all(
        "#result tr[data-seat] td.total", "cells => cells.map(c => Number(c.textContent))"
    )
    assert shown == list(result.totals)
    assert page.text_content("#result th:nth-child(2)") == "etalat"
    # a phone's width
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "table-end-390.png")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # the other language, from the catalogues
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#btn-hint').textContent === 'Hint'")
    assert page.text_content("#result th:nth-child(2)") == "melded"
    page.select_option("#lang", "ro")
    page.wait_for_function("document.querySelector('#btn-hint').textContent === 'Sugestie'")
    page.close()


def test_two_people_each_see_only_their_own_rack(server: tuple[str, Path], browser: Any) -> None:
    url, _ = server
    request = urllib.request.Request(
        f"{url}/api/tables",
        data=json.dumps({"seats": ["human", "human"]}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    created = json.loads(urllib.request.urlopen(request, timeout=10).read())
    pages = []
    for link in created["links"]:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{url}{link['url']}&lang=en")
        page.wait_for_selector("#rack .tile")
        pages.append(page)
    watcher = browser.new_context().new_page()
    watcher.goto(f"{url}{created['watch']}")
    watcher.wait_for_function("!!window.remiTable.state")
    racks = [p.evaluate("window.remiTable.state.view.rack") for p in pages]
    assert racks[0] and racks[1] and not set(racks[0]) & set(racks[1])
    for mine, theirs in ((pages[0], racks[1]), (pages[1], racks[0])):
        shown = mine.eval_on_selector_all(".tile[data-id]", "ns => ns.map(n => +n.dataset.id)")
        assert not set(shown) & set(theirs)
    assert watcher.locator("#rack .tile").count() == 0
    assert "rack" not in watcher.evaluate("window.remiTable.state.view")
    # the player to move discards; the other sees the tile in the row, not in a rack
    first = pages[0].evaluate("window.remiTable.state.view.current")
    mover, other = pages[first], pages[1 - first]
    tile = mover.evaluate("window.remiTable.state.view.rack[0]")
    mover.click(f'#rack .tile[data-id="{tile}"]')
    mover.click("#btn-discard")
    other.wait_for_selector(f'#row .tile[data-id="{tile}"]')
    assert other.locator(f'#rack .tile[data-id="{tile}"]').count() == 0
    _shot(other, "two-people-390.png")
    # a refused step shows the library's message and changes nothing: a tile dropped
    # on the row before taking one is a discard the library refuses
    rack = other.evaluate("window.remiTable.state.view.rack")
    other.drag_and_drop(f'#rack .tile[data-id="{rack[0]}"]', "#row")
    other.wait_for_function("window.remiTable.refusals > 0")
    assert other.get_attribute("#message", "data-code") == "take_first"
    expected = IllegalStepError(StepErrorCode.TAKE_FIRST, step="discard").message("en")
    assert other.text_content("#message") == expected
    assert other.evaluate("window.remiTable.state.view.rack") == rack
