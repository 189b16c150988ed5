"""The calibration suite's short form (``experiments.calibration_suite``): every interval and verdict
the reports print covers its planted truth, or errs no more often than its nominal rate, within
binomial bounds; and every method the studies used before fails its check, as the review measured.
``make calibrate`` runs the full suite and prints the table the README's statistics page shows."""

import pytest
from bgsim.experiments import calibration_suite as suite

SEED = 20_261_129


@pytest.mark.parametrize("index", range(len(suite.CHECKS)),
                         ids=[f"{c.name} | {c.what}".replace(" ", "_") for c in suite.CHECKS])
def test_check_passes_and_a_replaced_method_fails(index):
    check = suite.CHECKS[index]
    result = check.run(check.quick, SEED + index)
    measured = f"{100 * result.rate:.1f} % against a bound of {100 * result.bound:.1f} % ({result.detail})"
    if check.replaced:
        assert not result.passes, f"the replaced method passed its check: {measured}"
    else:
        assert result.passes, f"{check.name}: {check.what} at {check.truth}: {measured}"


def test_the_bounds_follow_the_replicates():
    """A coverage check allows less room with more replicates, a false-rate check too."""
    small = suite.Result(935, 1000, 0.95, "coverage", 300)
    large = suite.Result(935, 1000, 0.95, "coverage", 3000)
    assert small.passes and not large.passes  # 93.5 %: within bounds of 300 replicates, not of 3,000
    assert suite.Result(7, 100, 0.05, "false rate", 100).passes
    assert not suite.Result(20, 100, 0.05, "false rate", 100).passes


def test_the_table_says_when_a_check_went_against_expectation():
    table = suite.run_checks(only=lambda c: c.name == "payout held")
    assert len(table) == 1 and table["method"].iloc[0] == "replaced (before)"
    assert not table["passes"].iloc[0] and table["as expected"].iloc[0]
    assert "| payout held |" in suite.markdown(table) and "fails |" in suite.markdown(table)


def test_a_bar_inside_a_cell_does_not_split_the_readme_table():
    table = suite.run_checks(only=lambda c: "|rate - 1/n|" in c.what)
    row = suite.markdown(table).splitlines()[-1]
    assert row.count("|") - row.count("\\|") == 10  # nine cells
