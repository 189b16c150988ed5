"""The rules: apply one bid, resolve a round when every seat has bid, let the winner take a
prize (SB-OFFER-1, SB-OFFER-2), score the end. Every kernel takes ``s``, the state
((STATE_SIZE,) int32, changed in place), and ``p``, the parameter array ((N_PARAMS,) int32)."""

from bgsim.sim.games.sealed_bids.decisions import A_VALUE, BID, OVER, TAKE
from bgsim.sim.games.sealed_bids.param_slots import PR_BID_TIE, PR_FINAL_TIE, PR_PRIZE_POINTS
from bgsim.sim.games.sealed_bids.state import (
    BID_CARD,
    BID_DOWN,
    BIDS_MADE,
    FACE_DOWN,
    HAND_N,
    IN_HAND,
    LEFTOVER_PTS,
    LOC,
    MAX_P,
    N_CARDS,
    N_PLAYERS,
    OFFER,
    PHASE,
    PLAYED,
    PRIZE_DECK,
    PRIZE_PTS,
    RANK,
    ROUND,
    ROUND_BIDS,
    ROUND_TAKEN,
    ROUND_WINNER,
    ROUNDS,
    SEAT,
    SPENT,
    START_PTS,
    TIEBREAK,
    TOTAL,
)
from numba import njit

TIE_DISCARD = 1
FINAL_TIE_SHARED = 1  # final_tie = shared: equal totals share a place


@njit(cache=True)
def card_value(c):
    return c // 2 + 1


@njit(cache=True)
def prize_points(p, prize):
    """Points of prize id ``prize`` under the parameters ``p`` ((N_PARAMS,) int32): SB-SETUP-1,
    the ``prize_points`` parameter."""
    return p[PR_PRIZE_POINTS + prize]


@njit(cache=True)
def apply_action(s, p, action, log):
    """Apply one action row ((N_ACTION_FIELDS,) int32, legal) to ``s`` in place: a bid, or the
    winner's take (SB-OFFER-1, SB-OFFER-2). ``log``: the event log every game's kernels take
    (``sim.games.base``); this game writes none."""
    if s[PHASE] == TAKE:
        take(s, p, action[A_VALUE])
    else:
        bid(s, p, action[A_VALUE])


@njit(cache=True)
def bid(s, p, value):
    """SB-BID-1: the seat puts one card of ``value`` from its hand face down (the lower card id of
    the two copies); SB-BID-2: the next seat in order bids; the last bid resolves the round."""
    seat = s[SEAT]
    card = -1
    for c in range(N_CARDS):
        if s[LOC + c] == IN_HAND + seat and card_value(c) == value:
            card = c
            break
    s[LOC + card] = FACE_DOWN + seat
    s[BID_CARD + seat] = card
    s[BID_DOWN + seat] = 1
    s[HAND_N + seat] -= 1
    s[BIDS_MADE] += 1
    n = s[N_PLAYERS]
    if s[BIDS_MADE] < n:
        s[SEAT] = (seat + 1) % n
        return
    resolve_round(s, p)


@njit(cache=True)
def resolve_round(s, p):
    """Reveal the bids; SB-WIN-1 the highest takes the prize (SB-TIE-1 on equal highest bids). In
    pair and triple (SB-OFFER-1, SB-OFFER-2) the winner then chooses one of the prizes on offer (a
    TAKE decision); otherwise the round ends here. With no winner every prize on offer leaves the
    game."""
    n = s[N_PLAYERS]
    r = s[ROUND]
    lead = r % n
    best_seat = -1
    best = -1
    tied = False
    for k in range(n):  # in bid order, so a strict > keeps the first of equal bids
        seat = (lead + k) % n
        v = card_value(s[BID_CARD + seat])
        if v > best:
            best, best_seat, tied = v, seat, False
        elif v == best:
            tied = True
    winner = -1 if tied and p[PR_BID_TIE] == TIE_DISCARD else best_seat
    s[ROUND_WINNER + r] = winner
    for seat in range(n):
        c = s[BID_CARD + seat]
        s[ROUND_BIDS + r * MAX_P + seat] = c
        s[LOC + c] = PLAYED + seat
        s[SPENT + seat] += card_value(c)
        s[BID_CARD + seat] = -1
        s[BID_DOWN + seat] = 0
    s[BIDS_MADE] = 0
    if winner >= 0 and s[OFFER] > 1:
        s[PHASE] = TAKE  # the round goes on until the winner has taken a prize (SB-OFFER-1, SB-OFFER-2)
        s[SEAT] = winner
        return
    if winner >= 0:
        score_prize(s, p, winner, s[PRIZE_DECK + r])
    end_round(s, p)


@njit(cache=True)
def take(s, p, prize):
    """SB-OFFER-1, SB-OFFER-2: the round's winner takes prize id ``prize`` (one of the two, or three,
    on offer) and scores it; the others leave the game: nobody scores them (their deck entries stay
    face up)."""
    score_prize(s, p, s[SEAT], prize)
    s[PHASE] = BID
    end_round(s, p)


@njit(cache=True)
def score_prize(s, p, seat, prize):
    """SB-WIN-1: ``seat`` takes prize id ``prize`` this round and scores its points."""
    s[PRIZE_PTS + seat] += prize_points(p, prize)
    s[ROUND_TAKEN + s[ROUND]] = prize


@njit(cache=True)
def end_round(s, p):
    """The next round starts with the next seat (SB-ROUND-2), or the game ends (SB-END-1)."""
    r = s[ROUND]
    n = s[N_PLAYERS]
    s[ROUND] = r + 1
    if r + 1 < ROUNDS:
        s[SEAT] = (r + 1) % n
        return
    final_scoring(s, p)


@njit(cache=True)
def final_scoring(s, p):
    """SB-END-2 leftover cards score value // 3; SB-END-3 total = start + prizes + leftovers;
    SB-TIE-2 ranks: higher total first, on equal totals the seat that spent less, then the later seat
    (``final_tie = shared``: equal totals share a place, so a tied win is shared). ``tiebreak`` keeps
    the SB-TIE-2 order either way."""
    shared = p[PR_FINAL_TIE] == FINAL_TIE_SHARED
    n = s[N_PLAYERS]
    for c in range(N_CARDS):
        loc = s[LOC + c]
        if IN_HAND <= loc < IN_HAND + n:
            s[LEFTOVER_PTS + loc - IN_HAND] += card_value(c) // 3
    for seat in range(n):
        s[TOTAL + seat] = s[START_PTS + seat] + s[PRIZE_PTS + seat] + s[LEFTOVER_PTS + seat]
    for seat in range(n):
        place = 1
        rank = 1
        for other in range(n):
            if other == seat:
                continue
            ahead = _tiebreak_ahead(s, other, seat)
            place += ahead
            if s[TOTAL + other] > s[TOTAL + seat] or (s[TOTAL + other] == s[TOTAL + seat] and ahead and not shared):
                rank += 1
        s[TIEBREAK + seat] = place
        s[RANK + seat] = rank
    s[PHASE] = OVER
    s[SEAT] = -1


@njit(cache=True)
def _tiebreak_ahead(s, a, b):
    """1 if seat ``a`` comes before seat ``b`` in the SB-TIE-2 order (less spent, then later seat)."""
    if s[SPENT + a] != s[SPENT + b]:
        return 1 if s[SPENT + a] < s[SPENT + b] else 0
    return 1 if a > b else 0
