"""pe.symbolic, the proof engine: symbols, the shift block, R(theta), Derivation and Proof."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import sympy as sp

from pe import symbolic
from pe.chapters import rotation_identity as identity_proofs
from pe.symbolic import (
    OMEGA,
    Counterexample,
    Derivation,
    K,
    P,
    Verdict,
    pair,
    rotation,
    shift_block,
)


def _assert_exponential_sum_nonzero(value: Any) -> None:
    """Numerator and denominator are sums of Gaussian rationals times exponentials of
    distinct algebraic numbers, one coefficient non-zero: non-zero by Lindemann-Weierstrass
    (sines and cosines rewritten as exponentials first)."""
    for part in sp.fraction(sp.together(sp.expand(value.rewrite(sp.exp)))):
        sums: dict[Any, Any] = {}
        for term in sp.Add.make_args(sp.expand(part)):
            coefficient, exponent = sp.Integer(1), sp.Integer(0)
            for factor in sp.Mul.make_args(term):
                if factor.is_Rational or factor is sp.I:
                    coefficient *= factor
                elif factor is sp.E:
                    exponent += 1
                else:
                    assert isinstance(factor, sp.exp), factor
                    assert factor.args[0].is_algebraic, factor
                    exponent += factor.args[0]
            key = sp.expand(exponent)
            sums[key] = sums.get(key, 0) + coefficient
        assert any(c != 0 for c in sums.values()), value


def _assert_exact_counterexample(residual: Any, found: Counterexample) -> None:
    """Re-evaluate the residual at the point, exactly, independently of the search."""
    entry = list(sp.Matrix(residual))[found.entry]
    for symbol, value in found.point:
        assert value.is_real, (symbol, value)
        assert not value.atoms(sp.Float), (symbol, value)
        if symbol.is_integer:
            assert value.is_integer, (symbol, value)
        if symbol.is_positive:
            assert value.is_positive, (symbol, value)
    value = sp.expand(entry.subs(found.substitution()))
    assert not value.free_symbols
    assert not value.atoms(sp.Float)
    assert sp.expand((value - found.value).rewrite(sp.exp)) == 0
    if value.atoms(sp.exp, sp.sin, sp.cos) or value.has(sp.E):
        _assert_exponential_sum_nonzero(value)
    elif value.atoms(sp.log) or value.has(sp.pi):
        assert value.is_zero is False
    else:  # algebraic: its minimal polynomial is not x (exact, no floats)
        x = sp.Symbol("x")
        assert sp.minimal_polynomial(value, x) != x


def test_a_proof_cannot_be_changed_after_it_is_made() -> None:
    """A verdict is final: a Proof is frozen (the registry caches proofs and pages render
    them; a proof turned to "holds" after the fact would be shown as proved)."""
    import dataclasses

    proof = identity_proofs.rotation_identity()
    with pytest.raises(dataclasses.FrozenInstanceError):
        proof.holds = not proof.holds  # type: ignore[misc]


def test_shift_block_is_the_clockwise_rotation() -> None:
    theta = sp.Symbol("theta", real=True)
    assert shift_block(1, theta) == rotation(-theta)
    assert shift_block(-K, OMEGA) == shift_block(K, OMEGA).T


def test_rotation_turns_counter_clockwise() -> None:
    assert rotation(sp.pi / 2) * sp.Matrix([1, 0]) == sp.Matrix([0, 1])


def test_pair_is_sine_then_cosine() -> None:
    assert pair(P, OMEGA) == sp.Matrix([sp.sin(OMEGA * P), sp.cos(OMEGA * P)])


def test_to_latex_shows_omega() -> None:
    assert r"\omega_{i}" in symbolic.to_latex(shift_block(K, OMEGA))
    assert symbolic.to_latex(symbolic.BASE) == r"\mathrm{base}"
    assert symbolic.to_latex(3) == "3"


def test_angle_addition_reduces_the_identity_and_records_each_step() -> None:
    derivation = Derivation()
    residual = shift_block(K, OMEGA) * pair(P, OMEGA) - pair(P + K, OMEGA)
    proof = derivation.proof("identity", "s", derivation.angle_addition(residual))
    assert proof.holds
    step = proof.steps[1]
    assert (step.words, step.calls) == ("Apply the angle-addition formulas", ("expand_trig",))
    assert step.title == "Apply the angle-addition formulas (expand_trig)"
    assert proof.summary() == "identity: 3 steps, residual is exactly 0"


def test_a_non_zero_residual_is_disproved_at_an_exact_point() -> None:
    derivation = Derivation()
    residual = shift_block(K, OMEGA).T * pair(P, OMEGA) - pair(P + K, OMEGA)
    proof = derivation.proof("wrong", "s", derivation.angle_addition(residual))
    assert not proof.holds
    assert proof.verdict is Verdict.DISPROVED
    assert proof.counterexample is not None
    assert "disproved at " in proof.summary()
    assert proof.counterexample.text() in proof.summary()
    assert proof.residual_latex() != "0"
    _assert_exact_counterexample(residual, proof.counterexample)


def test_pythagoras_is_a_named_step() -> None:
    x = sp.Symbol("x", real=True)
    derivation = Derivation()
    residual = derivation.pythagoras(sp.Matrix([sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1]))
    assert list(residual) == [0]
    assert any("sin²x = 1 − cos²x" in s.title for s in derivation.steps)
    assert list(Derivation().pythagoras(sp.Matrix([sp.sin(x) ** 2]))) != [0]


def test_note_keeps_the_form() -> None:
    derivation = Derivation()
    derivation.note("a form", "x", sp.Symbol("x"))
    assert derivation.steps[0].latex == "x"
    assert derivation.steps[0].expr == sp.Symbol("x")


def test_the_engine_never_simplifies() -> None:
    source = inspect.getsource(symbolic)
    assert "simplify(" not in source
    assert "nsimplify" not in source


def test_product_residual_and_one_step_angle_addition() -> None:
    derivation = Derivation()
    residual = derivation.product_residual(
        shift_block(K, OMEGA), pair(P, OMEGA), pair(P + K, OMEGA)
    )
    assert residual.shape == (2, 1)
    reduced = derivation.angle_addition_in_one_step(residual, shown=1)
    assert list(reduced) == [0, 0]
    assert derivation.steps[-1].words.endswith("0 of 2 entries are non-zero")
    assert derivation.steps[-1].calls == ("expand",)
    wrong = Derivation().angle_addition_in_one_step(
        shift_block(K, OMEGA).T * pair(P, OMEGA) - pair(P + K, OMEGA), shown=1
    )
    assert any(entry != 0 for entry in wrong)


def test_a_step_names_the_sympy_functions_it_applied() -> None:
    """The calls are data, stated with the step, never parsed out of its words."""
    derivation = Derivation()
    matrix = sp.Matrix([P * (P + K)])
    derivation.apply("Multiply out", matrix, sp.expand, calls=("expand",))
    derivation.apply("Square", matrix, lambda e: e**2)
    derivation.note("Look (expand)", "0")
    assert [step.calls for step in derivation.steps] == [("expand",), (), ()]
    assert [step.title for step in derivation.steps] == [
        "Multiply out (expand)",
        "Square",
        "Look (expand)",
    ]


# --- Verdicts: proved, disproved with an exact point, not decided ---------------------------

THETA = sp.Symbol("theta", real=True)


def _block(cos: Any, sin: Any) -> Any:
    return sp.Matrix([[cos, sin], [-sin, cos]])


def _half_angle(k: Any, w: Any) -> Any:
    half = k * w / 2
    return _block(1 - 2 * sp.sin(half) ** 2, 2 * sp.sin(half) * sp.cos(half))


def _exponential(k: Any, w: Any) -> Any:
    turn = sp.exp(sp.I * k * w)
    return _block((turn + 1 / turn) / 2, (turn - 1 / turn) / (2 * sp.I))


def _product_to_sum(k: Any, w: Any) -> Any:
    third = k * w / 3
    cos = sp.cos(third) * sp.cos(2 * third) - sp.sin(third) * sp.sin(2 * third)
    sin = sp.sin(third) * sp.cos(2 * third) + sp.cos(third) * sp.sin(2 * third)
    return _block(cos, sin)


def _cos_squares(k: Any, w: Any) -> Any:
    half = k * w / 2
    return _block(sp.cos(half) ** 2 - sp.sin(half) ** 2, sp.sin(k * w))


CORRECT_FORMS = {
    "paper": shift_block,
    "half-angle": _half_angle,
    "exponential": _exponential,
    "product-to-sum": _product_to_sum,
    "cos² − sin²": _cos_squares,
}


def _proved_by_residual(block: symbolic.Block) -> symbolic.Proof:
    residual = block(K, OMEGA) * pair(P, OMEGA) - pair(P + K, OMEGA)
    derivation = Derivation()
    return derivation.proof("identity", "s", derivation.angle_addition(residual))


@pytest.mark.parametrize("form", sorted(CORRECT_FORMS))
def test_every_correct_form_of_the_block_is_proved(form: str) -> None:
    proof = _proved_by_residual(CORRECT_FORMS[form])
    assert proof.verdict is Verdict.PROVED
    assert proof.holds
    assert proof.counterexample is None
    assert all(entry == 0 for entry in proof.residual)


@pytest.mark.parametrize("form", sorted(CORRECT_FORMS))
def test_every_correct_form_is_proved_by_the_chapter(form: str) -> None:
    assert identity_proofs.rotation_identity(CORRECT_FORMS[form]).verdict is Verdict.PROVED
    assert identity_proofs.block_diagonal_identity(4, block=CORRECT_FORMS[form]).holds


@pytest.mark.parametrize("form", ["half-angle", "exponential", "product-to-sum"])
def test_forms_the_chain_leaves_are_closed_by_the_exponential_step(form: str) -> None:
    proof = identity_proofs.rotation_identity(CORRECT_FORMS[form])
    assert proof.steps[-1].calls == ("rewrite", "expand")
    assert proof.steps[-1].title.startswith("Rewrite sin, cos as exponentials")


WRONG_BLOCKS: dict[str, symbolic.Block] = {
    "transposed": lambda k, w: shift_block(k, w).T,
    "flipped sign": lambda k, w: _block(sp.cos(k * w), -sp.sin(k * w)),
    "scaled by 2": lambda k, w: 2 * shift_block(k, w),
    "not a rotation": lambda k, w: sp.Matrix(
        [[sp.cos(k * w), sp.sin(k * w)], [sp.sin(k * w), sp.cos(k * w)]]
    ),
    "textbook R(kω)": lambda k, w: rotation(k * w),
    "twice the frequency": lambda k, w: shift_block(k, 2 * w),
    "half-angle, transposed": lambda k, w: _half_angle(k, w).T,
    "exponential, flipped sign": lambda k, w: _exponential(-k, w),
    "half angle off by one": lambda k, w: _block(
        1 - sp.sin(k * w / 2) ** 2, 2 * sp.sin(k * w / 2) * sp.cos(k * w / 2)
    ),
}


@pytest.mark.parametrize("name", sorted(WRONG_BLOCKS))
def test_every_wrong_block_is_disproved_with_an_exact_point(name: str) -> None:
    block = WRONG_BLOCKS[name]
    proof = identity_proofs.rotation_identity(block)
    assert proof.verdict is Verdict.DISPROVED
    assert proof.counterexample is not None
    residual = block(K, OMEGA) * pair(P, OMEGA) - pair(P + K, OMEGA)
    _assert_exact_counterexample(residual, proof.counterexample)


@pytest.mark.parametrize(
    "candidate",
    [
        identity_proofs.TRANSPOSED_BLOCK,
        identity_proofs.SCALED_BLOCK,
        identity_proofs.NOT_A_ROTATION,
        identity_proofs.TEXTBOOK_ROTATION,
        identity_proofs.DOUBLED_FREQUENCY_BLOCK,
    ],
    ids=lambda c: c.name,
)
def test_the_chapters_named_wrong_blocks_are_disproved(candidate: Any) -> None:
    proof = identity_proofs.rotation_identity(candidate.value)
    assert proof.verdict is Verdict.DISPROVED, proof.summary()
    assert proof.counterexample is not None
    residual = candidate.value(K, OMEGA) * pair(P, OMEGA) - pair(P + K, OMEGA)
    _assert_exact_counterexample(residual, proof.counterexample)
    wide = identity_proofs.block_diagonal_identity(8, block=candidate.value)
    assert wide.verdict is Verdict.DISPROVED
    assert wide.counterexample is not None


@pytest.mark.parametrize(
    "residual",
    [
        sp.sin(K**2) ** 2 + sp.cos(K**2) ** 2 - 1,
        sp.sin(2 * sp.sin(K)) - 2 * sp.sin(sp.sin(K)) * sp.cos(sp.sin(K)),
        sp.log((1 + K**2) ** 2) - 2 * sp.log(1 + K**2),
    ],
    ids=[
        "sin²(k²) + cos²(k²) − 1",
        "sin(2 sin k) − 2 sin(sin k) cos(sin k)",
        "log((1+k²)²) − 2 log(1+k²)",
    ],
)
def test_a_true_residual_outside_the_class_is_not_decided(residual: Any) -> None:
    """True everywhere, but outside the class the complete step decides: no point can be
    found, and the prover says "not decided", never "proved" by a partial rewrite."""
    proof = Derivation().proof("outside", "s", sp.Matrix([residual]))
    assert proof.verdict is Verdict.NOT_DECIDED
    assert not proof.holds
    assert proof.counterexample is None
    assert "not decided" in proof.summary()
    assert "outside" in proof.reason


@pytest.mark.parametrize(
    "residual",
    [
        sp.sin(K**2) - sp.sin(K) ** 2,
        sp.sin(2 * K**2) - 2 * sp.sin(K**2),
        sp.cos(K**2) - sp.cos(K) ** 2,
    ],
    ids=["sin(k²) − sin²k", "sin(2k²) − 2 sin(k²)", "cos(k²) − cos²k"],
)
def test_a_false_residual_outside_the_class_is_disproved_at_an_exact_point(residual: Any) -> None:
    """Outside the class a false statement is still disproved when a point exists: its
    value there, a sum of sines of algebraic angles, is non-zero by Lindemann-Weierstrass."""
    proof = Derivation().proof("outside", "s", sp.Matrix([residual]))
    assert proof.verdict is Verdict.DISPROVED
    assert proof.counterexample is not None
    _assert_exact_counterexample(sp.Matrix([residual]), proof.counterexample)


def test_a_non_zero_trigonometric_polynomial_without_a_point_is_not_decided() -> None:
    """sin(k) − sin(k√2 ... ) style: no eighth turn of both; said so, never "false"."""
    residual = sp.Matrix([sp.sin(K) - sp.sin(sp.sqrt(2) * K) - 1 + sp.cos(K)])
    decision = symbolic.decide(residual, [K])
    assert decision.verdict in (Verdict.DISPROVED, Verdict.NOT_DECIDED)
    if decision.verdict is Verdict.NOT_DECIDED:
        assert decision.reason == "not identically 0, but no exact point found"


def test_decide_reports_each_verdict_with_its_reason() -> None:
    zero = symbolic.decide(sp.Matrix([0, 0]))
    assert (zero.verdict, zero.steps) == (Verdict.PROVED, ())
    half = symbolic.decide(sp.Matrix([1 - 2 * sp.sin(THETA / 2) ** 2 - sp.cos(THETA)]))
    assert half.verdict is Verdict.PROVED
    assert half.reason == "the exponential form is 0"
    wrong = symbolic.decide(sp.sin(THETA) - sp.cos(THETA))
    assert wrong.verdict is Verdict.DISPROVED
    assert wrong.counterexample is not None
    _assert_exact_counterexample(sp.Matrix([sp.sin(THETA) - sp.cos(THETA)]), wrong.counterexample)
    assert wrong.steps == ()  # the point is the disproof, shown with the verdict


def test_exponential_form_is_zero_exactly_for_identities() -> None:
    assert symbolic.exponential_form(sp.sin(2 * THETA) - 2 * sp.sin(THETA) * sp.cos(THETA)) == 0
    assert symbolic.exponential_form(sp.cos(THETA / 3) ** 2 + sp.sin(THETA / 3) ** 2 - 1) == 0
    assert symbolic.exponential_form(sp.sin(THETA + K) - sp.sin(THETA) * sp.cos(K)) != 0
    assert symbolic.exponential_form(sp.cos(THETA) - sp.cos(-THETA)) == 0


def test_the_class_is_trigonometric_polynomials_in_linear_arguments() -> None:
    assert symbolic.in_linear_class(sp.sin(OMEGA * (P + K)) * K**2, [P, K])
    assert not symbolic.in_linear_class(sp.sin(P * K), [P, K])
    assert not symbolic.in_linear_class(sp.sin(K) / K, [K])
    assert not symbolic.in_linear_class(sp.exp(K), [K])


def test_a_proof_is_disproved_exactly_when_it_has_a_counterexample() -> None:
    with pytest.raises(ValueError, match="counterexample"):
        symbolic.Proof("n", "s", (), Verdict.DISPROVED, sp.Matrix([1]))
    found = Counterexample(((K, sp.Integer(0)),), 0, sp.Integer(1))
    with pytest.raises(ValueError, match="counterexample"):
        symbolic.Proof("n", "s", (), Verdict.PROVED, sp.Matrix([0]), found)


def test_a_counterexample_needs_an_exact_non_zero_value() -> None:
    """Values the search must not certify: floats, zero in disguise, transcendental sums."""
    nonzero = symbolic._exactly_nonzero
    assert nonzero(sp.Integer(-2))
    assert nonzero(sp.sqrt(2) - 1)
    assert nonzero(1 + sp.I)
    assert nonzero(sp.pi - 3)
    assert nonzero(sp.log(2) / 2)
    assert nonzero(2 ** sp.Rational(-2, 3) - sp.Rational(1, 2))
    assert not nonzero(sp.Float(0.5))
    assert not nonzero(sp.sqrt(8) - 2 * sp.sqrt(2))
    assert not nonzero(sp.sqrt(2) - 8 ** sp.Rational(1, 6))
    assert nonzero(sp.sin(1))  # (e^i - e^-i)/2i: distinct algebraic exponents
    assert nonzero(sp.sin(2) - 2 * sp.sin(1))
    assert not nonzero(sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1)  # 0 in disguise
    assert not nonzero(sp.sin(2) - 2 * sp.sin(1) * sp.cos(1))
    assert not nonzero(sp.sin(sp.sin(1)))  # an exponent that is not algebraic
    assert not nonzero(sp.pi - sp.E)
    assert not nonzero(K)


def test_outside_the_class_an_exact_point_still_disproves() -> None:
    """e^k − 1 − k at k = 1 is e − 2: Lindemann-Weierstrass makes it exactly non-zero."""
    residual = sp.Matrix([sp.exp(K) - 1 - K])
    decision = symbolic.decide(residual)
    assert decision.verdict is Verdict.DISPROVED
    assert decision.counterexample is not None
    _assert_exact_counterexample(residual, decision.counterexample)


def _assert_in_the_pages_domain(found: Counterexample) -> None:
    """A width is even, a pair index below half of it, a base (``base``, NTK's ``b``) or a
    stretch ``s`` above 1: the point is one the page's statement is about (the symbols
    named as the pages name them)."""
    point = {str(symbol): value for symbol, value in found.point}
    if "d" in point:
        assert point["d"] % 2 == 0, found.text()
        if "i" in point:
            assert 0 <= point["i"] < point["d"] / 2, found.text()
    for symbol, value in found.point:  # a positive b is NTK's base (the offset b is real)
        if str(symbol) in ("base", "b", "s") and symbol.is_positive:
            assert value > 1, found.text()


def test_the_search_also_tries_one_monomial_of_the_contents_at_a_time() -> None:
    """Besides its grid (every content non-zero, every pair mixed), the search sets the
    contents of one monomial to 1 and the rest to 0, so one pair's terms are seen alone."""
    q0, q1, k0, k1 = contents = sp.symbols("q_0 q_1 k_0 k_1", real=True)
    entry = q0 * k0 * sp.sin(K) + q1 * k1 * sp.cos(K)
    seen = set()
    for point, _, _ in symbolic._points(entry, [*contents, K], 10):
        values = dict(point)
        if all(values.get(c) in (0, 1) for c in contents):
            seen.add(tuple(str(c) for c in contents if values[c] == 1))
    assert {("q_0", "k_0"), ("q_1", "k_1")} <= seen


def test_the_search_draws_parameters_from_the_domain() -> None:
    """(base - 2)(base - pi/2) cos(omega_i k) is non-zero at base = 1, but a base of 1 is
    not one the page's statements are about: the point found lies inside
    :data:`symbolic.DOMAIN` (base pi); with no relation to keep, the search takes base 1."""
    base = symbolic.BASE
    residual = sp.Matrix([(base - 2) * (base - sp.pi / 2) * sp.cos(symbolic.OMEGA * K)])
    found = symbolic.find_counterexample(residual, [K])
    assert found is not None
    _assert_exact_counterexample(residual, found)
    _assert_in_the_pages_domain(found)
    anywhere = symbolic.find_counterexample(residual, [K], where=())
    assert anywhere is not None
    _assert_exact_counterexample(residual, anywhere)
    assert dict(anywhere.point)[symbolic.BASE] == 1


def test_every_wrong_candidate_of_a_registered_proof_is_disproved_or_outside_the_class() -> None:
    """Across the registry: a wrong candidate's proof is never proved; where disproved, its
    point re-evaluates exactly to a non-zero value; inside the class (trigonometric
    polynomials in linear arguments) it is always disproved, never left undecided."""
    from pe import claims

    verdicts = []
    for result in claims.verify_all():
        for control in result.controls:
            proof = control.proof
            if proof is None:
                continue
            if proof.holds:  # a control rejected on another ground (no counterexample)
                continue
            verdicts.append(proof.verdict)
            if proof.counterexample is not None:
                _assert_exact_counterexample(proof.residual, proof.counterexample)
                assert proof.counterexample.text() in control.text
                _assert_in_the_pages_domain(proof.counterexample)
            else:
                assert proof.reason == "outside trigonometric polynomials in linear arguments", (
                    control.text
                )
    assert verdicts.count(Verdict.DISPROVED) > 10 * verdicts.count(Verdict.NOT_DECIDED)


def test_a_sum_of_exponentials_is_non_zero_whatever_the_signs_of_its_coefficients() -> None:
    """Lindemann-Weierstrass needs one non-zero coefficient, of either sign: a numerator or a
    denominator whose coefficients are all negative is non-zero too; 0 over a sum is not."""
    from pe import symbolic

    e, r = sp.exp(1), sp.exp(sp.sqrt(2))
    assert symbolic._exponentials_nonzero(-r / (1 + e))
    assert symbolic._exponentials_nonzero(r / (-1 - 2 * e))
    assert symbolic._exponentials_nonzero((-3 * r - e) / (-e))
    assert not symbolic._exponentials_nonzero(sp.Integer(0) / (1 + e))


def test_pythagorean_reduce() -> None:
    x = sp.Symbol("x", real=True)
    assert symbolic.pythagorean_reduce(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1, x) == 0
    quartic = sp.sin(x) ** 4 - sp.cos(x) ** 4 - sp.sin(x) ** 2 + sp.cos(x) ** 2
    assert symbolic.pythagorean_reduce(quartic, x) == 0
    assert symbolic.pythagorean_reduce(quartic - 1, x) != 0
    assert symbolic.pythagorean_reduce(sp.sin(x) * sp.cos(x), x) != 0


def test_exact_frequencies_are_rational_powers_of_the_base() -> None:
    assert symbolic.exact_frequencies(6, sp.Rational(7, 2)) == [
        sp.Integer(1),
        sp.Rational(7, 2) ** sp.Rational(-1, 3),
        sp.Rational(7, 2) ** sp.Rational(-2, 3),
    ]
    for bad, error in ((10000.0, TypeError), (True, TypeError), (1, ValueError)):
        with pytest.raises(error, match="base must be"):
            symbolic.exact_frequencies(8, bad)


def test_exact_width_is_even_and_bounded() -> None:
    assert symbolic.exact_width(64, 64) == 64
    with pytest.raises(ValueError, match="<= 64 for an exact proof"):
        symbolic.exact_width(66, 64)
    with pytest.raises(ValueError, match="must be even"):
        symbolic.exact_width(7, 64)


def test_a_logarithm_of_a_rational_below_one_is_a_nonzero_factor() -> None:
    """log(2/3) is negative, not zero: a product with it is decided non-zero, like one with
    log(3/2); log(1) is 0 and SymPy writes it so."""
    assert symbolic._nonzero_product(sp.log(sp.Rational(2, 3)) * sp.pi)
    assert symbolic._nonzero_product(sp.log(sp.Rational(3, 2)))
    assert not symbolic._nonzero_product(sp.log(sp.Rational(2, 3)) + 1)


def test_a_logarithm_of_anything_but_a_rational_is_not_decided_non_zero() -> None:
    """log(x) of a positive symbol is 0 at x = 1: it is not a factor known to be non-zero,
    although x > 0 and x != 1 as expressions (the wrong candidate: those two tests alone)."""
    x = sp.Symbol("x", positive=True)
    assert not symbolic._nonzero_product(sp.log(x))
    assert not symbolic._nonzero_product(sp.pi * sp.log(x + 2))
