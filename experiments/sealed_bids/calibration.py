"""Sealed Bids in the calibration suite (``experiments.calibration_suite``): how it is played to stand
in for a known truth. It is fast (tens of thousands of games a second) and has a mixed table of four
strategies, a start vector, a rule change that moves play and a rule that shares tied wins."""

from bgsim.experiments.calibration_suite import GameCalibration

CALIBRATION = GameCalibration(
    game="sealed_bids",
    self_play="greedy",
    mixed=("greedy", "random", "bold", "miser"),
    change={"bid_tie": "discard"},  # SB-TIE-1: tied highest bids discarded instead of the first bidder's
    change_words="tied bids discarded against the rulebook",
    shared={"final_tie": "shared"},  # SB-TIE-2: equal final scores share the win
)
