"""Fixed or learned: what learned tables trade, what residual connections carry."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from pe import numeric, reference
from pe import position_designs as learned
from pe import residual_stream as stream
from tests.helpers import wrong


def test_learned_table_parameters_and_range() -> None:
    table = learned.LearnedPositions(100, 24)
    assert table.parameters == table.lookup(np.arange(100)).size == 100 * 24
    assert table.parameters != wrong.ROW_FOR_N_MAX.value(100, 24)
    assert table.lookup([0, 99]).shape == (2, 24)
    with pytest.raises(ValueError, match="no row for position 100"):
        table.lookup([100])
    with pytest.raises(ValueError, match="positions must be in"):
        table.lookup(np.array([-1]))


def _drawn_at(table: npt.NDArray[np.float64], std: float) -> bool:
    """Whether the entries look drawn from N(0, std²): mean and spread within five of their
    standard errors."""
    n = table.size
    return bool(
        abs(table.mean()) <= 5 * std / np.sqrt(n)
        and abs(table.std() - std) <= 5 * std / np.sqrt(2 * n)
    )


def test_a_learned_table_starts_as_documented() -> None:
    """Entries drawn from N(0, 0.02²) (the docstring); unit-normal entries, or 0.02 raised to
    a normal draw, are not that."""
    table = learned.LearnedPositions(100, 24, seed=3).table
    assert _drawn_at(table, 0.02)
    draw = np.random.default_rng(3).standard_normal((100, 24))
    assert not _drawn_at(draw, 0.02)
    assert not _drawn_at(0.02**draw, 0.02)


def unseen_reference(d: int, n_train: int, position: int) -> npt.NDArray[np.bool_]:
    """Independent: nearest trained point per pair from the exact table rows themselves."""
    rows = reference.table(range(n_train), d).reshape(n_train, d // 2, 2)
    target = reference.table([position], d).reshape(d // 2, 2)
    nearest = np.linalg.norm(rows - target[None], axis=2).min(axis=0)
    omega = numeric.frequencies(d)
    return np.asarray(nearest > 2 * np.sin(omega / 2) * (1 + 1e-9))


@pytest.mark.parametrize("position", [0, 50, 127, 300, 1000])
def test_unseen_pairs_against_reference(position: int) -> None:
    got = learned.unseen_pairs(16, 128, position)
    assert np.array_equal(got, unseen_reference(16, 128, position))
    if position < 128:
        assert not got.any()


def test_unseen_pairs_appear_beyond_training_only() -> None:
    assert learned.unseen_pairs(512, 512, 1024).sum() > 50
    for candidate in (wrong.INSIDE_TRAINING, wrong.LAST_TRAINED_POSITION):
        assert not learned.unseen_pairs(512, 512, candidate.value).any()


def test_post_ln_stack_is_not_the_sum_the_old_statement_claimed() -> None:
    """The paper's post-LN layer LN(h + f(h)): the top is no longer x + PE + sum of outputs."""
    from pe.chapters import fixed_or_learned as claims

    rng = np.random.default_rng(1)
    x = rng.standard_normal((16, 32))
    post = stream.run_stack(x, 4, connection=wrong.POST_LN_STACK.value)
    assert np.abs(post.top - x - post.sublayer_sum).max() > 0.1
    # every row of a post-LN top is normalised: mean 0, mean square 1 (up to the 1e-6 epsilon)
    assert np.abs(post.top.mean(axis=1)).max() < 1e-12
    assert np.abs((post.top**2).mean(axis=1) - 1).max() < 1e-5
    assert claims._stack_sum(stream.RESIDUAL).holds
    assert not claims._stack_sum(wrong.POST_LN_STACK.value).holds


def test_the_exercise_subtracts_the_sublayers_on_the_normalised_states() -> None:
    """The exercise used to subtract Σ f_l(h_l); the stack adds Σ f_l(LN(h_l))."""
    from pe.chapters import fixed_or_learned as claims

    assert claims._exercise_sum(claims._added_sum).holds
    assert not claims._exercise_sum(wrong.RAW_STATES_SUM.value).holds
