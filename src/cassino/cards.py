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
    """Rank 1..13 of a card id (either copy of the double deck); 0 for a joker."""
    return card % NUM_CARDS // 4 + 1 if card < FIRST_JOKER else 0


def is_joker(card: int) -> bool:
    """Whether ``card`` is a joker (ids 104-109, ``X1``-``X6``)."""
    return card >= FIRST_JOKER


def card_suit(card: int) -> int:
    """Suit 0..3 (S, H, D, C) of a card id."""
    return card % 4


def card_code(card: int) -> str:
    """Text code of a card id, e.g. ``'10D'``; the second copy of the double deck (ids
    52-103) takes a prime, ``"10D'"``."""
    if type(card) is int and 0 <= card < NUM_IDS:
        return _CODES[card]
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


def parse_card(code: str) -> int:
    """Card id of a code such as ``AS``, ``10D`` or ``TD``; case-insensitive. A prime
    (``AS'``) names the second copy of Mulle's double deck (id + 52); whether the system has
    it is checked where the rules are known (:func:`check_deck`)."""
    if not isinstance(code, str):
        raise CardError(f"card code must be a string, not {type(code).__name__}")
    text = code.strip().upper()
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


def parse_cards(codes: Iterable[str]) -> list[int]:
    """Card ids of a sequence of codes, in order."""
    return [parse_card(c) for c in codes]


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
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int | str | Iterable[int] = 0) -> None:
        if isinstance(mask, str):  # the form repr() shows: CardSet('AS 10D')
            mask = parse_cards(mask.replace(",", " ").split())
        if isinstance(mask, int):
            if mask < 0 or mask > ALL_IDS:
                raise CardError(f"card mask out of range: {mask:#x}")
            self.mask = mask
        else:
            m = 0
            for c in mask:
                card_code(c)
                m |= 1 << c
            self.mask = m

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Card set of codes separated by spaces or commas."""
        codes = text.replace(",", " ").split()
        return cls(parse_cards(codes))

    def __iter__(self) -> Iterator[int]:
        m = self.mask
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_IDS and bool(self.mask >> card & 1)

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
        return f"CardSet({str(self)!r})"
