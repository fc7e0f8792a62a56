"""Rules validation (docs/rules.md §3.1 options) and the system registry."""

from __future__ import annotations

import dataclasses

import pytest

import cassino
from cassino.errors import RulesError, UnknownSystemError
from cassino.rules import OPTION_NAMES, SYSTEMS, Rules, implemented_systems, parse_option, rules

# Every option of §3.1 (parameter table, options list, AMB resolutions) with its values.
SECTION_3_1_OPTIONS = {
    "face_capture": ["one_or_three", "one", "any"],
    "sum_groups": ["multi", "single"],
    "capture_extent": ["free", "maximal"],
    "obligation": ["v1", "none", "v2", "v3"],
    "own_increase": ["allowed", "keep_old", "forbidden"],
    "end_check": ["ordered_tally", "compare_totals"],
    "first_dealer": ["high", "low"],
    "deal_order": ["opponent_table_dealer", "opponent_dealer_table"],
    "sweeps": [False, True],
    "natural_build_combination": [True, False],
    "unique_build_values": [True, False],
    "holding_invariant": [True, False],
    "last_card_sweep": [True, False],
    "combine_match_and_sum": [True, False],
    "match_mode": ["rank", "value"],
    "build_max_value": [10, 9, 1],
    "target": [21, 11, 1, 61],
    "sweep_points": [1, 2],
    "direction": ["cw", "ccw"],
    "first_player": ["left_of_dealer", "right_of_dealer", "non_dealer"],
}

# The 35 systems of docs/rules.md §3 (§3.29 mod_yoruba is a modifier, not a system).
ALL_35_SYSTEMS = [
    "cassino_standard", "cassino_partnership", "cassino_three_four", "cassino_five_player",
    "cassino_draw", "cassino_spade", "cassino_california", "cassino_pluck", "cassino_royal",
    "cassino_buckeye", "cassino_trailing_royals", "cassino_portuguese", "cassino_diamond",
    "callabra", "tablanette", "kontsina", "diloti", "diloti_four_player", "swedish_kassino",
    "mulle", "finnish_kasino", "african_cassino_3p", "african_cassino_2p",
    "african_cassino_partnership", "italian_house_cassino", "elewenjewe_amateur",
    "elewenjewe_professional", "elewenjewe_five_player", "shaniss", "stealing_bundles",
    "zwickern", "bella_donna", "bella_donna_halliel", "laugh_and_lie_down",
    "laugh_and_lie_down_4p",
]  # fmt: skip


def test_standard_defaults_match_section_3_1():
    r = rules("cassino_standard")
    assert r.system == "cassino_standard"
    assert r.players == 2
    assert r.match_mode == "rank"
    assert r.face_capture == "one_or_three"  # AMB-04
    assert r.sum_groups == "multi"  # AMB-01
    assert r.combine_match_and_sum is True
    assert r.capture_extent == "free"  # AMB-02
    assert r.builds_as_sum_components == "no"  # AMB-10
    assert r.compulsion == "none"  # AMB-03
    assert r.build_kinds == "simple+multiple"
    assert r.table_only_build == "no"  # AMB-05
    assert r.increase_who == "any_simple"
    assert r.augment_who == "any"
    assert r.unique_build_values is True  # AMB-06
    assert r.build_max_value == 10
    assert r.holding_invariant is True
    assert r.obligation == "v1"  # AMB-08
    assert r.own_increase == "allowed"  # AMB-09
    assert r.natural_build_combination is True  # AMB-11
    assert r.end_check == "ordered_tally"  # AMB-12
    assert r.first_dealer == "high"  # AMB-13
    assert r.deal_order == "opponent_table_dealer"  # AMB-13
    assert r.sweeps is False  # AMB-14
    assert r.last_card_sweep is True  # AMB-15
    assert r.leftovers_to == "last_capturer"
    assert r.target == 21
    assert r.hand_size == 4 and r.table_cards == 4
    assert r.deals_per_hand == 6
    assert r.num_teams == 2
    assert r.options() == {}


@pytest.mark.parametrize(
    ("name", "value"),
    [(name, value) for name, values in SECTION_3_1_OPTIONS.items() for value in values],
)
def test_every_section_3_1_option_value_is_accepted(name, value):
    r = rules("cassino_standard", **{name: value})
    assert getattr(r, name) == value
    # options() reports exactly the overrides that differ from the preset
    default = getattr(rules("cassino_standard"), name)
    assert r.options() == ({} if value == default else {name: value})
    # replace() is the same as keyword options
    assert rules("cassino_standard").replace(**{name: value}) == r


def test_options_combine():
    r = rules(
        "cassino_standard",
        sweeps=True,
        obligation="v2",
        capture_extent="maximal",
        face_capture="any",
        sum_groups="single",
        natural_build_combination=False,
        unique_build_values=False,
        own_increase="keep_old",
    )
    assert r.options() == {
        "sweeps": True,
        "obligation": "v2",
        "capture_extent": "maximal",
        "face_capture": "any",
        "sum_groups": "single",
        "natural_build_combination": False,
        "unique_build_values": False,
        "own_increase": "keep_old",
    }
    assert r == rules("cassino_standard", **r.options())
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.sweeps = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"obligation": "v4"}, r"option obligation must be one of 'none', 'v1', 'v2', 'v3', 'diloti', 'african_2p', not 'v4'"),
        ({"face_capture": "two"}, r"option face_capture must be one of .*'one_or_three'.*not 'two'"),
        ({"capture_extent": "everything"}, r"option capture_extent must be one of"),
        ({"own_increase": "yes"}, r"option own_increase must be one of"),
        ({"end_check": "first"}, r"option end_check must be one of"),
        ({"first_dealer": "middle"}, r"option first_dealer must be one of"),
        ({"deal_order": "table_first"}, r"option deal_order must be one of"),
        ({"sum_groups": 2}, r"option sum_groups must be one of"),
        ({"sweeps": "yes"}, r"option sweeps must be true or false, not 'yes'"),
        ({"sweeps": 1}, r"option sweeps must be true or false, not 1"),
        ({"natural_build_combination": None}, r"option natural_build_combination must be true or false"),
        ({"target": "21"}, r"option target must be an integer, not '21'"),
        ({"target": True}, r"option target must be an integer, not True"),
        ({"build_max_value": 10.0}, r"option build_max_value must be an integer"),
        ({"players": 3}, r"cassino_standard is played by 2 players, not 3"),
        ({"players": 1}, r"played by 2 players, not 1"),
        ({"build_max_value": 11}, r"build_max_value must be between 1 and 10 .* not 11"),
        ({"build_max_value": 0}, r"build_max_value must be between 1 and 10 .* not 0"),
        ({"target": 0}, r"target must be at least 1, not 0"),
        ({"sweeps": True, "sweep_points": 0}, r"sweeps=true needs sweep_points of at least 1"),
        ({"hand_size": 3}, r"batches of two"),
        ({"table_cards": 3}, r"49 cards cannot be dealt in rounds of 4 to 2 players"),
        ({"hand_size": 6}, r"table_cards must be a multiple of 3, not 4"),
        ({"hand_size": 0}, r"hand_size must be 1-26"),
        ({"teams": "partnership"}, r"partnerships need an even number of players, at least 4, not 2"),
        ({"obligation": "v3", "unique_build_values": False}, r"obligation v3 .* needs unique_build_values=true"),
    ],
)
def test_bad_values_and_impossible_combinations_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules("cassino_standard", **options)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"capture_extent": "single_type"}, r"capture_extent=single_type is not implemented yet"),
        ({"builds_as_sum_components": "adversary_only"}, r"builds_as_sum_components=adversary_only is not implemented yet"),
        ({"deck": "jokers"}, r"deck=jokers is not implemented yet"),
    ],
)
def test_planned_values_say_not_implemented(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules("cassino_standard", **options)


@pytest.mark.parametrize("name", ["foo", "sweep", "obligations", "Sweeps", "player_range"])
def test_unknown_options_raise_naming_the_option(name):
    with pytest.raises(RulesError, match=rf"unknown option '{name}' for cassino_standard"):
        rules("cassino_standard", **{name: True})
    with pytest.raises(RulesError, match=rf"unknown option '{name}'"):
        rules("cassino_standard").replace(**{name: True})


def test_system_is_not_an_option():
    with pytest.raises(RulesError, match=r"unknown option 'system'"):
        rules("cassino_standard").replace(system="cassino_standard_002")


def test_rules_errors_are_value_errors():
    assert issubclass(RulesError, ValueError)
    assert issubclass(UnknownSystemError, RulesError)


# -- parse_option (command line k=v) ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sweeps=true", ("sweeps", True)),
        ("sweeps=ON", ("sweeps", True)),
        ("sweeps=0", ("sweeps", False)),
        ("natural-build-combination=no", ("natural_build_combination", False)),
        ("target=11", ("target", 11)),
        (" obligation = v2 ", ("obligation", "v2")),
        ("face_capture=any", ("face_capture", "any")),
    ],
)
def test_parse_option(text, expected):
    assert parse_option(text) == expected
    name, value = expected
    assert getattr(rules("cassino_standard", **{name: value}), name) == value


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("sweeps", r"must look like name=value"),
        ("bogus=1", r"unknown option 'bogus'"),
        ("sweeps=maybe", r"option sweeps must be true or false, not 'maybe'"),
        ("target=ten", r"option target must be an integer, not 'ten'"),
    ],
)
def test_parse_option_errors(text, pattern):
    with pytest.raises(RulesError, match=pattern):
        parse_option(text)


def test_option_names_cover_rules_fields():
    fields = {f.name for f in dataclasses.fields(Rules)} - {"system", "player_range", "mechanics"}
    assert set(OPTION_NAMES) == fields
    assert set(SECTION_3_1_OPTIONS) <= set(OPTION_NAMES)


def test_mechanics_are_data_of_the_presets():
    """The engine asks a rule set for a mechanic, never for its system: the mechanics no
    option describes come from the preset (Rules.mechanics), and are no option."""
    from cassino.rules import MECHANICS, compound_systems, implemented_systems

    seen: dict[str, set[str]] = {m: set() for m in MECHANICS}
    for sid in implemented_systems() + compound_systems():
        r = cassino.rules(sid)
        assert r.mechanics <= set(MECHANICS), sid
        for m in r.mechanics:
            seen[m].add(sid)
        assert r.two_card_capture == ("two_card_capture" in r.mechanics)
        assert r.finnish == ("mokki" in r.mechanics)
    assert seen == {
        "two_card_capture": {"callabra"},
        "mokki": {"finnish_kasino"},
        "declarations": {"diloti", "diloti_four_player"},
        "elewenjewe": {"elewenjewe_amateur", "elewenjewe_professional", "elewenjewe_five_player"},
        "bella_donna": {"bella_donna", "bella_donna_halliel"},
        "zwickern": {"zwickern"},
        "laugh_and_lie_down": {"laugh_and_lie_down", "laugh_and_lie_down_4p"},
        "compound": {"african_cassino_3p", "african_cassino_2p", "african_cassino_partnership",
                     "italian_house_cassino"},
        "italian": {"italian_house_cassino"},
    }
    # an option leaves them, and they are not an option
    assert cassino.rules("diloti", capture_extent="free").mechanics == {"declarations"}
    with pytest.raises(RulesError, match="unknown option 'mechanics'"):
        cassino.rules("cassino_standard", mechanics=frozenset({"mokki"}))
    # the checks read the mechanic: Callabra's one-hand game without its two-card captures
    # (and the clearing capture that ends it) is refused
    with pytest.raises(RulesError, match="one_hand is the Callabra ending"):
        dataclasses.replace(cassino.rules("callabra"), mechanics=frozenset())


# -- registry ---------------------------------------------------------------------------


def test_registry_lists_all_35_systems_and_the_002_preset():
    assert len(ALL_35_SYSTEMS) == len(set(ALL_35_SYSTEMS)) == 35
    assert set(SYSTEMS) == {*ALL_35_SYSTEMS, "cassino_standard_002"}
    assert cassino.SYSTEMS is SYSTEMS
    for sid, info in SYSTEMS.items():
        assert info.id == sid
        assert info.name and info.summary and info.players
        assert info.section.startswith("3.")
    assert SYSTEMS["cassino_standard"].section == "3.1"
    assert SYSTEMS["diloti"].section == "3.17"
    assert SYSTEMS["laugh_and_lie_down_4p"].section == "3.36"


def test_implemented_systems():
    assert implemented_systems() == [
        "cassino_standard",
        "cassino_standard_002",
        "cassino_partnership",
        "cassino_three_four",
        "cassino_five_player",
        "cassino_draw",
        "cassino_spade",
        "cassino_california",
        "cassino_pluck",
        "cassino_royal",
        "cassino_buckeye",
        "cassino_trailing_royals",
        "cassino_portuguese",
        "cassino_diamond",
        "callabra",
        "tablanette",
        "kontsina",
        "diloti",
        "diloti_four_player",
        "swedish_kassino",
        "mulle",
        "finnish_kasino",
        "elewenjewe_amateur",
        "elewenjewe_professional",
        "elewenjewe_five_player",
        "shaniss",
        "stealing_bundles",
        "zwickern",
        "bella_donna",
        "bella_donna_halliel",
        "laugh_and_lie_down",
        "laugh_and_lie_down_4p",
    ]
    assert cassino.implemented_systems() == implemented_systems()
    for sid in implemented_systems():
        assert rules(sid).system == sid


@pytest.mark.parametrize(
    "sid",
    [s for s in ALL_35_SYSTEMS if s not in (
        "cassino_standard", "cassino_partnership", "cassino_three_four", "cassino_five_player",
        "cassino_draw", "tablanette",
        "cassino_spade", "cassino_california", "cassino_portuguese", "cassino_diamond",
        "cassino_royal", "cassino_buckeye", "cassino_pluck", "cassino_trailing_royals", "callabra",
        "kontsina", "swedish_kassino", "mulle", "finnish_kasino", "diloti", "diloti_four_player",
        "shaniss", "stealing_bundles", "elewenjewe_amateur", "elewenjewe_professional",
        "elewenjewe_five_player", "zwickern", "bella_donna", "bella_donna_halliel",
        "laugh_and_lie_down", "laugh_and_lie_down_4p", "african_cassino_3p",
        "african_cassino_2p", "african_cassino_partnership", "italian_house_cassino")]
    + ["planned_example"],
)
def test_unimplemented_systems_raise_unknown_system(sid, monkeypatch):
    # (every system of docs/rules.md plays now: a registry entry without a preset is planned)
    from cassino.rules import SYSTEMS, SystemInfo

    monkeypatch.setitem(SYSTEMS, "planned_example",
                        SystemInfo("planned_example", "Example", "2", "A planned system.", False, "3.1", {}))
    assert SYSTEMS[sid].status == "planned"
    with pytest.raises(UnknownSystemError, match=rf"system '{sid}' is not implemented yet"):
        rules(sid)


@pytest.mark.parametrize("sid", ["nope", "cassino", "Cassino_Standard", "", "mod_yoruba", "opt_sweeps"])
def test_unknown_system_ids_raise(sid):
    with pytest.raises(UnknownSystemError, match=rf"unknown system '{sid}'"):
        rules(sid)


@pytest.mark.parametrize("sid", [None, 5, ["cassino_standard"]])
def test_system_id_must_be_a_string(sid):
    with pytest.raises(UnknownSystemError, match="system id must be a string"):
        rules(sid)


def test_cassino_standard_002_preset():
    r = rules("cassino_standard_002")
    base = rules("cassino_standard")
    assert r.system == "cassino_standard_002"
    assert r.first_dealer == "low"
    assert r.deal_order == "opponent_dealer_table"
    assert r.face_capture == "one"
    assert r.sweeps is True
    assert r.obligation == "v3"
    assert r.end_check == "compare_totals"
    # everything else is standard
    differing = {
        f.name
        for f in dataclasses.fields(Rules)
        if f.compare and f.name != "system" and getattr(r, f.name) != getattr(base, f.name)
    }
    assert differing == {"first_dealer", "deal_order", "face_capture", "sweeps", "obligation", "end_check"}
    # the preset is the baseline of its own options()
    assert r.options() == {}
    assert rules("cassino_standard_002", sweeps=False).options() == {"sweeps": False}
    # 2 or 3 players
    r3 = rules("cassino_standard_002", players=3)
    assert r3.players == 3 and r3.num_teams == 3 and r3.deals_per_hand == 4
    with pytest.raises(RulesError, match=r"cassino_standard_002 is played by 2 to 3 players, not 4"):
        rules("cassino_standard_002", players=4)
    # V3 needs unique build values there too
    with pytest.raises(RulesError, match="unique_build_values"):
        rules("cassino_standard_002", unique_build_values=False)


def test_rules_are_cached_values():
    assert rules("cassino_standard") == Rules()
    assert rules("cassino_standard", sweeps=True) == rules("cassino_standard", sweeps=True)
    assert rules("cassino_standard", sweeps=True) != rules("cassino_standard")
    assert hash(rules("cassino_standard", obligation="v2")) == hash(rules("cassino_standard", obligation="v2"))
