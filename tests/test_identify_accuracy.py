"""pe.identify_accuracy: what identify recovers from tables of known conventions."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pe import bug_zoo, conventions, identify_accuracy
from pe.identify import identify


@dataclasses.dataclass(frozen=True)
class Mislabelled(conventions.Convention):
    """Says "paper" but makes the halves table."""

    def table(
        self, n_positions: int, d_model: int, *, dtype: npt.DTypeLike = np.float64
    ) -> npt.NDArray[Any]:
        return conventions.get("halves").table(n_positions, d_model, dtype=dtype)


def test_recovery_of_a_few_conventions() -> None:
    named = {name: conventions.get(name) for name in ("paper", "fairseq")}
    found = identify_accuracy.recovery(named)
    assert (found.cases, found.failures, found.bugs_named) == (12, [], True)
    mislabelled = identify_accuracy.recovery({"mislabelled": Mislabelled("mislabelled", "x")})
    assert len(mislabelled.failures) == 6


def test_non_encodings_are_refused() -> None:
    assert all(
        not identify(table).is_encoding for table in identify_accuracy.non_encodings().values()
    )


def test_slow_cosines_follow_eps_over_theta_squared() -> None:
    cosine, sine, slow = identify_accuracy.uncertainty_slopes()
    # the slow pairs are those that turn less than half a radian over the n = 256 rows
    omega = identify_accuracy.SLOW_BASE ** (-np.arange(0, 128, 2) / 128)
    assert slow == int(np.sum(omega * 255 < 0.5)) > 10
    assert cosine == pytest.approx(-2.0, abs=0.25)
    assert sine == pytest.approx(0.0, abs=0.25)


def test_every_bug_of_the_zoo_has_a_sign_and_is_named() -> None:
    assert set(identify_accuracy.BUG_SIGNS) == {bug.name for bug in bug_zoo.BUGS}
    assert all(identify_accuracy.bug_named(bug) for bug in bug_zoo.BUGS)


def test_a_bug_whose_sign_is_not_in_the_notes_is_not_named() -> None:
    """Fault caught: bug_named reading only whether identify accepts the table."""
    paper = bug_zoo.Bug(
        "doubled-exponent",
        "the paper's table",
        lambda n, d: conventions.get("paper").table(n, d),
        "none",
        "holds",
        None,
    )
    assert not identify_accuracy.bug_named(paper)


def test_the_pinned_cosines_are_within_their_dtype_target() -> None:
    """The cosine error reported for each case is a relative error, below the dtype's target
    wherever the cosine is not flagged (a sign slip would make it about 2)."""
    for row in identify_accuracy.identify_accuracy(32, widths=(8, 64)):
        target = identify_accuracy.ACCURACY[np.dtype(row.dtype).type]
        assert row.cosine_error <= target, row
        assert row.sine_error <= target, row
