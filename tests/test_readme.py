"""The README's examples are doctests: they fail the build when the API or a figure drifts."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import cassino
from cassino.rules import OPTION_MODULES, SYSTEMS, rules_reference, system_rules_text

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_readme_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    from cassino import players

    # the README registers a player: keep it out of the other tests' registry. The built-in
    # players register themselves when first imported: import them first, or they would
    # register in the copy alone and be unknown to the tests after this one
    for module in players._BUILTIN_MODULES.values():
        importlib.import_module(module)
    monkeypatch.setattr(players, "PLAYERS", dict(players.PLAYERS))
    failures, tried = doctest.testfile(
        str(README),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        globs={"cassino": cassino},
        raise_on_error=False,
        verbose=False,
    )
    assert tried >= 40 and failures == 0


def test_every_python_block_of_the_readme_is_a_doctest() -> None:
    """A block of plain Python would go untested: every ```python block holds >>> lines."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 7
    for block in blocks:
        assert block.lstrip().startswith(">>> "), block[:80]


def test_the_readme_starts_with_the_two_setup_commands_then_the_quick_start() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert "pip install . && cassino simulate" in lines[3]
    assert "pip install -e '.[test]' && python -m pytest -q" in lines[4]
    assert text.index("## Quick start") < text.index("## Features") < text.index("## API tour")


# -- the rules reference ships with the package -------------------------------------------------
def test_the_shipped_rules_reference_is_docs_rules_md() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert rules_reference() == doc, "copy docs/rules.md to src/cassino/data/rules.md"


def test_every_system_has_its_section_and_status() -> None:
    for sid, info in SYSTEMS.items():
        text = system_rules_text(sid)
        status = {"done": "implemented", "planned": "planned, not playable yet"}[info.status]
        assert text.startswith(f"### {info.section} ") and f"`{sid}`" in text, sid
        if sid != "cassino_standard_002":   # (a preset inside §3.1)
            assert f"`{sid}`" in text.splitlines()[0]
            assert text.splitlines()[0].endswith(status), text.splitlines()[0]


def test_the_feature_tables_give_each_system_and_module_its_status() -> None:
    # the README's two feature tables (systems, then option modules): one row each, and a row
    # says done exactly when the engine plays it (cassino variants says the same)
    text = README.read_text(encoding="utf-8")
    features = text[text.index("## Features"):text.index("Rules options of")]
    rows = dict(re.findall(r"^\| `(\w+)` \|.*\| (done|reference|planned) \|$", features, re.M))
    expected = {sid: info.status for sid, info in SYSTEMS.items()}
    expected.update({mid: "done" if done else "planned" for mid, (_, done) in OPTION_MODULES.items()})
    assert rows == expected


def test_every_ambiguity_has_a_default() -> None:
    doc = rules_reference()
    entries = re.findall(r"^\*\*AMB-(\d+) .*?(?=^\*\*AMB-|^#{2,3} |\Z)", doc, re.M | re.S)
    numbers = [int(n) for n in re.findall(r"^\*\*AMB-(\d+) ", doc, re.M)]
    assert len(numbers) == len(set(numbers)) == len(entries) >= 90
    for block in re.split(r"^(?=\*\*AMB-)", doc.split("## 4.", 1)[1], flags=re.M)[1:]:
        assert "Default" in block, block[:60]


def test_the_options_named_in_this_engine_exist() -> None:
    from dataclasses import fields

    names = {f.name for f in fields(cassino.Rules)}
    doc = rules_reference()
    for line in re.findall(r"^\*In this engine:\* (.*)$", doc, re.M):
        offered = line.split("not offered yet")[0]
        for name in re.findall(r"`([a-z_0-9]+)`", offered):
            assert name in names, (name, line)
        for name in re.findall(r"`([a-z_0-9]+)`", line.split("not offered yet")[1]) if "not offered" in line else ():
            assert name not in names, (name, line)


def test_no_document_refers_to_files_outside_the_repository() -> None:
    docs = [README, *sorted((ROOT / "docs").glob("*.md"))]
    for path in docs:
        text = path.read_text(encoding="utf-8")
        for needle in ("../shared", "shared folder", "RULES.md", "STYLE.md", "_9d0f17ca256a7f78", "seeds/"):
            assert needle not in text, (path.name, needle)
