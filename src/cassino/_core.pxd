# Declarations of the Cython core: C structs and the noexcept nogil helpers.

from cpython.ref cimport PyObject
from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t

# mask_t is 64 bits: NCARDS 52 card ids, and MAX_BUILDS 26 (every build holds two cards or
# more: NCARDS / 2). Mulle's 104 ids use the wide copy of the core (core/_wide.pxi, written by
# scripts/gen_wide.py), where the same declarations are renamed with a "_w_" prefix and
# mask_t is unsigned __int128 (cas128_mask_t of _mask.h). Cython converts mask_t to and from
# Python ints with size-generic code.
cdef extern from "_mask.h":
    ctypedef unsigned long long mask_t "cas_mask_t"
    enum: NCARDS "CAS_NCARDS"
    enum: MAX_BUILDS "CAS_MAX_BUILDS"
    int cas_ctz(mask_t x) nogil
    int cas_popcount(mask_t x) nogil
    int cas_top(mask_t x) nogil
    uint64_t cas_lo(mask_t x) nogil
    uint64_t cas_hi(mask_t x) nogil
    int cas_ctz64(uint64_t x) nogil
    int cas_popcount64(uint64_t x) nogil
    uint64_t cas_eq_bytes(const uint8_t* b, int chunks, uint8_t v) nogil
    uint64_t cas_le_bytes(const uint8_t* b, int chunks, uint8_t v) nogil
    void cas_fam_join(uint64_t* acc, int gh, int gl, uint64_t dl, int w) nogil
    void cas_bytes_double(uint8_t* b, int i, uint8_t add) nogil
    int cas_select64(uint64_t x, int k) nogil
    uint64_t cas_fam_close1(uint64_t x, const uint64_t* disj, int stride) nogil

cdef enum:
    MAX_SEATS = 8
    NVALUES = 32             # room for values up to 31 (jokers, Finnish hand values)
    MAX_SWEEPS = 64

cdef enum Kind:
    K_TRAIL = 0
    K_CAPTURE = 1
    K_BUILD = 2
    K_AUGMENT = 3
    K_INCREASE = 4
    K_PLUCK = 5              # opt_pluck: card NO_CARD, takes the plucked card
    K_PASS = 6               # opt_pluck: end the turn without the pluck after the play
    K_TWO_CARD = 7           # Callabra: card and the hand card in takes take one table card
    K_STEAL = 8              # Stealing Bundles: takes another team's whole bundle (with
                             # steal_and_capture, also the loose cards of the card's rank)
    K_PAIR = 9               # Laugh and Lie Down: card and the hand card ``value`` take the
                             # table pair ``takes``
    K_LIE = 10               # ... lie down: card NO_CARD, the hand goes to the table
    K_BANK = 11              # ... a decision: card NO_CARD, ``takes`` go to the decider's pile

cdef enum:
    NO_CARD = 255            # CMove.card of the moves that play no hand card
    PH_START = 0             # Hot.phase (opt_pluck): the turn begins
    PH_PLUCKED = 1           # ... the player has plucked and must play a card
    PH_AFTER = 2             # ... the player has played a card and may pluck or pass
    PH_PRIAL = 3             # Laugh and Lie Down: to_move decides on his Prial of Hot.dec_rank
    PH_RELEASE = 4           # ... on the released pair of Hot.dec_rank

cdef struct CBuild:
    mask_t cards
    uint8_t value
    uint8_t owners           # seat mask
    uint8_t multiple         # frozen: two groups or more
    uint8_t alt              # multi-valued cards at their second value (bit k: k-th card of multi_mask)
    uint8_t raised           # Four Player Diloti: the teams that raised this plain declaration
    uint8_t due              # opt_esun: made since the last deal, its penalty pending (AMB-75)

cdef struct CMove:
    mask_t takes
    uint8_t card
    uint8_t kind
    uint8_t value
    uint8_t alt              # build moves: placed multi-valued cards at their second value

# Everything that a push changes and a pop restores; piles, stock, sweep and discard
# arrays are append-only and restored through their lengths.
cdef struct Hot:
    mask_t hands[MAX_SEATS]
    mask_t loose
    CBuild builds[MAX_BUILDS]
    uint8_t nbuilds
    uint8_t pile_len[MAX_SEATS]
    uint8_t stock_pos
    int8_t last_capturer
    int8_t to_move
    uint8_t nsweeps
    uint8_t ndiscard
    uint8_t plucked          # opt_pluck: seats that have plucked in this deal
    uint8_t phase            # PH_START, PH_PLUCKED or PH_AFTER
    uint8_t trailed1         # in PH_AFTER: the card trailed this turn + 1 (0: none)
    uint8_t ndefaults[MAX_SEATS]   # opt_michigan: defaults on the build duty per team
    uint8_t nmulle[MAX_SEATS]      # Mulle: Mulle captures per team
    # pile_access=steal_pile (Stealing Bundles): each team's face-up bundle as a set and its
    # top card (the piles arrays are unused: a steal empties a bundle, which an append-only
    # array restored by its length cannot undo); pile_len holds the counts
    mask_t bundles[MAX_SEATS]
    uint8_t tops[MAX_SEATS]
    # opt_esun (AMB-75): Core.gone_team/gone_slot entries in use, the pile slots whose cards
    # a penalty has put back on the table (the pile arrays stay append-only)
    uint8_t ngone
    uint8_t owed[MAX_SEATS]  # esun_penalty=unless_creator_took: penalties owed per seat
    uint64_t chance          # esun_penalty_card=random: the hand's chance RNG (Position.chance)
    uint8_t fixxa1           # Bella Donna: the card the previous player trailed last + 1 (0: none)
    uint8_t bonus[MAX_SEATS] # ... the Fixxa and Stoppa points per team
    # Laugh and Lie Down (core/laugh.pxi): the cards each seat laid down, and in PH_PRIAL or
    # PH_RELEASE the rank decided on (1-13) and the seat after which the turn passes on
    mask_t laid[MAX_SEATS]
    uint8_t dec_rank
    int8_t dec_after

cdef struct Params:
    int players
    int nteams
    int team_of[MAX_SEATS]
    int next_seat[MAX_SEATS]
    int first_player
    int first_right          # first_player=right_of_dealer: the seat before the dealer leads
    int hand_size
    int last_hand_size       # cards each on the last deal of a hand (five players: 5)
    int table_cards
    int deal_order           # 0 opponent_table_dealer, 1 opponent_dealer_table
    int face_capture         # 0 one, 1 one_or_three, 2 any
    int max_sum_groups
    int maximal
    int build_max
    int obligation           # 0 none, 1 v1, 2 v2, 3 v3 (0 with michigan: defaults legal)
    int duty                 # the obligation module whose defaults michigan fines
    int michigan             # opt_michigan: defaults -2, sweeps 2 at once
    int rounds_to_5          # michigan_rounds_to_5: 3 instant scores against a team end the hand
    int holding_invariant
    int own_increase         # 0 allowed, 1 keep_old, 2 forbidden
    int natural
    int unique_values
    int sweeps
    int sweep_points
    int last_card_sweep
    uint8_t val[NCARDS]      # value of each card; 0 = none (match by rank only)
    int val_ordered          # the nonzero values never decrease with the card id
    mask_t num_mask          # the cards with a value
    mask_t deck_mask         # the cards in play (five players: 2D 2H 2C set aside)
    int draw_refill          # cassino_draw: the player draws the top stock card after his turn
    mask_t sweep_cards       # cards that, played on a nonempty table, capture every item
    int sweep_builds         # ... builds included (else every loose card only)
    int sweep_only           # ... and have no other move then (else only their trail goes)
    int initial_pairs        # opt_initial_pairs: 0 off, 1 pairs (2 or 4 of a rank), 2 also 3
    int most_cards_points    # 3 (0: no most-cards category)
    int picture_points       # per J, Q, K taken (Tablanette)
    int card_points          # most spades, 10D, 2S and the aces score
    int spade_points         # Spade Cassino: 0 none, 1 inclusive, 2 additive (AMB-24)
    int seven_diamonds       # Diamond Cassino: points of the 7D
    int seven_spades         # Zwickern: points of the 7S
    int aces_all_four        # Diamond Cassino: the aces score only as a set of four
    int cards_tie_spades     # Portuguese: a tie for cards goes to the side with most spades
    int all_eleven_bonus     # opt_all_eleven=bonus: +1 to a team with all 11 base points
    int most_spades_points   # 1 (Swedish Kassino 2)
    int sistan_points        # Swedish Kassino: the last capturer of the hand (Sistan)
    int most_clubs_points    # Kontsina: most clubs
    int good_two_points      # Kontsina: the 2C
    int good_ten_points      # Kontsina: the 10D
    # multi-valued cards (Royal ace 1/14, Buckeye 10D 10/11): see core/multi.pxi
    uint8_t alt_val[NCARDS]  # second value when played from hand; 0 = none
    uint8_t alt_table[NCARDS]  # second value when loose on the table; 0 = none
    mask_t multi_mask        # the cards with a second value (alt_val)
    int nmulti               # their number (at most 8: CMove.alt and CBuild.alt bits)
    int pluck                # opt_pluck
    int pluck_last_deal      # plucks allowed once the stock is empty
    int pluck_loose          # a pluck must leave a loose card (else any table card)
    int face_builds          # opt_face_cards_all_four: natural builds of face cards
    int callabra             # Callabra (gen_callabra): matches, two-card captures, a clear ends
    int single_group         # capture_extent=single_group (Kontsina): one group a capture
    int combine              # ... combine_match_and_sum: one matching card and one sum group
    int faces_capturable     # ... 0: J, Q, K never taken (AMB-38)
    int deal_rotation        # deal_rest=rotation: a short deal one card at a time in rotation
    # Finnish Kasino (docs/rules.md §3.21): the value of a card played from hand (A 14, 2S 15,
    # 10D 16; val[] holds the table values); every generator path reads hval for the card
    # played, so hval == val in every other system
    uint8_t hval[NCARDS]
    int finnish              # immediate point cards, the Mokki limits and cancellation
    int rank_pairs           # rank_pairing_always (AMB-52): gen_pairs lists every position
    int mokki_cutoff         # a running score at or above it voids Mokkis (0: never)
    int mokki_at_end         # ... checked for the whole hand at its end (else at the capture)
    int spades_split_two     # most_spades_tie=split_two: two tied score 1 each
    int diloti               # build_kinds=declarations (gen_diloti, core/declarations.pxi)
    int all_matches          # ... capture_extent=all_matches: a numeric match takes all (AMB-43)
    int decl_in_capture      # ... 0: a declaration is captured alone (AMB-44)
    int augment_own          # ... augment_who=own_team (AMB-46)
    int no_declare           # ... obligation_no_declare (AMB-47)
    int min_decl_cards       # ... declaration_min_cards (AMB-51)
    int xeri_first           # ... the first play of the hand is no Xeri (AMB-48)
    int fresh_stock          # ... the stock before the first play
    int partnership          # ... raises record the team (Four Player Diloti)
    int ace_points           # Diloti: each ace (card_points off)
    int whole_deal           # deal_order=whole_hands_then_table: a whole hand at a time
    int nids                 # card ids of the deck kind: 52, or 104 (Mulle: the wide copy only)
    int deal_even            # deal_rest=even (Mulle): a short deal evenly, the odd cards to the table
    int mulle_points         # Mulle: a capture of exactly the other copy of the card played
    int point_cards_once     # Mulle: each point card scores once per team (AMB-56 option)
    double gw[NCARDS]        # the greedy player's card weights (greedy.card_weights)
    int gr_limit             # sum groups past which a greedy score is the reference's
    int general_paths        # list multi-valued and Diloti positions by their general paths
                             # (State._general_paths, tests compare the paths)
    int compel               # compulsion=player (Shaniss): a player who can capture must
    int post_filter          # compel, or capture_extent=all_matches outside Diloti: gen_moves
                             # filters what the paths list (filter_moves), counting lists
    int leftovers_nobody     # leftovers_to=nobody: the last table cards are discarded
    int cards_diff           # cards_scoring=difference (Shaniss): more cards score the difference
    int cards_each           # cards_scoring=each: every captured card scores 1
    int steal                # pile_access=steal_pile (Stealing Bundles): Hot.bundles, gen_bundles
    int steal_both           # ... steal_and_capture: one move may steal and capture (AMB-85)
    int deal_singles         # later deals one card at a time from the dealer's left
    # Elewenjewe (docs/rules.md §3.26-§3.29): the jokers (ids 104 up, the wide copy), which
    # take the whole table (sweep_cards) and join every capture when loose (filter_moves);
    # the palette on the table at the deal; cards set aside from the bottom of the stock;
    # the leftovers to the player of the last card; match_one (AMB-73 option)
    mask_t joker_mask
    mask_t palette
    int set_aside
    int leftovers_last
    int match_one
    int hide_own_pile        # ... no Isiwo: a seat's observation hides its own pile (AMB-81)
    int yoruba               # mod_yoruba: 1 per sum group, 2 per capture (AMB-78)
    int esun                 # opt_esun: Esun piles (gen_esun; docs/rules.md §3.37, AMB-74, AMB-75)
    int esun_owed            # ... esun_penalty=unless_creator_took (Hot.owed)
    int esun_random          # ... esun_penalty_card=random (Hot.chance)
    int red_cards            # Bella Donna: red honours 2, red 2-9 1 (red_card_points)
    int fixxa                # ... fixxa_stoppa: 0 none, 1 once, 2 stack (Hot.fixxa1, Hot.bonus)
    int bonus_travel         # ... steal_bonuses=travel (Halliel, AMB-93): a steal takes the bonus
    # Zwickern (docs/rules.md §3.32, core/zwickern.pxi): its generator gen_zwickern, its
    # jokers (played as 2-14; loose: any value in a group with zw_any, joker_values=any), the
    # holding rule of its stacks (holding_invariant, AMB-88 option)
    int zwickern
    mask_t zw_jokers
    int zw_any
    int zw_hold
    # Laugh and Lie Down (docs/rules.md §3.35, §3.36, core/laugh.pxi): its generator and
    # push; compulsion (0 must_or_lie_down, 1 player, 2 none); laid cards dead (AMB-96
    # option); the settlement's threshold and the last holder's chips
    int laugh
    int lld_trail
    int lld_dead
    int lld_threshold
    int lld_bonus
    int pick_ok              # capture-only rules: count and pick moves without listing
                             # (pick_setup, core/captures.pxi)

cdef struct Core:
    Params p
    Hot h
    int dealer
    # (a pile holds each card once, but opt_esun's penalties leave gone slots: a seat's
    # penalties are at most the cards it was dealt, so twice NCARDS slots always suffice)
    uint8_t piles[MAX_SEATS][2 * NCARDS]
    uint8_t gone_team[NCARDS]     # opt_esun: the team and slot of each penalty (Hot.ngone)
    uint8_t gone_slot[NCARDS]
    uint8_t stock[NCARDS]
    uint8_t stock_len
    uint8_t sweep_order[MAX_SWEEPS]
    uint8_t discard[NCARDS]
    int start_scores[MAX_SEATS]   # game scores at the start of the hand (the Mokki cut-off)

cdef struct MoveBuf:
    CMove* moves
    size_t n
    size_t cap
    size_t limit             # stop (overflow) past this many moves
    int overflow

cdef bint part_ok(int* cnt, int v, int max_sum) noexcept nogil
cdef int gen_moves(Core* c, MoveBuf* buf) noexcept nogil
cdef uint64_t count_moves_c(Core* c) noexcept nogil
cdef void apply_move(Core* c, const CMove* m) noexcept nogil
cdef void init_hand(Core* c, const uint8_t* deck, int ncards, int dealer) noexcept nogil
cdef int deck_filter(const Params* p, uint8_t* deck, int ncards) noexcept nogil
cdef enum:
    PERFT_CHECK = 1 << 16    # perft checks for signals (Ctrl-C) every this many interior nodes

cdef struct PerftCtl:
    uint64_t nodes
    int stop
    PyObject* exc[3]         # the exception a signal handler raised (type, value, traceback)

cdef uint64_t perft_c(Core* c, int depth, MoveBuf* bufs, PerftCtl* ctl) noexcept nogil
