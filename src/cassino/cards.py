"""Cards as small integers and card sets as bitmasks.

A standard card id is ``(rank - 1) * 4 + suit`` with suits ``S, H, D, C`` = 0..3 and
ranks ``A=1 .. K=13``, so the four cards of a rank form one 4-bit nibble. Mulle's double
deck (``DOUBLE104``) adds a second copy of every card at ``id + 52``, written with a prime
(``AS'``); :data:`NUM_CARDS_DOUBLE` ids in all.

>>> parse_card("10D")
38
>>> card_code(38)
'10D'
>>> CardSet.parse("AS 2S 10D")
CardSet('AS 2S 10D')
>>> popcount(SPADES), parse_card("KS") in CardSet(SPADES)
(13, True)
>>> parse_card("AS'"), card_code(90)
(52, "10D'")

Jokers (``JOKERS``, the Eleweenjewe and Zwickern decks) are the ids 104-109 after both
copies, written ``X1`` to ``X6`` (``JK1`` on input too); they have no rank and no suit.

>>> parse_card("X2"), card_code(104), parse_card("jk1")
(105, 'X1', 104)

The 40-card Italian deck (``ITALIAN40``: the house variant with Italian cards) has ids of its
own, 150-189: ``150 + (rank - 1) * 4 + suit`` with ranks ``A 2 3 4 5 6 7 J N K`` = 1..10
(Knave, Knight, King; a rank is its value) and suits ``D C S B`` = coins, cups, swords,
batons. Its codes read like standard ones (``AD``, ``7S``), so text is parsed in the deck's
context; ids print without one.

>>> parse_card("7S", deck="italian40"), card_code(176), card_rank(176), card_suit(176)
(176, '7S', 7, 2)
>>> parse_card("NB", deck="italian40"), card_code(parse_card("KD", deck="italian40"))
(185, 'KD')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .errors import CardError

__all__ = [
    "ACES",
    "ALL_CARDS",
    "ALL_CARDS_DOUBLE",
    "CLUBS",
    "DIAMONDS",
    "FACES",
    "HEARTS",
    "ITALIAN40",
    "ITALIAN_CARDS",
    "ITALIAN_FIRST",
    "ITALIAN_RANK_NAMES",
    "ITALIAN_SUIT_NAMES",
    "ITALIAN_SUIT_WORDS",
    "JOKERS",
    "RANK_NAMES",
    "RANK_PLURALS",
    "SPADES",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "CardSet",
    "card_code",
    "card_codes",
    "card_rank",
    "card_suit",
    "check_deck",
    "double_mask",
    "is_italian",
    "is_joker",
    "make_card",
    "parse_card",
    "parse_cards",
    "popcount",
    "rank_mask",
]

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# the ranks in words, plural, by rank 1-13 (Laugh and Lie Down's decisions: "a Prial of sevens")
RANK_PLURALS = ("", "aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                "nines", "tens", "jacks", "queens", "kings")
SUIT_NAMES = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
NUM_CARDS = 52
NUM_CARDS_DOUBLE = 104   # Mulle: the second copy of card c is c + 52
FIRST_JOKER = 104        # jokers X1..X6 are the ids 104-109
NUM_JOKERS = 6
NUM_IDS = FIRST_JOKER + NUM_JOKERS

# the Italian deck (ids 150-189): ranks A 2-7 Knave Knight King = 1..10, suits coins, cups,
# swords, batons
ITALIAN40 = "italian40"
ITALIAN_FIRST = 150
NUM_ITALIAN = 40
ITALIAN_RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "J", "N", "K")
ITALIAN_SUIT_NAMES = ("D", "C", "S", "B")
ITALIAN_SUIT_WORDS = ("coins", "cups", "swords", "batons")

_RANK_BY_NAME = {name: i + 1 for i, name in enumerate(RANK_NAMES)}
_RANK_BY_NAME["T"] = 10
_SUIT_BY_NAME = {name: i for i, name in enumerate(SUIT_NAMES)}
_JOKER_BY_NAME = {
    f"{prefix}{k + 1}": FIRST_JOKER + k for k in range(NUM_JOKERS) for prefix in ("X", "JK")
}


def make_card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (1..13) and ``suit`` (0..3)."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return (rank - 1) * 4 + suit


def card_rank(card: int) -> int:
    """Rank 1..13 of a card id (either copy of the double deck); 0 for a joker; 1..10 for
    an Italian card (A 2-7 J N K)."""
    if card < FIRST_JOKER:
        return card % NUM_CARDS // 4 + 1
    if card >= ITALIAN_FIRST:
        return (card - ITALIAN_FIRST) // 4 + 1
    return 0


def is_joker(card: int) -> bool:
    """Whether ``card`` is a joker (ids 104-109, ``X1``-``X6``)."""
    return FIRST_JOKER <= card < FIRST_JOKER + NUM_JOKERS


def is_italian(card: int) -> bool:
    """Whether ``card`` is a card of the Italian deck (ids 150-189)."""
    return ITALIAN_FIRST <= card < ITALIAN_FIRST + NUM_ITALIAN


def card_suit(card: int) -> int:
    """Suit 0..3 of a card id: S, H, D, C; for an Italian card D, C, S, B (coins, cups,
    swords, batons)."""
    return (card - ITALIAN_FIRST) % 4 if card >= ITALIAN_FIRST else card % 4


def card_code(card: int) -> str:
    """Text code of a card id, e.g. ``'10D'``; the second copy of the double deck (ids
    52-103) takes a prime, ``"10D'"``."""
    if type(card) is int and 0 <= card < NUM_IDS:
        return _CODES[card]
    if isinstance(card, int) and is_italian(card):
        k = card - ITALIAN_FIRST
        return ITALIAN_RANK_NAMES[k // 4] + ITALIAN_SUIT_NAMES[k % 4]
    if not isinstance(card, int) or not 0 <= card < NUM_IDS:
        raise CardError(f"no card with id {card!r}")
    return _code(card)


def _code(card: int) -> str:
    if card >= FIRST_JOKER:
        return f"X{card - FIRST_JOKER + 1}"
    base = card % NUM_CARDS
    return RANK_NAMES[base // 4] + SUIT_NAMES[base % 4] + ("'" if card >= NUM_CARDS else "")


_CODES = tuple(_code(c) for c in range(NUM_IDS))


def card_codes(cards: Iterable[int]) -> list[str]:
    """The codes of card ids, in order (``card_code`` of each).

    >>> card_codes([0, 38, 52])
    ['AS', '10D', "AS'"]
    """
    return [
        _CODES[c] if type(c) is int and 0 <= c < NUM_IDS else card_code(c) for c in cards
    ]


def parse_card(code: str, deck: str | None = None) -> int:
    """Card id of a code such as ``AS``, ``10D`` or ``TD``; case-insensitive. A prime
    (``AS'``) names the second copy of Mulle's double deck (id + 52); whether the system has
    it is checked where the rules are known (:func:`check_deck`). With
    ``deck="italian40"`` the code names a card of the Italian deck (``7S``: the seven of
    swords, id 176)."""
    if not isinstance(code, str):
        raise CardError(f"card code must be a string, not {type(code).__name__}")
    text = code.strip().upper()
    if deck is not None:
        if deck != ITALIAN40:
            raise CardError(f"unknown deck {deck!r}: codes are read in the context of "
                            f"{ITALIAN40!r} or of the standard decks (deck=None)")
        card = _ITALIAN_BY_CODE.get(text)
        if card is None:
            raise CardError(
                f"unknown Italian card code {code!r} (expected rank A,2-7,J,N,K then suit "
                "D,C,S,B: coins, cups, swords, batons)"
            )
        return card
    joker = _JOKER_BY_NAME.get(text)
    if joker is not None:
        return joker
    second = text.endswith("'")
    if second:
        text = text[:-1]
    rank = _RANK_BY_NAME.get(text[:-1])
    suit = _SUIT_BY_NAME.get(text[-1:])
    if rank is None or suit is None:
        raise CardError(
            f"unknown card code {code!r} (expected rank A,2-10,J,Q,K then suit S,H,D,C, or a "
            "joker X1-X6)"
        )
    return (rank - 1) * 4 + suit + (NUM_CARDS if second else 0)


def parse_cards(codes: Iterable[str], deck: str | None = None) -> list[int]:
    """Card ids of a sequence of codes, in order (``deck`` as in :func:`parse_card`)."""
    return [parse_card(c, deck) for c in codes]


def rank_mask(rank: int) -> int:
    """Mask of the four cards of ``rank``."""
    return 0xF << (4 * (rank - 1))


def double_mask(mask: int) -> int:
    """``mask`` over the 52 ids together with the same cards of the second copy (ids + 52):
    a suit, rank or card mask of the double deck."""
    return mask | mask << NUM_CARDS


def check_deck(mask: int, deck_mask: int, where: str = "") -> None:
    """Raise :class:`CardError` if ``mask`` holds a card outside ``deck_mask``: a second
    copy (``AS'``) in a single-deck system, or an id past the deck."""
    extra = mask & ~deck_mask & ~ALL_CARDS
    if not extra:
        return  # (cards set aside from a single deck are the caller's PositionError)
    card = (extra & -extra).bit_length() - 1
    if is_italian(card):
        raise CardError(f"card {card_code(card)}{where} is an Italian card (deck=italian40)")
    if card >= FIRST_JOKER:
        raise CardError(f"card {card_code(card)}{where} is a joker this deck does not have")
    raise CardError(
        f"card {card_code(card)}{where} is a second copy: only Mulle (deck=double104) "
        "plays with two decks"
    )


def popcount(mask: int) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()


def _suit_mask(suit: int) -> int:
    return sum(1 << (r * 4 + suit) for r in range(13))


ALL_CARDS = (1 << NUM_CARDS) - 1
ALL_CARDS_DOUBLE = (1 << NUM_CARDS_DOUBLE) - 1
JOKERS = ((1 << NUM_JOKERS) - 1) << FIRST_JOKER
ALL_IDS = (1 << NUM_IDS) - 1   # every card id: both copies and the jokers
ITALIAN_CARDS = ((1 << NUM_ITALIAN) - 1) << ITALIAN_FIRST   # the 40 Italian cards
_ITALIAN_BY_CODE = {
    card_code(c): c for c in range(ITALIAN_FIRST, ITALIAN_FIRST + NUM_ITALIAN)
}
SPADES = _suit_mask(0)
HEARTS = _suit_mask(1)
DIAMONDS = _suit_mask(2)
CLUBS = _suit_mask(3)
ACES = rank_mask(1)
FACES = rank_mask(11) | rank_mask(12) | rank_mask(13)


class CardSet:
    """An immutable set of cards backed by a bitmask.

    >>> s = CardSet.parse("AS KH")
    >>> list(s), int(s)
    ([0, 49], 562949953421313)
    >>> s | CardSet.parse("2C")
    CardSet('AS 2C KH')
    >>> CardSet.parse("7S KD", deck="italian40")
    CardSet('7S KD', deck='italian40')
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int | str | Iterable[int] = 0, deck: str | None = None) -> None:
        if isinstance(mask, str):  # the form repr() shows: CardSet('AS 10D')
            mask = parse_cards(mask.replace(",", " ").split(), deck)
        if isinstance(mask, int):
            if mask < 0 or mask & ~(ALL_IDS | ITALIAN_CARDS):
                raise CardError(f"card mask out of range: {mask:#x}")
            self.mask = mask
        else:
            m = 0
            for c in mask:
                card_code(c)
                m |= 1 << c
            self.mask = m

    @classmethod
    def parse(cls, text: str, deck: str | None = None) -> CardSet:
        """Card set of codes separated by spaces or commas (``deck`` as in
        :func:`parse_card`)."""
        codes = text.replace(",", " ").split()
        return cls(parse_cards(codes, deck))

    def __iter__(self) -> Iterator[int]:
        m = self.mask
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and card >= 0 and bool(self.mask >> card & 1)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask | int(other))

    def __and__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask & int(other))

    def __sub__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask & ~int(other))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def codes(self) -> list[str]:
        """Codes of the cards in id order."""
        return [card_code(c) for c in self]

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        if self.mask & ITALIAN_CARDS:   # (codes of the Italian deck read in its context)
            return f"CardSet({str(self)!r}, deck={ITALIAN40!r})"
        return f"CardSet({str(self)!r})"
