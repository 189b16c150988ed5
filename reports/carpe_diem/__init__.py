"""Carpe Diem's additions to the generic reports (``EXTRAS``, declared in the game's entry): how a
scoring card's payout is valued, the paragraphs that explain it, why the decks differ as a whole, and
the rule references of the difficulty report. Everything else in Carpe Diem's reports comes from its
profile."""

from bgsim.reports.extras import EventWords, ReportExtras
from bgsim.sim.stats.attribution import Valuation

__all__ = ["ATTRIBUTION_METHOD", "DIFFICULTY_TEXTS", "EXTRAS", "PENALTY_LABEL", "VALUATION", "group_split_reason",
           "valuation_note"]

# VP-equivalent of one unit of each payout kind: coins, bread and goods 0.5 VP each, since leftover
# material scores floor(total / 2) VP at the end (CD-END-3); a banner step 1 VP, since the final
# banner position is scored as VP (CD-END-4). A red card's normal fulfilment hands in its goods
# (``give_units`` of the catalogue, at the goods rate) and a bread fulfilment 3 bread.
_GOODS = 0.5
VALUATION = Valuation(weights={"vp": 1.0, "coins": 0.5, "bread": 0.5, "steps": 1.0},
                      costs=(("k", "give_units", _GOODS), ("b", None, 3 * 0.5)),
                      stratum_field="pass", penalty_field="penalty")

PENALTY_LABEL = "-4 rate"

ATTRIBUTION_METHOD = (
    "Scoring cards are judged against the other cards of their own deck, because the decks differ as a "
    "whole. The triggers of a card are set against the triggers of the deck's other cards in the same "
    "stratum (run, strategy, seat and pass), and the difference of the two win rates is standardised to the "
    "card's triggers. The seats of a game share one winner, a seat triggers eight cards a game, and the games "
    "of one deal share their board, so the 95 % interval and the z test use a variance clustered by deal. A "
    "card is flagged when its Benjamini–Hochberg q over every card and player count is below 0.05; *pays too "
    "much (little)* then means that its triggering seats win more (less) often than those of the rest of its "
    "deck. A card far off its deck shifts the comparison of the deck's other cards a little the other way. "
    "The same comparison of the net payoff gives what a card pays against its deck. An adjacent pair is "
    "judged by how much more often its seat wins than a linear model of stratum plus its two cards predicts. "
    "All of this is association: the strategies choose which cards to trigger.")

_RED_GREEN = ({"A", "B"}, {"C", "D"})  # CD-CARD-1: A/B cards are red ("give"), C/D green ("have")


def valuation_note() -> str:
    """One paragraph for a report: how payouts are turned into VP-equivalents."""
    w = VALUATION.weights
    return (f"Payoffs are in VP-equivalents: 1 VP = {w['vp']:g}; 1 coin = {w['coins']:g}, 1 bread = {w['bread']:g} "
            f"and 1 good = {_GOODS:g} VP, since leftover material scores floor(total / 2) VP at the end "
            f"(CD-END-3); 1 banner step = {w['steps']:g} VP, since the final banner position is scored as VP "
            "(CD-END-4). Penalties (-4 VP when a card is not fulfilled) are included. The net payoff also "
            "subtracts what was handed in: the goods or coins of a red card's fulfilments (at the goods rate) "
            "and 3 bread per bread fulfilment.")


def group_split_reason(low: set[str], high: set[str]) -> str | None:
    """Why the decks ``low`` win less and ``high`` more as a whole, if the rules say why."""
    if (low, high) != _RED_GREEN:
        return None
    return ("red A/B cards take goods while green C/D cards pay for what a seat already owns, and which of them a "
            "seat can take depends on when it scores (CD-SCORING-2); the cards themselves lie on random slots "
            "(CD-SETUP-7)")


# Paragraphs of the difficulty report with the rule references of Anna, the solo automa.
DIFFICULTY_TEXTS = {
    "outcomes": "The human's win rate (ties broken by the banner discs, AMB-27), the VP margin (human - Anna) "
                "and both final scores, per rung of the ladder (weakest first).",
    "sources": "Anna's final VP by source (CD-ANNA-22): her start VP, banner position with overflow VP, the villa "
               "track (AMB-26), the majorities against the human (CD-ANNA-23) and her fountain cards (CD-ANNA-24). "
               "The majorities depend on what the human builds, so Anna scores differently against each rung.",
    "method": "Every game is a solo game of the rules engine (CD-ANNA): the rung plays the human, Anna follows her "
              "automa cards; her dice and cards come from the game's chance stream.",
}

EXTRAS = ReportExtras(valuation=VALUATION, attribution_method=ATTRIBUTION_METHOD, penalty_label=PENALTY_LABEL,
                      event_words=EventWords(verb="triggered", noun="trigger", plural="triggers"),
                      difficulty_texts=DIFFICULTY_TEXTS, valuation_note=valuation_note,
                      group_split_reason=group_split_reason)
