"""Stable reason codes used in explanations and notes.

The engine returns data, never prose: every element of a trace and every note carries one of
these codes, and the website translates them. Each constant has a one-line English comment; keep
the values stable (they are stored in snapshots and used as translation keys).
"""

from __future__ import annotations

# --- What an element of a participant's own tie-break is worth, and why -----------------------
ACTUAL_SCORE = "actual_score"  # the opponent's final score, used as it is (no 16.2.5 rounds)
# the opponent's adjusted score: their late requested byes count as draws (16.3)
ADJUSTED_SCORE = "adjusted_score"
# a requested bye followed only by VURs counts as a draw for others (16.3)
REQUESTED_BYE_COUNTS_AS_DRAW = "requested_bye_counts_as_draw"
# a forfeit treated as a played game (/P modifier or round robin, 15.2)
FORFEIT_COUNTED_AS_GAME = "forfeit_counted_as_game"
# own unplayed round: dummy opponent with the participant's own score (16.4)
DUMMY_OWN_SCORE = "dummy_own_score"
# dummy score capped at the draw value times the rounds (16.4.2)
DUMMY_CAP_HALF_ROUNDS = "dummy_cap_half_rounds"
# forfeit dummy capped at the scheduled opponent's adjusted score (16.4.1)
DUMMY_CAP_OPPONENT_ADJUSTED = "dummy_cap_opponent_adjusted"
# own unplayed round counted as an opponent with score 0 (rule sets without dummies)
DUMMY_ZERO = "dummy_zero"
# an opponent's unplayed round counted as a draw (rule sets such as US Chess 34)
UNPLAYED_COUNTS_AS_DRAW = "unplayed_counts_as_draw"
FREE_ROUND = "free_round"  # round-robin free round: not an element at all (15.2)
UNPLAYED_EXCLUDED = "unplayed_excluded"  # unplayed round left out of this criterion (OTB games only)
FORE_LAST_ROUND_DRAW = "fore_last_round_draw"  # Fore Buchholz: the final-round game is assumed drawn (8.3)

# --- Points scored in a round (SB, KS, PS, counts) --------------------------------------------
POINTS_SCORED = "points_scored"  # the points the participant scored in that round
RUNNING_SCORE = "running_score"  # the participant's score after that round (PS, 7.5)
WIN_ROUND = "win_round"  # a round in which the win points were obtained, played or not (7.1)
WON_OVER_THE_BOARD = "won_over_the_board"  # a game won at the board (7.2)
PLAYED_WITH_BLACK = "played_with_black"  # a game played at the board with Black (7.3)
WON_WITH_BLACK = "won_with_black"  # a game won at the board with Black (7.4)
ELECTED_TO_PLAY = "elected_to_play"  # a round the participant elected to play (7.6)
NOT_ELECTED = "not_elected"  # a requested bye, absence or forfeit loss: not a round elected to play (7.6)
# 1 / ½ / 0 by comparing with the scheduled opponent or the draw value (7.7)
STANDARD_POINTS = "standard_points"
OPPONENT_QUALIFIES = "opponent_qualifies"  # Koya: the opponent's score reaches the limit (9.2)
OPPONENT_BELOW_LIMIT = "opponent_below_limit"  # Koya: the opponent's score is below the limit (9.2)
OPPONENT_RATING = "opponent_rating"  # the rating of an opponent met over the board (Art. 10)
OPPONENT_RATING_IN_ROUND = "opponent_rating_in_round"  # that opponent's rating in that round, from a newer list
OPPONENT_VALUE = "opponent_value"  # an opponent's own tie-break value, averaged (AOB, APRO, APPO)
OPPONENT_VALUE_UNDEFINED = "opponent_value_undefined"  # the opponent's value is undefined and is skipped
OWN_RATING = "own_rating"  # the participant's own rating (RTNG, 10.6)
PAIRING_NUMBER = "pairing_number"  # the participant's pairing (start) number (TPN, 7.8)
LOT_DRAWN = "lot_drawn"  # the participant's lot in the seeded drawing of lots (LOT, 4.2)
MANUAL_PLACE = "manual_place"  # the participant's place in a decision ordering players still tied (MAN)
MANUAL_ABOVE = "manual_above"  # a tied player the decision placed below the participant (MAN)
EXTERNAL_VALUE = "external_value"  # a value set from outside the computation, with its reason (replaces it)
PLAYOFF_GAME = "playoff_game"  # a play-off game and what the participant scored in it (PO)
PLAYOFF_ARMAGEDDON_DRAW = "playoff_armageddon_draw"  # a drawn Armageddon game: a win for Black (PO)

# --- Cuts and medians (Art. 14, 16.5) ---------------------------------------------------------
CUT_LOWEST = "cut_lowest"  # removed as the least significant value (Cut / Median)
CUT_VUR_FIRST = "cut_vur_first"  # removed first because it is the lowest voluntary unplayed round (16.5)
MEDIAN_HIGHEST = "median_highest"  # removed as the most significant value (Median)
CUT_FIRST_ROUNDS = "cut_first_rounds"  # PS cut: the first running scores are dropped (14.1.1)

# --- Why a value is undefined ----------------------------------------------------------------
# unrated players present and no rating announced for them (Art. 10)
UNDEFINED_UNRATED_PLAYERS = "undefined_unrated_players"
LOTS_NOT_DRAWN = "lots_not_drawn"  # the drawing of lots has no seed yet (LOT without /S)
NO_MANUAL_ORDER = "no_manual_order"  # no decision orders this participant (MAN)
NO_PLAYOFF = "no_playoff"  # the participant played no play-off (PO)
UNDEFINED_NO_GAMES = "undefined_no_games"  # no game played over the board
UNDEFINED_NOTHING_LEFT = "undefined_nothing_left"  # the cut removed every element

# --- Notes on the whole standings ------------------------------------------------------------
# rating criterion skipped: unrated players and no rule for them (Art. 10)
CRITERION_SKIPPED_UNRATED = "criterion_skipped_unrated"
# BH/AOB/FB computed in a round robin by explicit override (Art. 8 note)
ROUND_ROBIN_BUCHHOLZ_OVERRIDE = "round_robin_buchholz_override"
# unsigned Koya limit read as half-points (MTB26); write it signed
KOYA_LIMIT_UNSIGNED = "koya_limit_unsigned"
# DE: not all tied met; ranked only where no missing game could change it (6.3)
DIRECT_ENCOUNTER_NOT_ALL_MET = "direct_encounter_not_all_met"
DIRECT_ENCOUNTER_SEPARATED_NONE = "direct_encounter_separated_none"  # DE separated nobody in this group (6)
# DE: points scored against the other tied participants (6.1)
DIRECT_ENCOUNTER_MUTUAL_SCORE = "direct_encounter_mutual_score"
DIRECT_ENCOUNTER_NOT_TIED = "direct_encounter_not_tied"  # DE applies only inside a tied group; not tied here
PTS_IGNORED = "pts_ignored"  # PTS given in the criteria list: it is always the primary score

# --- US Chess rule 34 (rule set us-chess) -----------------------------------------------------
# an opponent's US adjusted score: each of their unplayed rounds counts as a draw (34)
US_ADJUSTED_SCORE = "us_adjusted_score"
US_PLUS_SCORE = "us_plus_score"  # 34E1: the player's score is above 50 % of the maximum (plus score)
US_EVEN_SCORE = "us_even_score"  # 34E1: the player's score is exactly 50 % of the maximum (even score)
US_MINUS_SCORE = "us_minus_score"  # 34E1: the player's score is below 50 % of the maximum (minus score)
MM_PLUS_LOWEST_DROPPED = "mm_plus_lowest_dropped"  # 34E1: plus score, lowest opponent dropped
MM_MINUS_HIGHEST_DROPPED = "mm_minus_highest_dropped"  # 34E1: minus score, highest opponent dropped
MM_EVEN_LOWEST_DROPPED = "mm_even_lowest_dropped"  # 34E1: even score, lowest opponent dropped
MM_EVEN_HIGHEST_DROPPED = "mm_even_highest_dropped"  # 34E1: even score, highest opponent dropped
MEDIAN_LOWEST_DROPPED = "median_lowest_dropped"  # 34E4: Median (Harkness), lowest opponent dropped
MEDIAN_HIGHEST_DROPPED = "median_highest_dropped"  # 34E4: Median (Harkness), highest opponent dropped
# 34E3: 1 point (a win) subtracted for an unplayed win or a one-point bye
CUM_UNPLAYED_WIN_SUBTRACTED = "cum_unplayed_win_subtracted"
# 34E3 (variant): ½ point (a draw) subtracted for a half-point bye or other unplayed draw
CUM_HALF_POINT_BYE_SUBTRACTED = "cum_half_point_bye_subtracted"
# 34E9: the opponent's Cumulative tie-break (34E3), for a game played at the board
OPPONENT_CUMULATIVE = "opponent_cumulative"
KASHDAN_WIN = "kashdan_win"  # 34E7: a game won at the board scores 4
KASHDAN_DRAW = "kashdan_draw"  # 34E7: a game drawn at the board scores 2
KASHDAN_LOSS = "kashdan_loss"  # 34E7: a game lost at the board scores 1
# 34E5: a game against a player on the same score, counted +1 win, 0 draw, -1 loss
HEAD_TO_HEAD_RESULT = "head_to_head_result"

# --- Chess Caddy (rule set chess-caddy) -------------------------------------------------------
# a forfeited or bye round contributes nothing to the app's Buchholz or Sonneborn-Berger
CADDY_UNPLAYED_OMITTED = "caddy_unplayed_omitted"

ALL_REASONS: frozenset[str] = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str)
)
