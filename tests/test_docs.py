"""The documentation in docs/ against the code.

* the preset pages are exactly what ``python -m remi_rules.docgen docs/presets`` writes;
* every rule ID cited by a knob exists in docs/RULES.md, the project's copy of the rules;
* docs/RULES.md has the catalogue's main sections;
* the clasic page names every knob.

The doctests of the pages themselves run through ``--doctest-glob='*.md'``.
"""

from __future__ import annotations

import re
from pathlib import Path

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


def test_docgen_is_deterministic() -> None:
    assert docgen.render_pages() == docgen.render_pages()
    assert list(docgen.render_pages()) == [f"{name}.md" for name in variants.names()]


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
