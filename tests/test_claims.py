"""The claim registry: every claim holds, rejects its wrong candidates and is shown on its page."""

from __future__ import annotations

import json
import re

import pytest

from pe import claims
from pe.proofs.wrong import Candidate
from pe.site import report

from .conftest import ROOT, run_pe
from .helpers import equals_two, false_claim, true_claim

CLAIMS = claims.all_claims()


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_holds(claim: claims.Claim) -> None:
    result = claims.verify(claim.id)
    assert result.holds, [e.detail for e in result.evidence]


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_rejects_every_wrong_candidate(claim: claims.Claim) -> None:
    result = claims.verify(claim.id)
    assert result.controls, "every claim needs at least one wrong candidate"
    accepted = [e.detail for e in result.controls if e.holds]
    assert accepted == []


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_is_shown_on_its_page(claim: claims.Claim) -> None:
    pages = [ROOT / "docs" / f"{claim.page}{ext}" for ext in (".py", ".md")]
    page = next((p for p in pages if p.exists()), None)
    assert page is not None, f"{claim.id}: page {claim.page!r} does not exist"
    assert re.search(rf"[\"']{re.escape(claim.id)}[\"']", page.read_text()), (
        f"{claim.id} is not shown on {page.name}"
    )


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


def test_a_claim_needs_a_statement_or_a_proof() -> None:
    claim = claims.Claim(
        id="x", title="x", page="x", checks=(claims.Check(equals_two, 2, (Candidate("3", 3),)),)
    )
    with pytest.raises(ValueError, match="no statement and no proof"):
        claims.run(claim)


def test_the_statement_comes_from_the_proof() -> None:
    from pe import symbolic
    from pe.proofs import rotation_identity, wrong

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


def test_verify_json_lists_every_claim() -> None:
    result = run_pe("verify", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert [c["id"] for c in listed] == [c.id for c in CLAIMS]
    for entry in listed:
        assert {"id", "statement", "method", "holds"} <= entry.keys()
        assert entry["holds"] is True
        assert entry["method"] in {"sympy", "numpy", "sympy+numpy"}
