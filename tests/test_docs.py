"""The documentation in docs/ against the code.

* the preset pages and their index (the table of the knobs where the presets differ)
  are exactly what ``python -m remi_rules.docgen docs/presets`` writes;
* every rule ID cited by a knob exists in docs/RULES.md, the project's copy of the rules;
* docs/RULES.md has the catalogue's main sections;
* the clasic page names every knob;
* the API pages of the packages name every export, and the site's build-time
  docstring converter (tools/griffe_rst.py) does what it says;
* the error codes page is what ``docgen`` writes from the code enums and the English
  catalogue;
* no page has a rule-ID wildcard (``OPEN-*``) that Markdown would read as emphasis;
* the site's header shows the package's version.

The doctests of the pages themselves run through ``--doctest-glob='*.md'``.
"""

from __future__ import annotations

import enum
import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import attrs
import pytest

from remi_rules import Ruleset, docgen, variants
from remi_rules.ruleset import knobs

DOCS = Path(__file__).resolve().parent.parent / "docs"
PRESETS = DOCS / "presets"
RULES_MD = DOCS / "RULES.md"


def _rules_text() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def test_preset_pages_are_up_to_date() -> None:
    diff = docgen.check_pages(PRESETS)
    assert not diff, "regenerate with: python -m remi_rules.docgen docs/presets\n" + "".join(diff)


def test_docgen_check_mode_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert docgen.main(["--check", str(PRESETS)]) == 0
    assert capsys.readouterr().out == ""


def test_docgen_check_mode_reports_a_stale_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docgen.write_pages(tmp_path)
    page = tmp_path / "online.md"
    page.write_text(page.read_text(encoding="utf-8").replace("`keep`", "`discard`"), "utf-8")
    assert docgen.main(["--check", str(tmp_path)]) == 1
    assert "online.md" in capsys.readouterr().out
    assert docgen.main([str(tmp_path)]) == 0
    assert docgen.check_pages(tmp_path) == []


def test_the_step_tables_are_up_to_date() -> None:
    from remi_rules._step_tables import update_tables

    for page in ("engine.md", "notation.md", "api/engine/index.md"):
        assert not update_tables(DOCS / page, write=False), (
            f"regenerate with: {docgen.STEP_TABLES_COMMAND}"
        )


def test_the_step_tables_show_every_step_class_and_catch_a_stale_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from remi_rules._step_tables import update_tables
    from remi_rules.engine import STEP_TYPES

    page = tmp_path / "page.md"
    page.write_text("# Steps\n<!-- steps: words -->\nold\n<!-- /steps -->\nafter\n", "utf-8")
    assert docgen.main(["--check", str(PRESETS), "--step-tables", str(page)]) == 1
    assert "stale" in capsys.readouterr().out
    assert docgen.main([str(PRESETS), "--step-tables", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Steps\n<!-- steps: words -->\n| Step | English | Romanian |")
    assert text.endswith("<!-- /steps -->\nafter\n")
    assert all(f"| `{cls.__name__}` |" in text for cls in STEP_TYPES)
    assert "| `OfferDoubles` | `seat 2: offer 7R` | `locul 2: oferă 7R` |" in text
    assert not update_tables(page, write=False)
    page.write_text("<!-- steps: nope -->\n<!-- /steps -->\n", "utf-8")
    with pytest.raises(ValueError, match="nope"):
        update_tables(page, write=False)


def test_docgen_check_mode_reports_a_stale_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docgen.write_pages(tmp_path)
    index = tmp_path / docgen.INDEX
    index.write_text(index.read_text(encoding="utf-8").replace("**`50`**", "**`40`**"), "utf-8")
    assert docgen.main(["--check", str(tmp_path)]) == 1
    assert docgen.INDEX in capsys.readouterr().out
    index.unlink()
    assert docgen.main(["--check", str(tmp_path)]) == 1


def test_docgen_is_deterministic() -> None:
    assert docgen.render_pages() == docgen.render_pages()
    assert list(docgen.render_pages()) == [
        docgen.INDEX,
        *(f"{name}.md" for name in variants.names()),
    ]


def _differing_knobs() -> list[str]:
    presets = [variants.get(name) for name in variants.names()]
    return [
        field.name
        for field in attrs.fields(Ruleset)
        if any(getattr(p, field.name) != getattr(presets[0], field.name) for p in presets)
    ]


def test_overview_lists_exactly_the_knobs_that_differ() -> None:
    page = docgen.overview_page()
    rows = re.findall(r"^\| `(\w+)` \|", page, flags=re.MULTILINE)
    assert rows == _differing_knobs()
    for name in variants.names():
        assert f"[`{name}`]({name}.md)" in page
        assert variants.get(name).fingerprint() in page


@pytest.mark.parametrize("knob", _differing_knobs())
def test_overview_shows_each_presets_value(knob: str) -> None:
    page = docgen.overview_page()
    row = next(line for line in page.splitlines() if line.startswith(f"| `{knob}` |"))
    cells = [c.strip() for c in row.strip("|").split(" | ")]
    reference = variants.get(docgen.REFERENCE)
    names = variants.names()
    for cell, name in zip(cells[1 : 1 + len(names)], names, strict=True):
        value = getattr(variants.get(name), knob)
        shown = f"`{docgen.format_value(value)}`".replace("|", "\\|")
        assert cell == (f"**{shown}**" if value != getattr(reference, knob) else shown), name


def test_no_preset_may_be_called_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(variants, "names", lambda: ("clasic", "index"))
    with pytest.raises(ValueError, match="index"):
        docgen.render_pages()


@pytest.mark.parametrize("name", variants.names())
def test_preset_page_shows_every_knob_value(name: str) -> None:
    page = docgen.preset_page(name)
    rules = variants.get(name)
    for field in attrs.fields(Ruleset):
        value = docgen.format_value(getattr(rules, field.name))
        assert f"| `{field.name}` | `{value}` |" in page or (
            f"| `{field.name}` | **`{value}`** |" in page
        ), field.name


def test_rule_ids_of_the_knobs_exist_in_rules_md() -> None:
    text = _rules_text()
    # A rule is defined as "**MELD-05** — ..."; an open question as "- **OQ-14 Title.**".
    defined = set(re.findall(r"\*\*([A-Z]+-\d+)(?:\*\*| )", text))
    cited = {rule for info in knobs() for rule in info.rules}
    assert cited, "the knobs cite no rules"
    assert cited <= defined, sorted(cited - defined)


def test_rules_md_has_the_catalogue_sections() -> None:
    lines = _rules_text().splitlines()
    for heading in ("## 2. Rule catalogue", "## 3. VARIANT MATRIX", "## 5. WORKED EXAMPLES"):
        assert heading in lines, heading


def test_rules_md_has_no_doctest_prompts() -> None:
    # docs/ is collected with --doctest-glob='*.md': a ">>>" line would become a test.
    assert not [line for line in _rules_text().splitlines() if line.lstrip().startswith(">>>")]


def test_every_knob_is_named_in_the_clasic_page() -> None:
    page = (PRESETS / "clasic.md").read_text(encoding="utf-8")
    missing = [info.name for info in knobs() if f"`{info.name}`" not in page]
    assert not missing, missing


# -- the site (mkdocs.yml): API pages and the build-time docstring converter ---------------

API = DOCS / "api"
API_MODULES = (
    "remi_rules",
    "remi_rules.tiles",
    "remi_rules.melds",
    "remi_rules.ruleset",
    "remi_rules.variants",
    "remi_rules.opening",
    "remi_rules.context",
    "remi_rules.rupere",
    "remi_rules.turn_plans",
    "remi_rules.layouts",
    "remi_rules.lipire",
    "remi_rules.joly",
    "remi_rules.closing",
    "remi_rules.scoring",
    "remi_rules.values",
    "remi_rules.table",
    "remi_rules.solver",
    "remi_rules.hints",
    "remi_rules.bots",
    "remi_rules.engine",
    "remi_rules.engine.bot",
    "remi_rules.engine.events",
    "remi_rules.engine.game",
    "remi_rules.engine.automation",
    "remi_rules.engine.record",
    "remi_rules.engine.legal",
    "remi_rules.engine.match",
    "remi_rules.engine.state",
    "remi_rules.engine.steps",
    "remi_rules.engine.transition",
    "remi_rules.engine.deal",
    "remi_rules.engine.view",
    "remi_rules.serde",
    "remi_rules.serde.rulesets",
    "remi_rules.serde.games",
    "remi_rules.serde.matches",
    "remi_rules.errors",
)


def _api_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(API.rglob("*.md")))


def test_every_public_module_has_an_api_page() -> None:
    documented = set(re.findall(r"^::: ([\w.]+)$", _api_text(), flags=re.MULTILINE))
    assert set(API_MODULES) <= documented, sorted(set(API_MODULES) - documented)


@pytest.mark.parametrize(
    ("package", "page"),
    [("remi_rules", "remi_rules.md"), ("remi_rules.engine", "engine/index.md")],
)
def test_package_pages_link_every_export(package: str, page: str) -> None:
    # The package pages render the package docstring only, then link each export to
    # the page of the module that defines it (the strict build checks the links).
    module = importlib.import_module(package)
    text = (API / page).read_text(encoding="utf-8")
    missing = [n for n in module.__all__ if n != "__version__" and f"[`{n}`][" not in text]
    assert not missing, missing


def _griffe_rst() -> ModuleType:
    pytest.importorskip("griffe")  # installed with the docs extra (in dev)
    path = Path(__file__).resolve().parent.parent / "tools" / "griffe_rst.py"
    spec = importlib.util.spec_from_file_location("griffe_rst", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_converter_fences_doctests_and_literal_blocks() -> None:
    convert = _griffe_rst().convert
    text = "Intro.\n\n>>> 1 + 1\n2\n\nThe ids::\n\n    id = 8 * r\n    104\n\nAfter."
    assert convert(text) == (
        "Intro.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nThe ids:\n\n```text\nid = 8 * r\n104\n```\n\n"
        "After."
    )
    assert convert("Total is ::\n\n    x\n").startswith("Total is\n")
    fenced = "```python\n>>> kept\n```"
    assert convert(fenced) == fenced


def test_converter_roles_lists_and_definitions() -> None:
    module = _griffe_rst()
    resolve = {"Game": "remi_rules.engine.game.Game"}.get
    text = "See :class:`Game` and :meth:`~remi_rules.engine.Game.apply`, :func:`hint\n<x.hint>`."
    assert module.convert(text, lambda t: resolve(t, t)) == (
        'See <autoref identifier="remi_rules.engine.game.Game" optional>`Game`</autoref> and '
        '<autoref identifier="remi_rules.engine.Game.apply" optional>`apply`</autoref>, '
        '<autoref identifier="x.hint" optional>`hint`</autoref>.'
    )
    assert module.convert("A list:\n* one\n* two") == "A list:\n\n* one\n* two"
    assert module.convert("Term\n    Its definition.\n") == "**Term**\n\nIts definition."
    assert module.convert("Rules SCORE-*, ``DEAL-*``") == "Rules SCORE-\\*, ``DEAL-*``"
    wrapped = "Total:\n``a - b\n+ c``.\n"  # a code span wrapped over lines is not a list
    assert module.convert(wrapped) == wrapped.rstrip()


def test_converter_simple_tables() -> None:
    convert = _griffe_rst().convert
    table = "Keys:\n\n=====  ====\n``a``  one\n       more\nb      two | 2\n=====  ====\n\nAfter."
    assert convert(table) == (
        "Keys:\n\n|  |  |\n| --- | --- |\n| ``a`` | one more |\n| b | two \\| 2 |\n\nAfter."
    )
    headed = "==  =====\nk   what\n==  =====\nx   :class:`~a.B`\n==  =====\n"
    assert convert(headed) == (
        '| k | what |\n| --- | --- |\n| x | <autoref identifier="a.B" optional>`B`</autoref> |'
    )
    unclosed = "==  ==\nx   y\n"
    assert convert(unclosed) == unclosed.rstrip()


def test_converter_leaves_no_rest_in_the_package_docstrings() -> None:
    module = _griffe_rst()
    import griffe

    extension = module.RstDocstrings()
    package = griffe.load(
        "remi_rules",
        search_paths=[str(Path(__file__).resolve().parent.parent / "src")],
        extensions=griffe.load_extensions(extension),
    )
    checked = 0
    for obj in module._objects(package):
        if obj.docstring is None:
            continue
        checked += 1
        value = obj.docstring.value
        assert not module.ROLE_RE.search(value), obj.path
        inside = False
        for line in value.splitlines():
            if line.strip().startswith("```"):
                inside = not inside
            assert inside or not line.strip().startswith(">>>"), obj.path
        assert module.convert(value) == value, obj.path  # converting twice changes nothing
    assert checked > 100


def test_converter_doctests() -> None:
    import doctest

    result = doctest.testmod(_griffe_rst())
    assert result.attempted and not result.failed


def _mkdocs_hooks() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "tools" / "mkdocs_hooks.py"
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_site_hook_reads_lists_as_github_does() -> None:
    import doctest

    hooks = _mkdocs_hooks()
    assert doctest.testmod(hooks).failed == 0
    gfm = hooks.gfm_lists
    assert gfm("Rule:\n1. deal;\n2. play.") == "Rule:\n\n1. deal;\n2. play."
    assert gfm("founded in\n2006. Then") == "founded in\n2006. Then"  # not a list
    assert gfm("- a\n  - b\n\nText.\n  - c") == "- a\n    - b\n\nText.\n\n- c"
    fenced = "Code:\n```text\n- not a list\n```"
    assert gfm(fenced) == fenced
    # Every page keeps its text: only blank lines and list indentation change.
    for page in sorted(DOCS.rglob("*.md")):
        source = page.read_text(encoding="utf-8")
        assert gfm(source).split() == source.split(), page


# -- rule-ID wildcards (OPEN-*) are text, not emphasis ---------------------------------------

_WILDCARD_RE = re.compile(r"\b[A-Z]+-\*")
"""A rule-ID wildcard whose ``*`` Markdown would read as emphasis (``OPEN-\\*`` is not)."""
_FENCE_RE = re.compile(r"^ *(```+|~~~+)")
_CODE_SPAN_RE = re.compile(r"(`+).+?\1")


def _bare_wildcards(markdown: str) -> list[tuple[int, str]]:
    """The lines (1-based) of ``markdown`` with a rule-ID wildcard outside code: fenced
    blocks and code spans are skipped; the convention is ``OPEN-\\*``."""
    found: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(markdown.split("\n"), start=1):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        opening = _FENCE_RE.match(line)
        if opening:
            fence = opening[1]
            continue
        if _WILDCARD_RE.search(_CODE_SPAN_RE.sub("", line)):
            found.append((number, line))
    return found


def test_bare_wildcards_finds_only_prose() -> None:
    text = "Rules OPEN-*, `DEAL-*`, ``TURN-*``, TIE-\\*.\n```text\nLIPI-*\n```\nand JOLY-*"
    assert _bare_wildcards(text) == [
        (1, "Rules OPEN-*, `DEAL-*`, ``TURN-*``, TIE-\\*."),
        (5, "and JOLY-*"),
    ]


def test_no_page_has_a_bare_rule_id_wildcard() -> None:
    # Markdown reads the "*" of "OPEN-*" as emphasis: the pages write "OPEN-\*" (rendered
    # "OPEN-*", like any rule ID) or put it in backticks; the docstrings' wildcards are
    # escaped at build time by tools/griffe_rst.py.
    found = [
        f"{page.relative_to(DOCS)}:{number}: {line}"
        for page in sorted(DOCS.rglob("*.md"))
        for number, line in _bare_wildcards(page.read_text(encoding="utf-8"))
    ]
    assert not found, "write a rule-ID wildcard as OPEN-\\*:\n" + "\n".join(found)


def test_site_header_shows_the_package_version() -> None:
    import remi_rules

    hooks = _mkdocs_hooks()
    version = hooks.project_version()
    assert version == remi_rules.__version__  # pyproject.toml and the package agree
    config = type("Config", (), {"site_name": "remi_rules"})()
    assert hooks.on_config(config).site_name == f"remi_rules {version}"
    assert hooks.on_config(config).site_name == f"remi_rules {version}"  # not twice


# -- the error codes page (docs/api/error-codes.md), generated by docgen ----------------------

ERROR_CODES = API / "error-codes.md"


def test_error_codes_page_is_up_to_date() -> None:
    diff = docgen.check_error_codes_page(ERROR_CODES)
    assert not diff, f"regenerate with: {docgen.ERROR_CODES_COMMAND}\n" + "".join(diff)


def test_error_codes_page_has_every_code_enum() -> None:
    from remi_rules import _error_codes

    defined = [  # in the order the areas are written
        value
        for value in vars(_error_codes).values()
        if isinstance(value, type)
        and issubclass(value, enum.StrEnum)
        and value.__module__ == _error_codes.__name__
    ]
    assert list(docgen.code_enums()) == defined
    headings = re.findall(r"^## `(\w+)`$", docgen.error_codes_page(), flags=re.MULTILINE)
    assert headings == [e.__name__ for e in defined]


def test_error_codes_page_gives_each_codes_english_message() -> None:
    from remi_rules import _i18n, errors

    page = docgen.error_codes_page()
    rows = dict(re.findall(r"^\| `(\w+)` \| `(.*)` \|$", page, flags=re.MULTILINE))
    codes = errors.all_codes()
    assert len(rows) == len(codes)
    for code in codes:
        # the catalogue's English template, as err.message would write it
        assert rows[code.value] == _i18n.template(code.value, "en"), code.value


def test_error_codes_page_refuses_a_code_without_a_message() -> None:
    templates = docgen.english_templates()
    del templates["round_over"]
    with pytest.raises(ValueError, match="round_over"):
        docgen.error_codes_page(templates)


def test_docgen_check_mode_reports_a_stale_error_codes_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docgen.write_pages(tmp_path)
    page = tmp_path / "api" / "error-codes.md"  # not among the preset pages
    args = ["--check", str(tmp_path), "--error-codes", str(page)]
    assert docgen.main(args) == 1  # missing
    assert docgen.main(args[1:]) == 0
    assert docgen.main(args) == 0
    page.write_text(page.read_text(encoding="utf-8").replace("`round_over`", "`over`"), "utf-8")
    assert docgen.main(args) == 1
    assert "error-codes.md" in capsys.readouterr().out
    assert docgen.write_error_codes_page(page) is True
    assert docgen.write_error_codes_page(page) is False


def test_docgen_does_not_import_babel() -> None:
    # Babel is a development dependency: docgen imports it only to generate the page.
    code = "import sys, remi_rules.docgen; assert 'babel' not in sys.modules"
    src = str(Path(__file__).resolve().parent.parent / "src")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": src})
