"""The words part of the page check: quantifiers, comparatives and attributions need a claim.

Fast tests of :mod:`pe.site.page_check` (the site's own tests are in ``tests/site/``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pe import claims
from pe.site import page_check

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REGISTERED = {claim.id for claim in claims.all_claims()}

#: The two sentences the issue names: a universal statement and an attribution, unbacked.
UNBACKED = (
    ("RoPE always extrapolates to any length.", "always"),
    ("Most models use the halves layout.", "Most models"),
)


def _page(*sentences: str) -> str:
    """A one-cell jupytext page holding ``sentences``, one per paragraph."""
    body = "\n#\n".join(f"# {s}" for s in sentences)
    return f"# %% [markdown]\n# # Title\n#\n{body}\n"


def _findings(text: str) -> list[str]:
    return [str(f) for f in page_check.scan_text(text, "docs/x.py", claim_ids=REGISTERED)]


@pytest.mark.parametrize(("sentence", "word"), UNBACKED)
def test_an_unbacked_statement_in_words_fails_with_page_and_line(sentence: str, word: str) -> None:
    found = _findings(_page("A plain first paragraph.", sentence))
    assert found == [f'docs/x.py:6: "{word}" (in "{sentence}")']


@pytest.mark.parametrize(("sentence", "word"), UNBACKED)
def test_the_sentences_fail_when_added_to_a_real_page(
    sentence: str, word: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Appended to the RoPE page, each sentence fails ``make check-pages``, naming page and line."""
    docs = tmp_path / "docs"
    docs.mkdir()
    page = docs / "rope.py"
    shutil.copy(DOCS / "rope.py", page)
    text = page.read_text(encoding="utf-8")
    line = text.count("\n") + 3  # the blank line, the cell marker, the sentence
    page.write_text(text + f"\n# %% [markdown]\n# {sentence}\n", encoding="utf-8")
    assert page_check.main([str(docs)]) == 1
    out = capsys.readouterr().out
    assert f'docs/rope.py:{line}: "{word}"' in out
    assert "1 unbacked" in out


def test_the_pages_as_they_are_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert page_check.main([str(DOCS)]) == 0
    assert "every quantifier and attribution" in capsys.readouterr().out


@pytest.mark.parametrize(
    "sentence",
    [
        "The encoding never grows with the position.",
        "Every pair turns by its own angle.",
        "Only the offset reaches the score.",
        "Each row is unique.",
        "No layout is faster than another.",
        "A single pair cannot tell far positions apart.",
        "As Vaswani et al. say, the sinusoids may extrapolate.",
        "Hugging Face reports the same drift.",
        "ALiBi is reported to extrapolate.",
        "A common statement calls the values zero-centred.",
        "Many tutorials add the table twice.",
    ],
)
def test_quantifiers_comparatives_and_attributions_need_a_claim(sentence: str) -> None:
    assert len(_findings(_page(sentence))) == 1, sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "Each pair turns by its own angle.",
        "The table has rows and columns.",
        "Some write-ups add a word to this list.",
        "Tutorials in English and French.",
        "The overall picture is smaller.",
    ],
)
def test_sentences_without_such_words_need_nothing(sentence: str) -> None:
    assert _findings(_page(sentence)) == []


def test_a_claim_mark_or_a_card_backs_the_words() -> None:
    marked = "Every pair turns by its own angle [checked](claims.py#claim-rotation-identity)."
    assert _findings(_page(marked)) == []
    card = _page("Every pair turns by its own angle.") + (
        '\n# %% tags=["hide_input"]\nreport.claim("rotation-identity")\n'
    )
    assert _findings(card) == []
    unknown = "Every pair turns [checked](claims.py#claim-no-such-claim)."
    assert _findings(_page(unknown)) == [
        "docs/x.py:4: [checked] names no registered claim: claim-no-such-claim"
    ]


def test_words_in_code_formulas_headings_and_link_targets_need_nothing() -> None:
    text = (
        "# %% [markdown]\n# ## Every pair, always\n#\n"
        "# The call `only_every(always)` and $\\mathrm{all}$ and [a page](never.py).\n"
    )
    assert _findings(text) == []


def test_a_markdown_page_is_checked_too() -> None:
    found = page_check.scan_text(
        "# Title\n\nMost models use the halves layout.\n", "docs/x.md", claim_ids=REGISTERED
    )
    assert [str(f) for f in found] == [
        'docs/x.md:3: "Most models" (in "Most models use the halves layout.")'
    ]


def test_a_long_sentence_is_shown_around_its_word() -> None:
    sentence = "In a long sentence " + "with many words " * 8 + "the encoding never repeats."
    (finding,) = _findings(_page(sentence))
    assert '"never"' in finding
    assert "never repeats" in finding
    assert len(finding) < 120


@pytest.mark.parametrize("rule", page_check.ALLOWED_WORDS, ids=lambda r: r.reason[:40])
def test_each_allowed_phrase_passes_its_example_and_only_with_its_rule(
    rule: page_check.Allowed, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tested both ways: the example passes with the list and fails without its entry."""
    assert _findings(_page(rule.example)) == []
    others = tuple(r for r in page_check.ALLOWED_WORDS if r is not rule)
    monkeypatch.setattr(page_check, "ALLOWED_WORDS", others)
    assert _findings(_page(rule.example)) != []


def test_the_allowed_list_stays_short_and_reasoned() -> None:
    assert len(page_check.ALLOWED_WORDS) <= 5
    for rule in page_check.ALLOWED_WORDS:
        assert len(rule.reason) > 40
        assert isinstance(rule.pattern, re.Pattern)


def test_an_allowed_phrase_does_not_cover_a_statement_beside_it() -> None:
    sentence = "Everything is computed by `pe`, and the encoding never repeats."
    found = _findings(_page(sentence))
    assert len(found) == 1
    assert '"never"' in found[0]


def test_a_noun_after_an_article_is_not_an_attribution() -> None:
    """ "The report #1003 shows it" names a report; "Hugging Face reports" attributes."""
    assert _findings(_page("The report of the bug shows it.")) == []
    assert _findings(_page("This use of the table is common.")) == []
    assert len(_findings(_page("Fairseq uses the halves layout."))) == 1


def test_a_quantifier_before_an_attribution_is_reported_beside_it() -> None:
    """Only a quantifier inside an attribution ("most code uses") is folded into it; one
    that comes before it in the sentence is reported on its own."""
    text = "Every model here is wrong, as Smith says."
    found = [word for _, word in page_check._words(text, text)]
    assert [word.split('"')[1] for word in found] == ["Every", "as Smith says"]
