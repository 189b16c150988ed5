"""Sentences of the reports' method sections that depend on the game's profile."""

from bgsim.sim.profile import GameProfile

__all__ = ["shared_wins_sentence"]


def shared_wins_sentence(profile: GameProfile) -> str:
    """How win rates count a tied win: empty where the game's tie-break always decides."""
    if not profile.shared_wins:
        return ""
    return (f"The rules share a tied win ({profile.shared_wins}): every win rate counts it as 1/k to each of the k "
            "winners (the `win_share` column), so a table's seat rates add up to exactly one game per game, and "
            "its intervals use the effective number of games that shares of a win amount to. The `won` column "
            "keeps the one winner of the tie-break order for those who want that reading.")
