"""pe.concatenation: the weights of a projection after adding and after concatenating."""

from __future__ import annotations

from pe import concatenation


def test_projection_cost() -> None:
    cost = concatenation.projection_cost(512)
    assert cost["weights_add"] == 512 * 512
    assert cost["weights_concat"] == 2 * 512 * 512
    assert concatenation.projection_cost(8, 3)["madds_concat"] == 48
