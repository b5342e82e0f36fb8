"""pe.symbolic, the proof engine: symbols, the shift block, R(theta), Derivation and Proof."""

from __future__ import annotations

import inspect

import sympy as sp

from pe import symbolic
from pe.symbolic import OMEGA, Derivation, K, P, pair, rotation, shift_block


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


def test_a_non_zero_residual_does_not_hold() -> None:
    derivation = Derivation()
    residual = shift_block(K, OMEGA).T * pair(P, OMEGA) - pair(P + K, OMEGA)
    proof = derivation.proof("wrong", "s", derivation.angle_addition(residual))
    assert not proof.holds
    assert proof.summary().endswith("residual is not zero")
    assert proof.residual_latex() != "0"


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
