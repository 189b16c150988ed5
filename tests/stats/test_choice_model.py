"""The conditional logit that fits a player's weights to its decisions (``sim.stats.choice_model``):
a planted truth comes back within its intervals, the intervals cover at their level, and bad
arguments are refused."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.seeding import game_seeds
from bgsim.sim.stats.choice_model import fit_choice_model

PLANTED = {"card_value": 0.4, "stones": -0.3, "points_delta": 0.25, "draw_roof": 0.5, "permit_useful": 0.3}


def _noisy_decisions(game, weights: np.ndarray, games: int, rng):
    """Every decision of ``games`` games where each seat picks a row with probability proportional
    to exp(features @ weights): the stacked features, offsets and chosen rows."""
    blocks, chosen = [], []
    for g in range(games):
        state = game.new_state(game_seeds(g))
        table = game.decision(state)
        while not game.is_over(state):
            logits = table.features.astype(np.float64) @ weights
            probs = np.exp(logits - logits.max())
            row = int(rng.choice(len(probs), p=probs / probs.sum()))
            blocks.append(table.features.copy())  # the table views the game's buffer
            chosen.append(row)
            table = game.step(state, row)
    offsets = np.concatenate([[0], np.cumsum([len(b) for b in blocks])])
    return np.concatenate(blocks).astype(np.float64), offsets, np.array(chosen)


def test_decisions_of_a_weight_policy_with_softmax_noise_give_its_weights_back_within_their_intervals():
    game = make_game("capitol", n_players=2)
    columns = [game.feature_names.index(name) for name in PLANTED]
    weights = np.zeros(len(game.feature_names))
    weights[columns] = list(PLANTED.values())
    features, offsets, chosen = _noisy_decisions(game, weights, 80, np.random.default_rng(5))
    fit = fit_choice_model(features[:, columns], offsets, chosen)
    low, high = fit.intervals().T
    truth = np.array(list(PLANTED.values()))
    assert fit.converged and fit.decisions > 4000
    assert ((low <= truth) & (truth <= high)).all(), (fit.weights, fit.stderr)
    assert (fit.stderr < 0.1).all()  # narrow enough to tell each weight from 0


def test_the_95_percent_intervals_cover_the_planted_weights_95_percent_of_the_time():
    rng = np.random.default_rng(11)
    truth = np.array([0.8, -0.5, 0.0])
    covered, total = 0, 0
    for _ in range(300):
        sizes = rng.integers(2, 7, size=300)
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        features = rng.normal(size=(offsets[-1], 3))
        chosen = np.empty(len(sizes), dtype=np.int64)
        for g, (a, b) in enumerate(zip(offsets[:-1], offsets[1:], strict=True)):
            p = np.exp(features[a:b] @ truth)
            chosen[g] = rng.choice(b - a, p=p / p.sum())
        low, high = fit_choice_model(features, offsets, chosen).intervals().T
        covered += int(((low <= truth) & (truth <= high)).sum())
        total += len(truth)
    assert 0.93 <= covered / total <= 0.97  # 900 intervals: 95 % +- 2.7 standard errors


def test_a_column_that_never_differs_within_a_decision_is_named_not_fitted():
    features = np.array([[1.0, 5.0], [2.0, 5.0], [0.0, 3.0], [1.0, 3.0]])
    with pytest.raises(ValueError, match=r"columns \[1\] never differ"):
        fit_choice_model(features, np.array([0, 2, 4]), np.array([0, 1]))


def test_inconsistent_arguments_are_refused():
    features = np.zeros((4, 1))
    with pytest.raises(ValueError, match="offsets must split"):
        fit_choice_model(features, np.array([0, 2, 3]), np.array([0, 0]))
    with pytest.raises(ValueError, match="chosen must name one row"):
        fit_choice_model(np.arange(4.0)[:, None], np.array([0, 2, 4]), np.array([0, 2]))
    with pytest.raises(ValueError, match="either chosen or targets"):
        fit_choice_model(np.arange(4.0)[:, None], np.array([0, 2, 4]))
    with pytest.raises(ValueError, match="summing to 1"):
        fit_choice_model(np.arange(4.0)[:, None], np.array([0, 2, 4]), targets=np.array([0.5, 0.5, 0.5, 0.4]))


def test_soft_targets_that_are_a_weight_policys_own_probabilities_give_exactly_its_weights():
    """The expected log-likelihood is maximal where the model's probabilities equal the targets, so
    targets made by known weights are fitted back to those weights (to optimiser precision)."""
    rng = np.random.default_rng(3)
    truth = np.array([1.5, -0.7, 0.2])
    sizes = rng.integers(2, 9, size=400)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    features = rng.normal(size=(offsets[-1], 3))
    logits = features @ truth
    targets = np.concatenate([np.exp(logits[a:b]) / np.exp(logits[a:b]).sum()
                              for a, b in zip(offsets[:-1], offsets[1:], strict=True)])
    fit = fit_choice_model(features, offsets, targets=targets)
    assert fit.converged
    assert np.allclose(fit.weights, truth, atol=1e-4), fit.weights
    hard = fit_choice_model(features, offsets, targets=(targets == np.maximum.reduceat(targets, offsets[:-1])
                                                           .repeat(sizes)).astype(float))
    assert not np.allclose(hard.weights, truth, atol=0.1)  # one-hot targets are a different fit
