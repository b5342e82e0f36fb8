"""The page check (``make check-pages``, :mod:`pe.site.page_check`) and the placeholders.

Unit tests, in the fast suite; the one test that reads the built site is in
``tests/site/test_check_pages.py``.

It passes on the pages, and fails, with page, line and text, when a made-up number, inline
formula or display formula is added to a page (on a copy in a temporary folder: the real
pages are never edited); every exception of its list is exercised.
"""

from __future__ import annotations

import functools
import importlib.util
import shutil
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pe import claims
from pe.site import page_check, prose

from .conftest import ROOT

DOCS = ROOT / "docs"
PAGES = page_check.pages(DOCS)
REGISTERED = {claim.id for claim in claims.all_claims()}
#: A page of each kind to append made-up prose to.
SAMPLES = ("why-order.py", "index.md")


def scan_one(text: str, name: str = "docs/x.py", names: tuple[str, ...] = ()) -> list[str]:
    return [str(f) for f in page_check.scan_text(text, name, claim_ids=REGISTERED, names=names)]


def markdown_cell(*lines: str) -> str:
    return "\n# %% [markdown]\n" + "".join(f"# {line}\n" if line else "#\n" for line in lines)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_page_passes(page: Path) -> None:
    findings = page_check.scan([page], root=ROOT)
    assert not findings, "\n".join(map(str, findings))


def test_bibliography_is_not_a_page() -> None:
    assert DOCS / "bibliography.md" not in PAGES
    assert DOCS / "why-order.py" in PAGES
    assert DOCS / "index.md" in PAGES


def copy_with(tmp_path: Path, name: str, addition: str) -> tuple[Path, int]:
    """A copy of the page ``name`` with ``addition`` at its end, and the line it starts."""
    copy = tmp_path / "docs" / name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(DOCS / name, copy)
    text = copy.read_text(encoding="utf-8")
    if name.endswith(".md"):
        addition = "\n".join(
            line.removeprefix("# ").removeprefix("#")
            for line in addition.splitlines()
            if "%%" not in line
        )
    copy.write_text(text + addition, encoding="utf-8")
    return copy, len(text.splitlines()) + 1


MADE_UP = {
    "number": (markdown_cell("The table holds 4096 distinct rows."), "4096"),
    "inline formula": (markdown_cell("The angle obeys $\\omega_i p < \\pi$ here."), "$\\omega"),
    "display formula": (
        markdown_cell("It follows that", "", "$$PE(p) \\cdot PE(q) = \\cos(p - q)$$"),
        "$$PE(p)",
    ),
}


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("kind", sorted(MADE_UP))
def test_made_up_prose_fails_with_page_line_and_text(tmp_path: Path, name: str, kind: str) -> None:
    addition, text = MADE_UP[kind]
    copy, first = copy_with(tmp_path, name, addition)
    findings = [f for f in page_check.scan([copy], root=tmp_path) if f.line >= first]
    assert [(f.page, f.text.startswith(text)) for f in findings] == [(f"docs/{name}", True)]
    shown = copy.read_text(encoding="utf-8").splitlines()[findings[0].line - 1]
    assert text in shown


def test_main_prints_page_line_text_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy, _ = copy_with(tmp_path, "why-order.py", MADE_UP["number"][0])
    assert page_check.main([str(copy.parent)]) == 1
    out = capsys.readouterr().out
    assert "docs/why-order.py:" in out
    assert ": 4096 (in " in out


def test_main_passes_a_clean_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Title 1\n\nPlain words, `code 12`.\n")
    assert page_check.main([str(tmp_path / "docs")]) == 0
    assert "every number and formula" in capsys.readouterr().out


def test_main_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        page_check.main([str(tmp_path / "nowhere")])
    assert stop.value.code == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_checked_mark_attaches_its_block_only() -> None:
    marked = "$p < q$ and 4096 rows [checked](claims.py#claim-shift-composition)."
    page = markdown_cell(marked, "", "Then 4096 again.")
    assert scan_one(page) == ['docs/x.py:5: 4096 (in "Then 4096 again.")']


def test_a_claim_card_below_attaches_the_last_block_only() -> None:
    page = (
        markdown_cell("First 12 rows.", "", "Then $x = y$.")
        + '\n# %% tags=["hide_input"]\nreport.claim("shift-composition")\n'
    )
    assert scan_one(page) == ['docs/x.py:3: 12 (in "First 12 rows.")']
    other_code = page.replace('report.claim("shift-composition")', "page.figure()")
    assert len(scan_one(other_code)) == 2


def test_a_display_formula_belongs_to_its_paragraph() -> None:
    page = markdown_cell(
        "The identity",
        "",
        "$$T_k PE(p) = PE(p + k)$$",
        "",
        "holds [checked](claims.py#claim-shift-composition).",
    )
    assert scan_one(page) == []
    alone = markdown_cell("## Heading", "", "$$T_k PE(p) = PE(p + k)$$", "", "New paragraph.")
    assert [f.split(": ", 1)[1] for f in scan_one(alone)] == ["$$T_k PE(p) = PE(p + k)$$"]


def test_unknown_claims_and_placeholders_are_findings() -> None:
    page = markdown_cell("A {{ nowhere }} value [checked](claims.py#claim-no-such-claim).")
    page += '\n# %%\nreport.claim("no-such-claim-either")\n'
    assert scan_one(page, names=("somewhere",)) == [
        "docs/x.py:3: unknown placeholder {{ nowhere }}",
        "docs/x.py:3: [checked] names no registered claim: claim-no-such-claim",
        "docs/x.py:6: report.claim names no registered claim: no-such-claim-either",
    ]


def test_what_needs_nothing() -> None:
    page = markdown_cell(
        "## Chapter 12 of 2048",
        "",
        "Notation: $\\omega_i p$, $PE(p)$, `x = 3` and `float32` [vaswani2017](bibliography.md#vaswani2017).",
        "",
        "```python",
        "x = 1024",
        "```",
        "",
        "<!-- pe-figure: a.b 12 -->",
        "",
        "A value {{ d }} and $d = {{ d }}$; float16, bfloat16, T5, GPT-2, [site](https://x.org/12).",
    )
    assert scan_one(page, names=("d",)) == []


def test_numbers_in_ordinary_link_text_count() -> None:
    assert scan_one(markdown_cell("See [the 3 pages](why-order.py).")) == [
        'docs/x.py:3: 3 (in "See [the 3 pages](why-order.py).")'
    ]


@pytest.mark.parametrize("rule", page_check.ALLOWED, ids=lambda r: r.reason[:40])
def test_each_exception_lets_its_example_pass_and_only_it(
    rule: page_check.Allowed, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = markdown_cell(rule.example)
    assert scan_one(page) == []
    others = tuple(r for r in page_check.ALLOWED if r is not rule)
    monkeypatch.setattr(page_check, "ALLOWED", others)
    assert scan_one(page), f"{rule.example!r} passes without its exception"


def test_a_year_outside_a_citation_link_counts() -> None:
    assert scan_one(markdown_cell("In 2017 the paper appeared."))


# Placeholders


def values(**entries: object) -> dict[str, Callable[[], object]]:
    return {name: functools.partial(lambda value: value, value) for name, value in entries.items()}


def test_fill_formats_each_value() -> None:
    table = values(ulps=1834, angle=1044.27493)
    text = "{{ ulps:,d }} ulps, $\\theta = {{angle:.4f}}$, {{ ulps }}"
    assert prose.fill(text, "x", table) == "1,834 ulps, $\\theta = 1044.2749$, 1834"


def test_fill_in_html_unescapes_the_format_and_escapes_the_value() -> None:
    table = values(word="<b>", n=5)
    assert prose.fill("{{ word }} {{ n:&gt;3 }}", "x", table, as_html=True) == "&lt;b&gt;   5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{ missing }}", "x: unknown placeholder {{ missing }} (known: n)"),
        ("{{ n:.2q }}", "x: placeholder {{ n:.2q }}: format '.2q' does not fit int 5"),
    ],
)
def test_fill_refuses_unknown_names_and_bad_formats(text: str, message: str) -> None:
    with pytest.raises(prose.PlaceholderError) as error:
        prose.fill(text, "x", values(n=5))
    assert str(error.value).startswith(message)


def test_every_placeholder_of_the_pages_fills() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        filled = prose.fill(text, page.stem)
        assert not prose.PLACEHOLDER.search(filled), page.name


def test_the_page_values_are_thunks() -> None:
    for page in PAGES:
        for name, thunk in prose.values(page.stem).items():
            assert callable(thunk), f"{page.stem}: VALUES[{name!r}] is not callable"


def test_a_number_and_parenthesis_inside_a_sentence_is_not_a_list() -> None:
    page = (
        markdown_cell("Pair 128 (column", "256) has 3 rows.")
        + '\n# %%\nreport.claim("shift-composition")\n'
    )
    assert scan_one(page) == []
    items = markdown_cell("Two steps:", "1. first $x = y$", "2. then $y = z$")
    assert [f.split(": ", 1)[1] for f in scan_one(items)] == ["$x = y$", "$y = z$"]


# The build's hook: placeholders and marks in the rendered HTML


def hook() -> Any:
    """``docs/_hooks/prose_values.py``, loaded as MkDocs loads it (by path)."""
    spec = importlib.util.spec_from_file_location(
        "prose_values", DOCS / "_hooks" / "prose_values.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def page_named(source: str) -> Any:
    return types.SimpleNamespace(file=types.SimpleNamespace(src_uri=source))


def test_the_hook_fills_values_and_styles_marks() -> None:
    prose_values = hook()
    html = (
        '<p>at {{ neox_angle32:.4f }} <a href="../claims/#claim-gptneox-1003-half-frequencies">'
        "checked</a></p>"
    )
    out = prose_values.on_page_content(html, page=page_named("precision.py"))
    angle = format(prose.values("precision")["neox_angle32"](), ".4f")
    assert out.startswith(f"<p>at {angle} ")
    assert 'class="pe-mark pe-checked"' in out
    assert out.endswith(">checked</a></p>")


def test_a_mark_on_a_cited_claim_reads_cited() -> None:
    """A claim of kind source with nothing recomputed is "cited", never "checked"."""
    link = '<a href="../claims/#claim-te1245-reported">checked</a>'
    out = hook().on_page_content(link, page=page_named("precision.py"))
    assert out.endswith('title="Cited from te1245: claim te1245-reported (Claims page)">cited</a>')


@pytest.mark.parametrize(
    ("html", "message"),
    [
        ("<p>{{ nowhere }}</p>", "precision.py: precision: unknown placeholder {{ nowhere }}"),
        ("<p>{{ neox_d:.2q }}</p>", "precision.py: precision: placeholder {{ neox_d:.2q }}"),
        (
            '<a href="../claims/#claim-no-such-claim">checked</a>',
            "precision.py: [checked] links to claim-no-such-claim, not a registered claim",
        ),
    ],
)
def test_the_hook_fails_the_build_naming_page_and_name(html: str, message: str) -> None:
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError) as error:
        hook().on_page_content(html, page=page_named("precision.py"))
    assert str(error.value).startswith(message)


# An exception and an unbacked number in one block: the exception covers its own span only.


@pytest.mark.parametrize("rule", page_check.ALLOWED, ids=lambda r: r.reason[:40])
def test_an_allowed_span_does_not_cover_a_number_beside_it(rule: page_check.Allowed) -> None:
    assert scan_one(markdown_cell(rule.example)) == []
    for mixed in (f"{rule.example} It holds 4096 rows.", f"It holds 4096 rows. {rule.example}"):
        found = scan_one(markdown_cell(mixed))
        assert [f.split(": ", 1)[1].split(" ", 1)[0] for f in found] == ["4096"], found


def test_a_number_glued_to_an_allowed_span_is_still_found() -> None:
    """The span ends where its match ends: ``Table 1`` allows 1, not the 4096 after it."""
    assert scan_one(markdown_cell("Table 1 shows it.")) == []
    found = scan_one(markdown_cell("Table 1 shows 4096 rows; Table 2 too."))
    assert [f.split(": ", 1)[1].split(" ", 1)[0] for f in found] == ["4096"]
    assert scan_one(markdown_cell("See #1003 and 12 more."))[0].split(": ", 1)[1].startswith("12 ")


def test_a_checked_mark_in_one_block_does_not_back_the_next_unit() -> None:
    """One block mixes an exception, a checked mark and a number; the next block is bare."""
    page = markdown_cell(
        "Table 1 lists 4096 rows [checked](claims.py#claim-shift-composition).",
        "",
        "Table 2 lists 8192 rows.",
    )
    assert scan_one(page) == ['docs/x.py:5: 8192 (in "Table 2 lists 8192 rows.")']


# The page check's inline constants, each crossed from both sides.


def test_the_context_is_shown_whole_up_to_60_characters() -> None:
    whole = "x" * 52 + " 4096 yy"
    assert len(whole) == 60
    assert scan_one(markdown_cell(whole)) == [f'docs/x.py:3: 4096 (in "{whole}")']
    cut = "x" + whole
    assert scan_one(markdown_cell(cut)) == [f'docs/x.py:3: 4096 (in "{cut[:57]}...")']


def test_a_heading_has_one_to_six_hashes() -> None:
    """A heading's number needs nothing; seven hashes make a paragraph, whose number counts."""
    assert scan_one(markdown_cell("# Part 12")) == []
    assert scan_one(markdown_cell("###### Part 12")) == []
    assert scan_one(markdown_cell("####### Part 12")) == ['docs/x.py:3: 12 (in "####### Part 12")']


def test_a_list_item_is_indented_by_at_most_three_spaces() -> None:
    """Up to three spaces the marker of an item needs nothing; at four it is text."""
    for indent, marker_counts in (("", False), ("   ", False), ("    ", True)):
        page = markdown_cell("Two steps:", f"{indent}1. first $x = y$", "2. then $y = z$")
        numbers = [f for f in scan_one(page) if " (in " in f]
        assert bool(numbers) is marker_counts, (indent, numbers)


def test_a_long_sentence_is_shown_around_the_word_up_to_its_end() -> None:
    """A finding quotes at most 70 characters: a long sentence is cut to the 67 before its
    end when the word sits near the end (never past the end, never from its start)."""
    sentence = "A" * 70 + " always " + "b" * 22  # 100 characters, the word near the end
    assert page_check._sentence(sentence, 71, 77) == "..." + sentence[33:] + "..."
    # the word further from the end: 30 characters before it are shown
    assert page_check._sentence(sentence, 40, 46) == "..." + sentence[10:77] + "..."
