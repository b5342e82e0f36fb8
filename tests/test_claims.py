"""The claim registry: every claim holds, rejects its wrong candidates and is shown on its page."""

from __future__ import annotations

import itertools
import json
import re
from functools import partial

import pytest

from pe import claims
from pe._machine_dependent import site_text
from pe._tolerance import Tolerance, exact
from pe.claims import Candidate
from pe.site import report

from .conftest import ROOT, run_pe
from .helpers import claim_of, equals_two, false_claim, true_claim, within

CLAIMS = claims.all_claims()


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_holds(claim: claims.Claim) -> None:
    result = claims.verify(claim.id)
    assert result.holds, [e.detail for e in result.evidence]


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_rejects_every_wrong_candidate(claim: claims.Claim) -> None:
    result = claims.verify(claim.id)
    if not claim.checks:  # a fact cited from its source, with nothing to recompute
        assert (result.method, result.controls) == ("source", ())
        assert claim.source is not None
        return
    assert result.controls, "every claim with checks needs at least one wrong candidate"
    accepted = [e.detail for e in result.controls if e.holds]
    assert accepted == []


#: A figure printed "below" a bound, and a tolerance printed after it in the same detail.
BELOW_THEN_TOLERANCE = re.compile(r"below ([0-9.e+-]+)[^()]*?\(tolerance ([0-9.e+-]+)\)")


def below_above_tolerance(line: str) -> list[str]:
    """The parts of a site line that print a figure "below A" with a tolerance B < A after it."""
    return [
        m.group(0)
        for m in BELOW_THEN_TOLERANCE.finditer(line)
        if float(m.group(1).rstrip(".")) > float(m.group(2).rstrip("."))
    ]


def test_below_above_tolerance_finds_the_contradiction() -> None:
    assert below_above_tolerance("max error below 2e-10 (tolerance 1.9e-10)") != []
    assert below_above_tolerance("max error below 2e-10 (tolerance 2e-10)") == []
    assert below_above_tolerance("gap 0.25 (tolerance 1e-3), below 1 elsewhere") == []


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_no_card_prints_a_bound_above_its_tolerance(claim: claims.Claim) -> None:
    result = claims.verify(claim.id)
    lines = [site_text(e.detail) for e in (*result.evidence, *result.controls)]
    assert [part for line in lines for part in below_above_tolerance(line)] == []


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_is_shown_on_its_page(claim: claims.Claim) -> None:
    pages = [ROOT / "docs" / f"{claim.page}{ext}" for ext in (".py", ".md")]
    page = next((p for p in pages if p.exists()), None)
    assert page is not None, f"{claim.id}: page {claim.page!r} does not exist"
    shown = rf"[\"']{re.escape(claim.id)}[\"']|\(claims\.py#claim-{re.escape(claim.id)}\)"
    assert re.search(shown, page.read_text()), f"{claim.id} is not shown on {page.name}"


def test_ids_are_unique_kebab_case() -> None:
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)


def test_a_claim_without_evidence_or_wrong_candidates_is_refused() -> None:
    with pytest.raises(ValueError, match="no evidence"):
        claims.Claim(id="x", title="x", statement="x", page="x", checks=())
    with pytest.raises(ValueError, match="no wrong candidate"):
        claims.Claim(
            id="x", title="x", statement="x", page="x", checks=(claims.Check(equals_two, 2),)
        )


def test_every_check_needs_its_own_wrong_candidate() -> None:
    """One check with wrong candidates does not cover another without: the claim is
    refused at its declaration, naming the claim, the check and its function."""
    rejecting = claims.Check(equals_two, 2, (Candidate("three", 3),))
    with pytest.raises(ValueError, match=r"claim 'x': check 2 \(equals_two\) has no wrong"):
        claims.Claim(
            id="x",
            title="x",
            statement="x",
            page="x",
            checks=(rejecting, claims.Check(equals_two, 2)),
        )
    with pytest.raises(ValueError, match=r"check 1 \(equals_two\) has no wrong"):
        claims.Chapter("pe.chapters.why_order").claim(
            "x", "x", claims.Check(partial(equals_two), 2), rejecting, statement="x"
        )
    assert all(check.wrong for claim in CLAIMS for check in claim.checks)


def _proof_of(residual: object) -> claims.Evidence:
    """A SymPy check: the residual's verdict as evidence."""
    from pe.symbolic import Derivation

    return claims.proved(Derivation().proof("r = 0", "r = 0", residual))


def test_a_wrong_candidate_not_disproved_fails_its_claim() -> None:
    """A SymPy wrong candidate counts as rejected only with an exact counterexample: one the
    prover leaves "not decided" fails the claim, named; one it disproves is rejected."""
    import sympy as sp

    k = sp.Symbol("k", real=True)
    # outside the decided class, and no exact point: sin(sin k) is not a sum of exponentials
    # of algebraic numbers at the points tried
    undecided = sp.Matrix([sp.sin(sp.sin(k)) - sp.sin(k)])
    disproved = sp.Matrix([sp.sin(k) - sp.cos(k)])  # -1 at k = 0
    zero = sp.Matrix([0])
    open_claim = claim_of(claims.Check(_proof_of, zero, (Candidate("sin sin k", undecided),)))
    result = claims.run(open_claim)
    assert result.holds
    assert result.controls_rejected
    assert not result.ok  # ...but was not shown wrong
    assert result.undecided == (result.controls[0].text,)
    assert any("not disproved" in line and "sin sin k" in line for line in result.problems)
    assert result.to_json()["undecided"] == [result.controls[0].text]
    closed = claims.run(claim_of(claims.Check(_proof_of, zero, (Candidate("sin-cos", disproved),))))
    assert closed.ok
    assert closed.undecided == ()


def test_the_registrys_records_cannot_be_changed_in_place() -> None:
    """Candidates, checks, claims, evidence and results are shared across chapters, pages
    and ``pe verify``: each is frozen, so no caller can change one under another's feet."""
    import dataclasses

    candidate = Candidate("three", 3)
    check = claims.Check(equals_two, 2, (candidate,))
    result = claims.run(claim_of(check))
    for record, field in (
        (candidate, "value"),
        (check, "true"),
        (CLAIMS[0], "statement"),
        (result.evidence[0], "holds"),
        (result, "holds"),
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)


def test_a_claim_needs_a_statement_or_a_proof() -> None:
    claim = claims.Claim(
        id="x", title="x", page="x", checks=(claims.Check(equals_two, 2, (Candidate("3", 3),)),)
    )
    result = claims.run(claim)
    assert not result.ok
    assert any("no statement and no proof" in e for e in result.errors)


def test_the_statement_comes_from_the_proof() -> None:
    from pe import symbolic
    from pe.chapters import rotation_identity
    from tests.helpers import wrong

    claim = claims.Claim(
        id="x",
        title="x",
        page="x",
        checks=(
            claims.Check(
                claims.by_proof(rotation_identity.rotation_identity),
                true=symbolic.shift_block,
                wrong=(wrong.TRANSPOSED_BLOCK,),
            ),
        ),
    )
    result = claims.run(claim)
    assert result.ok
    assert result.statement == rotation_identity.rotation_identity().statement
    assert result.controls[0].detail.startswith("transposed block: ")


def test_a_true_claim_verifies_and_a_false_one_does_not() -> None:
    assert claims.run(true_claim()).ok
    false = claims.run(false_claim())
    assert not false.ok
    assert false.controls_rejected
    assert not false.holds


def test_report_refuses_to_show_a_false_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    false = false_claim()
    monkeypatch.setattr(claims, "all_claims", lambda: (*CLAIMS, false))
    claims.verify.cache_clear()
    try:
        with pytest.raises(claims.ClaimFailedError, match="false-claim"):
            report.claim("false-claim")
    finally:
        claims.verify.cache_clear()


def test_unknown_claim_id() -> None:
    with pytest.raises(KeyError, match="no claim with id"):
        claims.get("no-such-claim")


def test_each_checks_evidence_lists_its_own_wrong_candidates() -> None:
    """Two checks, each with its own candidates: each piece of evidence in the JSON lists
    exactly its check's, named, with the detail ``pe verify`` prints, error and tolerance."""
    result = claims.run(
        claim_of(
            claims.Check(equals_two, 2, (Candidate("three", 3), Candidate("four", 4))),
            claims.Check(within(1.0), 2.0, (Candidate("nine", 9.0),)),
        )
    )
    assert result.ok
    first, second = (e["controls"] for e in result.to_json()["evidence"])  # type: ignore[attr-defined]
    assert [c["name"] for c in first] == ["three", "four"]
    assert [c["name"] for c in second] == ["nine"]
    assert [c["detail"] for c in (*first, *second)] == [c.text for c in result.controls]
    assert first[0]["detail"] == "three: 3 = 2"
    assert all(c["holds"] is False for c in (*first, *second))
    assert (first[0]["error"], first[0]["tolerance"]) == (None, None)
    assert (second[0]["error"], second[0]["tolerance"]) == (7.0, 1.0)


def test_verify_json_lists_every_claim() -> None:
    result = run_pe("verify", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert [c["id"] for c in listed] == [c.id for c in CLAIMS]
    for entry in listed:
        assert {"id", "statement", "method", "holds"} <= entry.keys()
        assert entry["holds"] is True
        assert entry["method"] in {"sympy", "numpy", "sympy+numpy", "source"}
        assert (entry["method"] == "source") == (entry["evidence"] == [])
        if entry["method"] == "source":
            assert entry["source"] is not None
        assert entry["ok"] is True
        assert entry["broken_controls"] == entry["loose"] == entry["errors"] == []
        checks = claims.get(entry["id"]).checks
        for evidence, check in zip(entry["evidence"], checks, strict=True):
            assert {"error", "tolerance", "ratio"} <= evidence.keys()
            # every check's own wrong candidates, each rejected, under its evidence
            assert [c["name"] for c in evidence["controls"]] == [c.name for c in check.wrong]
            assert evidence["controls"]
            assert not any(c["holds"] for c in evidence["controls"])
    ratios = [e["ratio"] for c in listed for e in c["evidence"] if e["ratio"] is not None]
    assert len(ratios) >= 40  # the numeric checks held to a tolerance report it
    assert all(0 <= r <= 1 for r in ratios)


# The registry's self-checks, each with the registry fault it catches.


def _two_controls(first_accepted: bool) -> claims.Claim:
    """A claim with two wrong candidates: 3 (rejected) and 2 or 4 (accepted or rejected)."""
    second = Candidate("two again", 2) if first_accepted else Candidate("four", 4)
    return claim_of(claims.Check(equals_two, 2, (Candidate("three", 3), second)))


def test_one_control_accepted_is_enough_to_fail() -> None:
    """Fault caught: a registry that counts a claim verified when *any* control is rejected."""
    assert claims.run(_two_controls(first_accepted=False)).ok
    mixed = claims.run(_two_controls(first_accepted=True))
    assert [c.holds for c in mixed.controls] == [False, True]
    assert not mixed.controls_rejected
    assert not mixed.ok
    assert any(p.startswith("wrong candidate accepted: two again") for p in mixed.problems)


def test_a_control_that_cannot_pass_is_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: the controls' path hard-wired to come out false (looks like rejection)."""
    claim = true_claim()
    assert claims.run(claim).broken_controls == ()

    def hard_wired_false(name: str, evidence: claims.Evidence) -> claims.Evidence:
        return claims.Evidence(evidence.method, False, f"{name}: {evidence.detail}")

    monkeypatch.setattr(claims, "_named", hard_wired_false)
    result = claims.run(claim)
    assert result.holds
    assert result.controls_rejected
    assert not result.ok  # ...but the calibration with the true candidate catches it
    assert result.broken_controls == (
        f"check 1 fails its true candidate: {claims.TRUE_CONTROL}: 2 = 2",
    )


def test_a_check_failing_its_own_true_candidate_is_broken() -> None:
    result = claims.run(claim_of(claims.Check(equals_two, 5, (Candidate("three", 3),))))
    assert not result.ok
    assert len(result.broken_controls) == 1


def test_a_wrong_candidate_within_rounding_of_the_tolerance_is_loose() -> None:
    """Fault caught: a tolerance so wide that a wrong candidate is rejected by rounding luck."""
    tight = claims.run(claim_of(claims.Check(within(1.0), 2.0, (Candidate("5.5", 5.5),))))
    assert tight.ok  # errs by 3.5 > 1 + 2 x 1
    near = claims.run(claim_of(claims.Check(within(1.0), 2.0, (Candidate("4.5", 4.5),))))
    assert near.holds
    assert near.controls_rejected  # errs by 2.5 > 1: rejected here...
    assert not near.ok  # ...but within the tolerance plus twice its rounding bound
    assert near.loose == (
        (
            "4.5: |4.5 - 2| = 2.5 errs by 2.5, not more than its tolerance 1 plus twice its "
            "rounding bound (3)"
        ),
    )


def test_the_loose_margin_counts_rounding_bounds_not_the_stated_allowance() -> None:
    """Fault caught: a margin that ignores the rounding bound (MARGIN = 0)."""
    check = within(0.1, stated=1.0)  # tolerance 1.1, of which 0.1 is rounding
    near = claims.run(claim_of(claims.Check(check, 2.0, (Candidate("3.25", 3.25),))))
    assert near.loose  # errs by 1.25 <= 1.1 + 2 x 0.1
    far = claims.run(claim_of(claims.Check(check, 2.0, (Candidate("3.35", 3.35),))))
    assert far.ok  # errs by 1.35 > 1.3


def test_loose_is_judged_on_the_wrong_candidates_never_on_the_true_error() -> None:
    """A machine that computes more exactly (error 0) never fails a claim; the old rule did."""
    for true in (2.0, 2.0 + 1e-12, 2.0 + 0.999):
        result = claims.run(claim_of(claims.Check(within(1.0), true, (Candidate("9", 9.0),))))
        assert result.ok, result.problems
    assert claims.MARGIN == 2.0


def test_a_rejection_by_another_condition_is_loose() -> None:
    """A wrong candidate whose error is inside the tolerance is rejected by something the
    check does not state as its tolerance: the registry says so."""

    def odd_one_out(value: float) -> claims.Evidence:
        return claims.checked(
            value != 2.5,
            f"value {value}",
            error=abs(value - 2.0),
            tolerance=Tolerance(1.0, "a test's rounding bound"),
        )

    result = claims.run(claim_of(claims.Check(odd_one_out, 2.0, (Candidate("2.5", 2.5),))))
    assert result.controls_rejected
    assert result.loose


def test_an_exact_check_holds_at_zero_error_only() -> None:
    zero = claims.within(0.0, exact("a copy"), "x")
    assert (zero.holds, zero.ratio) == (True, 0.0)
    tiny = claims.within(5e-324, exact("a copy"), "x")
    assert (tiny.holds, tiny.ratio) == (False, float("inf"))


def test_the_reported_tolerance_is_enforced() -> None:
    """Fault made harmless: a condition loosened while the reported tolerance is not."""
    one = Tolerance(1.0, "a test's rounding bound")
    assert not claims.checked(True, "x", error=2.0, tolerance=one).holds
    assert claims.checked(True, "x", error=1.0, tolerance=one).holds
    assert not claims.checked(False, "x", error=0.5, tolerance=one).holds


def test_checked_needs_both_error_and_a_tolerance_with_its_model() -> None:
    with pytest.raises(ValueError, match="both error and tolerance"):
        claims.checked(True, "x", error=1.0)
    with pytest.raises(TypeError, match="Tolerance with its model"):
        claims.checked(True, "x", error=0.0, tolerance=1e-12)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="state the rounding bound"):
        Tolerance(1e-12, "")
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite number >= 0"):
            Tolerance(bad, "model")


def _raises(value: int) -> claims.Evidence:
    raise RuntimeError(f"no evidence for {value}")


def _divides(value: int) -> claims.Evidence:
    return claims.checked(10 // (value - 3) == -10, f"10 // ({value} - 3) = -10")


def test_an_exception_fails_the_claim_with_its_message() -> None:
    """Fault caught: an exception escaping a claim (``pe verify`` would exit 2)."""
    result = claims.run(claim_of(claims.Check(_raises, 2, (Candidate("three", 3),))))
    assert not result.ok
    assert result.errors[0] == "RuntimeError: no evidence for 2"
    assert result.evidence[0].method == "error"
    for error in (ValueError, TypeError, KeyError, IndexError, AssertionError, OSError):

        def raising(value: int, error: type[Exception] = error) -> claims.Evidence:
            raise error(value)

        found = claims.run(claim_of(claims.Check(raising, 2, (Candidate("three", 3),))))
        assert found.errors[0].startswith(f"{error.__name__}: ")
    control = claims.run(claim_of(claims.Check(_divides, 2, (Candidate("three", 3),))))
    assert control.holds
    assert not control.ok
    assert control.errors == ("three: ZeroDivisionError: integer division or modulo by zero",)


def test_pe_verify_exits_1_when_a_claim_raises_or_is_loose(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pe import cli

    raising = claims.Claim(
        id="raising-claim",
        title="x",
        statement="x",
        page="claims",
        checks=(claims.Check(_raises, 2, (Candidate("three", 3),)),),
    )
    loose = claims.Claim(
        id="loose-claim",
        title="x",
        statement="x",
        page="claims",
        checks=(claims.Check(within(1.0), 2.0, (Candidate("4.5", 4.5),)),),
    )
    for bad, flag in ((raising, "ERROR"), (loose, "LOOSE")):
        monkeypatch.setattr(claims, "all_claims", lambda bad=bad: (*CLAIMS[:2], bad))
        claims.verify.cache_clear()
        try:
            assert cli.main(["verify"]) == 1
            out = capsys.readouterr().out
            assert flag in out
            assert f"  {bad.id}: " in out
            assert cli.main(["verify", "--json"]) == 1
            listed = json.loads(capsys.readouterr().out)
            assert listed[-1]["ok"] is False
        finally:
            claims.verify.cache_clear()


# Claims of kind source: a fact taken from a published work


def source_claim(source: str = "vaswani2017") -> claims.Claim:
    """A claim resting on its source alone: no checks."""
    return claims.Claim(
        id="cited-claim", title="Cited", statement="x", page="claims", checks=(), source=source
    )


def bibliography_anchors() -> set[str]:
    text = (ROOT / "docs" / "bibliography.md").read_text(encoding="utf-8")
    return set(re.findall(r'<a id="([^"]+)"></a>', text))


def test_a_source_claim_with_no_checks_verifies_with_method_source() -> None:
    result = claims.run(source_claim())
    assert (result.ok, result.method, result.source) == (True, "source", "vaswani2017")
    assert result.controls == ()


def test_a_claim_with_neither_checks_nor_source_is_refused() -> None:
    with pytest.raises(ValueError, match="'uncited' has no evidence"):
        claims.Claim(id="uncited", title="x", statement="x", page="claims", checks=())


def test_every_source_is_an_anchor_of_the_bibliography() -> None:
    anchors = bibliography_anchors()
    assert "vaswani2017" in anchors
    missing = [(c.id, c.source) for c in CLAIMS if c.source is not None and c.source not in anchors]
    assert missing == []


def test_a_cited_claim_shows_its_source_and_says_cited(monkeypatch: pytest.MonkeyPatch) -> None:
    cited = source_claim()
    checked = claims.Claim(
        id="recomputed-claim",
        title="Recomputed",
        statement="2 = 2",
        page="claims",
        checks=true_claim().checks,
        source="press2022",
    )
    monkeypatch.setattr(claims, "all_claims", lambda: (*CLAIMS, cited, checked))
    claims.verify.cache_clear()
    try:
        card, other = report.claim("cited-claim"), report.claim("recomputed-claim")
        mine = report.claim(CLAIMS[0].id)
        listed = report.claims_table([claims.verify("cited-claim"), claims.verify(CLAIMS[0].id)])
    finally:
        claims.verify.cache_clear()
    assert '">cited</a>' in card
    assert "verified at build" not in card
    assert 'cited from <a href="bibliography.md#vaswani2017">vaswani2017</a>' in card
    assert "wrong candidate" not in card
    assert '">verified at build</a>' in other
    assert 'recomputed from <a href="bibliography.md#press2022">' in other
    assert "bibliography.md" not in mine
    assert "<th>source</th>" in listed
    assert '<a href="bibliography.md#vaswani2017">vaswani2017</a>' in listed
    assert "<td>cited</td>" in listed


def test_the_claims_table_folds_each_page_and_counts_its_claims() -> None:
    """One closed fold per page, in the order of the results, its summary counting the
    page's claims of each kind (a count that took every claim as verified, or one fold for
    all, would not read so)."""
    cited, verified = claims.run(source_claim()), claims.run(true_claim())
    elsewhere = claims.run(true_claim(page="rotation-identity"))
    listed = report.claims_table([cited, verified, elsewhere])
    summaries = re.findall(r'<details class="pe-fold"><summary>([^<]*)</summary>', listed)
    assert summaries == [
        "Shown on claims: 2 claims, 1 verified and 1 cited",
        "Shown on rotation-identity: 1 claim, 1 verified",
    ]


def test_pe_verify_prints_the_sources(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pe import cli

    monkeypatch.setattr(claims, "all_claims", lambda: (true_claim(), source_claim()))
    claims.verify.cache_clear()
    try:
        assert cli.main(["verify"]) == 0
    finally:
        claims.verify.cache_clear()
    out = capsys.readouterr().out
    assert "  cited-claim: cited from vaswani2017 (docs/bibliography.md#vaswani2017)" in out
    assert out.splitlines()[-1].startswith("2 of 2 claims hold")


# Plain-text math a title must not hold outside ``$...$`` (it is typeset there instead).
PLAIN_MATH = ("_(", "^(", "<=", ">=", "[[", "^", "²", "ε", "θ", "π", "ω")


def _plain_math(title: str) -> list[str]:
    """The plain-text math marks of ``title`` outside its ``$...$`` parts."""
    words = re.sub(r"\$[^$]*\$", " ", title)
    return [mark for mark in PLAIN_MATH if mark in words]


def test_titles_typeset_their_math() -> None:
    """Every title writes its math as inline TeX, which the pages typeset."""
    found = {c.id: _plain_math(c.title) for c in claims.all_claims() if _plain_math(c.title)}
    assert found == {}
    unpaired = [c.id for c in claims.all_claims() if c.title.count("$") % 2]
    assert unpaired == []
    # The check can fail, and the page renders the TeX as math, the words escaped.
    assert _plain_math("T_(-k) = T_k^(-1) for 0 <= i and [[c, s]]") == ["_(", "^(", "<=", "[[", "^"]
    assert _plain_math(r"$T_{-k} = T_k^{-1}$ for $0 \le i$") == []
    assert str(report.title("$0 <= i$ & co")) == r"\(0 &lt;= i\) &amp; co"
    with pytest.raises(ValueError, match="unpaired"):
        report.title("costs 5 $")


def test_a_page_reads_the_proofs_the_registry_ran() -> None:
    """The proofs of a claim are the ones its checks ran, cached: no second run for the page."""
    from pe.chapters import rotation_identity

    shown = claims.proofs("rotation-identity-block-diagonal")
    assert [p.name for p in shown] == [
        "rotation identity, d = 8",
        "rotation identity, d = 64",
        "rotation identity (one pair)",
    ]
    assert shown[0] is claims.proofs("rotation-identity-block-diagonal")[0]
    assert shown[0].statement == rotation_identity.block_diagonal_identity(8).statement
    assert claims.proofs("vaswani-layer-comparison") == ()


def test_pages_show_the_registry_proof_and_label_steps_by_their_fields() -> None:
    """``report.proof_of`` folds the proof the registry ran (the second one when asked); a
    step's SymPy calls come from its ``calls``, never from parentheses in its words."""
    from pe.symbolic import Step

    second = claims.proofs("block-sign-sin-cos-order")[1]
    assert report.proof_of("block-sign-sin-cos-order", 1) == report.proof(second)
    assert report.proof_of("block-sign-sin-cos-order") != report.proof(second)
    with pytest.raises(ValueError, match="has 2 SymPy proofs, not 3"):
        report.proof_of("block-sign-sin-cos-order", 2)
    with pytest.raises(ValueError, match="has 0 SymPy proofs"):
        report.proof_of("vaswani-layer-comparison")
    assert str(report.reader_label(Step("Collect (expand)", "0"))) == "Collect (expand)"
    labelled = str(report.reader_label(Step("Collect", "0", calls=("expand", "cancel"))))
    assert labelled == (
        'Collect <span class="pe-sympy">SymPy: <code>expand</code>, <code>cancel</code></span>'
    )


def test_the_registry_discovers_the_chapters_their_claims_and_their_candidates() -> None:
    """No hand-kept list: every chapter module, every claim it declares, every candidate."""
    from pe.chapters import rotation_identity

    chapters = claims.chapters()
    assert chapters[0].follows is None
    assert all(a.stem == b.follows for a, b in itertools.pairwise(chapters))
    assert [c.id for c in CLAIMS] == [c.id for ch in chapters for c in ch.claims]
    found = claims.candidates()
    assert found["TRANSPOSED_BLOCK"] is rotation_identity.TRANSPOSED_BLOCK
    assert len(found) == len({id(c) for c in found.values()})


def test_chapters_out_of_order_are_refused() -> None:
    """Fault caught: two chapters following the same one, or one following none of them."""
    a, b = claims.Chapter("pe.chapters.a"), claims.Chapter("pe.chapters.b", follows="a")
    assert [c.stem for c in claims._in_site_order({"b": b, "a": a})] == ["a", "b"]
    twin = claims.Chapter("pe.chapters.c", follows="a")
    with pytest.raises(RuntimeError, match="both follow a"):
        claims._in_site_order({"a": a, "b": b, "c": twin})
    stray = claims.Chapter("pe.chapters.d", follows="nowhere")
    with pytest.raises(RuntimeError, match="out of the site's order: d"):
        claims._in_site_order({"a": a, "b": b, "d": stray})


def test_an_exact_check_fails_on_any_error() -> None:
    assert claims.exactly(0.0, "a count", "0 = 0").holds
    assert not claims.exactly(1.0, "a count", "1 = 0").holds
    assert claims.exactly(0.0, "a count", "x").tolerance == exact("a count")


def test_card_lines_print_no_marker_and_hide_what_rounding_decides() -> None:
    """Every line of every claim card is plain text on the site and in ``pe verify``; a
    figure marked as rounding's (``measured``) prints its bound on the site only."""
    lines = [e for r in claims.verify_all() for e in (*r.evidence, *r.controls)]
    assert not any(set("⟦‖⟧") & set(e.text + e.shown) for e in lines)
    marked = [e for e in lines if e.text != e.shown]
    assert len(marked) > 20
    assert sum("below" in e.shown for e in marked) > 20


def test_a_card_lists_a_wrong_candidate_rejected_the_same_way_twice_once() -> None:
    """dog-bites-man-same-outputs runs one wrong candidate through two checks with the same
    result: its card shows that line once, and every other line it has."""
    result = claims.verify("dog-bites-man-same-outputs")
    shown = [e.shown for e in result.controls]
    assert len(shown) > len(set(shown))  # the registry keeps both runs
    card = report.claim("dog-bites-man-same-outputs")
    items = re.findall(r"<li>.*?</li>", card)
    assert len(items) == len(set(items))
    assert len(items) == len({e.shown for e in (*result.evidence, *result.controls)})


def test_a_marked_figure_past_its_bound_is_printed_and_marks_do_not_nest() -> None:
    inside = claims.checked(True, f"gap {claims.measured(3e-16, 1e-12)}")
    past = claims.checked(False, f"gap {claims.measured(0.5, 1e-12)}")
    unstable = claims.checked(False, f"gap {claims.measured(0.5, 1e-12, stable=False)}")
    assert (inside.text, inside.shown) == ("gap 3e-16", "gap below 1e-12")
    assert (past.text, past.shown) == ("gap 0.5", "gap 0.5")
    assert unstable.shown == "gap above 1e-12"
    with pytest.raises(ValueError, match="marker"):
        claims.on_site(claims.measured(1.0, 2.0), "x")


# The wrong candidates' own path: each one is run, whatever it equals.


class _Two:
    """A value equal to 2 that is not the object 2: a distinct wrong candidate equal to the truth."""

    def __eq__(self, other: object) -> bool:
        return other == 2 or isinstance(other, _Two)

    def __hash__(self) -> int:
        return hash(2)

    def __repr__(self) -> str:
        return "2"


def every_wrong_candidate_runs() -> None:
    """The suite's check of the path: each wrong candidate reaches the check itself, once,
    as the very object declared (even the true value, or a distinct value equal to it), and
    a wrong candidate the check accepts fails the claim."""
    seen: list[object] = []

    def recorded(value: object) -> claims.Evidence:
        seen.append(value)
        return claims.checked(value == 2, f"{value!r} = 2")

    truth = 2
    twin, same, three = _Two(), truth, 3
    claim = claim_of(
        claims.Check(
            recorded,
            truth,
            (Candidate("three", three), Candidate("twin", twin), Candidate("same", same)),
        )
    )
    result = claims.run(claim)
    assert seen[0] is truth, "the true candidate runs first"
    ran = seen[1:]
    assert len(ran) == 3, f"each wrong candidate runs once: {ran}"
    assert ran[0] is three
    assert ran[1] is twin
    assert ran[2] is same
    assert [c.holds for c in result.controls] == [False, True, True]
    assert not result.controls_rejected
    assert not result.ok
    accepted = [p for p in result.problems if p.startswith("wrong candidate accepted")]
    assert accepted == [
        "wrong candidate accepted: twin: 2 = 2",
        "wrong candidate accepted: same: 2 = 2",
    ]


def test_every_wrong_candidate_is_run_even_one_equal_to_the_truth() -> None:
    """Fault caught: a shortcut that reuses the true verdict for a candidate equal to it."""
    every_wrong_candidate_runs()


def test_an_accepted_distinct_equal_candidate_fails_the_claim() -> None:
    twin = _Two()
    assert isinstance(twin, _Two)  # a distinct object...
    assert twin == 2  # ...equal in value to the truth
    result = claims.run(claim_of(claims.Check(equals_two, 2, (Candidate("twin", twin),))))
    assert result.holds
    assert not result.controls_rejected
    assert not result.ok


def test_a_registry_that_skips_the_wrong_candidates_fails_the_suite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: wrong candidates reported rejected without being run."""

    def unrun(check: claims.Check[object], value: object) -> claims.Evidence:
        if value is check.true:
            return check.run(value)
        return claims.Evidence(claims.Method.NUMPY, False, "rejected (not run)")

    monkeypatch.setattr(claims, "_attempt", unrun)
    assert claims.run(true_claim()).ok  # the claim alone cannot tell...
    with pytest.raises(AssertionError):
        every_wrong_candidate_runs()  # ...the suite's check of the path does


def test_a_registry_that_reuses_the_true_verdict_fails_the_suite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: the old shortcut (the true verdict for a candidate equal to the truth)."""

    def shortcut(
        check: claims.Check[object], truth: claims.Evidence
    ) -> tuple[claims.Evidence, tuple[claims.Evidence, ...]]:
        wrong = tuple(
            claims._named(
                c.name, truth if c.value == check.true else claims._attempt(check, c.value)
            )
            for c in check.wrong
        )
        return claims._named(claims.TRUE_CONTROL, truth), wrong

    monkeypatch.setattr(claims, "_controls", shortcut)
    with pytest.raises(AssertionError, match="each wrong candidate runs once"):
        every_wrong_candidate_runs()


def test_verify_json_lists_each_checks_wrong_candidates_under_its_evidence() -> None:
    """``pe verify --json``: every piece of evidence carries the wrong candidates its own
    check rejected, named, each not holding; together they are the claim's controls."""
    result = claims.verify("rotation-identity")
    data = result.to_json()
    evidence = data["evidence"]
    assert isinstance(evidence, list)
    per_check = [entry["controls"] for entry in evidence]
    assert sum(len(c) for c in per_check) == len(result.controls) > 0
    assert all(not c["holds"] for controls in per_check for c in controls)
    flat = [c["detail"] for controls in per_check for c in controls]
    assert flat == [c.text for c in result.controls]
    assert all(
        len(c) >= 1
        for c, check in zip(per_check, claims.get("rotation-identity").checks, strict=True)
        if check.wrong
    )


def test_case_by_case_names_each_case_that_differs() -> None:
    """Every case is printed; one that differs from the statement says what was stated, a
    case the statement lacks says "nothing", and a stated case never found fails the check.

    Fault caught: a rejected candidate's line that repeats the holding line word for word
    (audit v22), or a comparison of the cases found only."""
    found = {"a": 1, "b": 2}
    same = claims.case_by_case(found, {"a": 1, "b": 2}, str.upper)
    assert (same.holds, same.text) == (True, "A: 1; B: 2")
    differs = claims.case_by_case(found, {"a": 1, "b": 3}, str.upper, lambda v: f"<{v}>")
    assert (differs.holds, differs.text) == (False, "A: <1>; B: <2> (stated: <3>: differs)")
    unstated = claims.case_by_case(found, {"a": 1}, str)
    assert (unstated.holds, unstated.text) == (False, "a: 1; b: 2 (stated: nothing: differs)")
    assert not claims.case_by_case({"a": 1}, {"a": 1, "c": 0}, str).holds


def test_a_rejected_line_that_reads_as_the_true_one_says_so() -> None:
    """A check that prints only what it found prints the same account for a wrong stated
    value as for the true one: the rejected line says these are the true statement's
    findings, which the candidate does not match; a different account is left as it is.

    Fault caught: a rejected line identical to the holding line (audit v23)."""

    def found_only(stated: int) -> claims.Evidence:
        return claims.checked(stated == 32, "32 buckets found")

    def found_and_stated(stated: int) -> claims.Evidence:
        return claims.checked(stated == 32, f"32 buckets found, stated {stated}")

    same = claims.run(claim_of(claims.Check(found_only, true=32, wrong=(Candidate("64", 64),))))
    assert same.evidence[0].detail == "32 buckets found"
    assert same.controls[0].detail == f"64: 32 buckets found ({claims.SAME_FINDINGS})"
    named = claims.run(
        claim_of(claims.Check(found_and_stated, true=32, wrong=(Candidate("64", 64),)))
    )
    assert named.controls[0].detail == "64: 32 buckets found, stated 64"
