"""Game records: text and JSON round trips, match files, and every error path.

The record format is documented in ``kingsolve/game/record.py``; the rules it checks
are those of docs/rules.md (sections cited per test).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from kingsolve import Card, Deal, Position, Seat, Suit
from kingsolve.errors import ParseError
from kingsolve.game.record import Record, RecordError, format_records, parse_records, read_records
from kingsolve.game.rules import VARIANTS

DATA = Path(__file__).parent / "data"

DEAL32 = Deal.random(seed=1, deck=32).pbn()
DEAL = "N:AQ74.K93.J82.T65 KJ2.QT754.A3.K84 T98.AJ86.KQ95.A2 653.2.T764.QJ973"


def record_text(*lines: str, play: str = "") -> str:
    head = "\n".join(lines)
    return head + "\n" + play if play else head + "\n"


BASE = ['[Variant "italian"]', '[Contract "no-queens"]', '[Dealer "W"]', '[Leader "N"]',
        '[Doubles "false"]', f'[Deal "{DEAL}"]', '[Play "N"]']


def random_record(seed: int) -> Record:
    """A random hand of a random trick contract, played partly or fully at random."""
    rng = random.Random(seed)
    name = rng.choice(sorted(VARIANTS))
    variant = VARIANTS[name]
    contracts = [c for c in variant.contracts.values() if c.kind == "tricks"]
    contract = rng.choice(contracts)
    deal = Deal.random(seed=rng.randrange(10**6), deck=variant.deck)
    trump = None
    if contract.takes_trump:
        trump = rng.choice(list(Suit))
    options = ()
    if contract.options and rng.random() < 0.5:
        options = contract.options
    doubles = variant.doubles and rng.random() < 0.3
    leader = rng.choice(list(deal.seats))
    pos = Position(variant, contract.name, deal, leader=leader, trump=trump, doubles=doubles,
                   options=options)
    for _ in range(rng.randrange(deal.tricks * 4 + 1)):
        if pos.complete:
            break
        pos.play(rng.choice(pos.legal_cards()))
    dealer = rng.choice([None, *deal.seats])
    return Record(name, contract.name, deal, leader, trump=trump, options=options, dealer=dealer,
                  doubles=doubles, play=tuple(pos.record),
                  event=rng.choice([None, 'club "night" \\ 1']), hand=rng.choice([None, 3]),
                  seed=rng.choice([None, "abc 12"]))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_random_played_hands_round_trip_through_text_and_json(seed):
    record = random_record(seed)
    assert Record.parse(record.text()) == record
    assert Record.from_dict(record.to_dict()) == record
    # The JSON twin minus the tags is a request for the same position.
    pos = record.position()
    assert [str(c) for c in pos.record] == record.to_dict()["play"]


def test_text_layout_one_trick_a_line():
    # docs/rules.md 2: each play line is a trick from its leader; the winner leads next.
    text = record_text(*BASE, play="SA SK S8 S3\nS4 S2 S9 S5\n")
    r = Record.parse(text)
    assert [str(c) for c in r.play] == "SA SK S8 S3 S4 S2 S9 S5".split()
    assert r.text().splitlines()[-2:] == ["SA SK S8 S3", "S4 S2 S9 S5"]
    assert r.dealer == Seat.W and r.leader == Seat.N and not r.doubles
    assert r.position().to_move == Seat.S  # S won trick 2 with S9


def test_match_file_holds_several_hands_and_comments(tmp_path):
    one = Record.parse(record_text(*BASE, play="SA SK S8 S3\n"))
    two = Record("turkish", "trumps", Deal(DEAL), Seat.E, trump=Suit.H, hand=2)
    text = "; a comment\n% another\n" + format_records([one, two])
    assert parse_records(text) == [one, two]
    path = tmp_path / "match.kpbn"
    path.write_text(text, encoding="utf-8")
    assert read_records(str(path)) == [one, two]


def test_sample_match_file_reads():
    records = read_records(str(DATA / "italian-short.kpbn"))
    assert len(records) >= 2
    assert all(r.variant == "italian" for r in records)


def test_sale_and_bid_move_points():
    # docs/rules.md 10: the buyer scores its tricks - k, the dealer its tricks + k.
    deal = Deal("N:A... K... Q... J...")
    r = Record("italian", "trumps", deal, Seat.N, trump=Suit.S, dealer=Seat.W,
               sale=(Seat.E, 1), play=["SA", "SK", "SQ", "SJ"])
    assert Record.parse(r.text()) == r
    assert r.final_scores() == {Seat.N: 1, Seat.E: -1, Seat.S: 0, Seat.W: 1}
    # docs/rules.md 6: an accepted bid is paid to the host: 2 null-tricks = 150.
    f = Record("portuguese", "null", deal, Seat.E, dealer=Seat.N, bid=(Seat.E, 2, "null"),
               play=["SK", "SQ", "SJ", "SA"])
    assert Record.from_dict(f.to_dict()) == f
    assert f.final_scores() == {Seat.N: 325 - 75 + 150, Seat.E: 325 - 150, Seat.S: 325,
                                Seat.W: 325}


def test_festa_outcomes_settle_the_points():
    # docs/rules.md 6: (2) 8 or null refused: the host plays null and nobody pays;
    # (3) 433: no play, the host scores 100 and each other seat 75.
    deal = Deal("N:A... K... Q... J...")
    refused = Record("portuguese", "null", deal, Seat.E, dealer=Seat.N, bid=(Seat.E, 7, "plus"),
                     festa="refused", play=["SK", "SQ", "SJ", "SA"])
    assert Record.parse(refused.text()) == refused
    assert Record.from_dict(refused.to_dict()) == refused
    unpaid = Record("portuguese", "null", deal, Seat.E, dealer=Seat.N,
                    play=["SK", "SQ", "SJ", "SA"])
    assert refused.final_scores() == unpaid.final_scores()
    settled = Record.parse(record_text('[Variant "portuguese"]', '[Contract "festa"]',
                                       '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]'))
    assert settled.festa == "433" and settled.play == () and settled.trump is None
    assert settled.final_scores() == {Seat.N: 75, Seat.E: 75, Seat.S: 75, Seat.W: 100}
    assert "[Play" not in settled.text() and "[Trump" not in settled.text()
    assert Record.parse(settled.text()) == settled
    assert Record.from_dict(settled.to_dict()) == settled
    with pytest.raises(RecordError, match="a festa settled 433 is not played"):
        settled.position()
    scored = settled.text().replace('[Deal "', '[Score "N 75 E 75 S 75 W 100"]\n[Deal "')
    assert Record.parse(scored).score is not None


def test_a_433_festa_keeps_its_rule_document():
    # docs/rules.md 6 and 13: a festa settled 433 under house rules, unplayed, still
    # names its rules in the tag Rules, through text and JSON.
    house = '{"base":"portuguese","contracts":{"no-hearts":{"lead":"any"}}}'
    text = record_text('[Variant "portuguese"]', f'[Rules "{house.replace(chr(34), chr(92) + chr(34))}"]',
                       '[Contract "festa"]', '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]')
    settled = Record.parse(text)
    assert settled.festa == "433" and settled.house_rules == house
    assert settled.rules.contract("no-hearts").lead_suit is None
    assert '[Rules "' in settled.text() and Record.parse(settled.text()) == settled
    assert Record.from_dict(settled.to_dict()) == settled
    assert settled.to_dict()["variant"] == {"base": "portuguese", "contracts": {"no-hearts": {"lead": "any"}}}
    assert settled.final_scores() == {Seat.N: 75, Seat.E: 75, Seat.S: 75, Seat.W: 100}
    # one name, two rule sets: a match report refuses to add them up
    from kingsolve.errors import InvalidRequestError
    from kingsolve.hands.report import match_report
    plain = Record.parse(text.replace(text.splitlines()[1] + "\n", ""))
    assert plain.house_rules is None and plain.variant == settled.variant
    with pytest.raises(InvalidRequestError, match="hand 2 is played under other rules"):
        match_report([settled, plain])


def test_house_rules_of_their_own_name_keep_the_sale_and_the_festa_tags():
    # docs/rules.md 13: the procedures go by the rules' data, not their name.
    def tags_of(house: str, *lines: str) -> str:
        return record_text('[Variant "club"]', f'[Rules "{house.replace(chr(34), chr(92) + chr(34))}"]',
                           *lines, f'[Deal "{DEAL}"]')
    festa = Record.parse(tags_of('{"base":"portuguese","name":"club"}', '[Contract "festa"]',
                                 '[Dealer "W"]', '[Festa "433"]'))
    assert festa.festa == "433" and festa.rules.name == "club"
    sold = Record.parse(tags_of('{"base":"italian","name":"club"}', '[Contract "trumps"]',
                                '[Trump "S"]', '[Dealer "W"]', '[Sale "E 2"]'))
    assert sold.sale == (Seat.E, 2)
    with pytest.raises(RecordError, match="tag Sale 'E 2': variant 'club' has no sale .* no dealer"):
        Record.parse(tags_of('{"base":"italian","name":"club","first_dealer":null}', '[Contract "trumps"]',
                             '[Trump "S"]', '[Dealer "W"]', '[Sale "E 2"]'))
    with pytest.raises(RecordError, match="tag Festa '433': variant 'club' has no festa .* no contract 'null'"):
        Record.parse(tags_of('{"base":"portuguese","name":"club","contracts":{"null":null}}',
                             '[Contract "festa"]', '[Dealer "W"]', '[Festa "433"]'))


def test_match_report_counts_a_433_festa():
    # docs/rules.md 6 (3): the settlement is the hand's whole value; the festa hands out 325.
    from kingsolve.hands.report import hand_total, match_report
    settled = Record.parse(record_text('[Variant "portuguese"]', '[Contract "festa"]',
                                       '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]'))
    report = match_report([settled])
    hand = report.hands[0]
    assert hand.actual == hand.values == {Seat.N: 75, Seat.E: 75, Seat.S: 75, Seat.W: 100}
    assert hand.total == hand_total(settled) == 13 * 25 and hand.sum_ok
    assert hand.costs is None and report.to_dict()["hands"][0]["festa"] == "433"
    assert "festa settled 433" in report.text()


def test_score_tag_kept_and_checked():
    deal = Deal("N:A... K... Q... J...")
    r = Record("italian", "no-queens", deal, Seat.N, play=["SA", "SK", "SQ", "SJ"],
               score=((Seat.N, -3), (Seat.E, 0), (Seat.S, 0), (Seat.W, 0)))
    assert Record.parse(r.text()) == r
    bad = r.text().replace("N -3", "N -4")
    with pytest.raises(RecordError, match=r"line 5: tag Score 'N -4 E 0 S 0 W 0' does not "
                                          r"match the play, which scores 'N -3"):
        Record.parse(bad)


def test_leader_defaults_to_the_seat_after_the_dealer():
    # docs/rules.md 4: the seat after the dealer leads the first trick.
    lines = [line for line in BASE if not line.startswith(("[Leader", "[Play"))]
    assert Record.parse(record_text(*lines)).leader == Seat.N


ERRORS = [
    # (lines, play, expected message)
    (['[Variant "italian"]', '[Foo "x"]'], "", r"line 2: unknown tag 'Foo'"),
    (['[Variant "italian"', ], "", r"line 1: invalid tag line '\[Variant \"italian\"'"),
    (['[Variant "italian"]', '[Variant "russian"]'], "", r"line 2: duplicate tag 'Variant' \(first on line 1\)"),
    (['[Variant "chess"]', '[Contract "no-queens"]', f'[Deal "{DEAL}"]'], "", r"line 1: tag Variant: unknown variant 'chess'"),
    (['[Variant "italian"]', '[Contract "no-men"]', f'[Deal "{DEAL}"]'], "", r"line 2: tag Contract: unknown contract 'no-men'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Deal "N:AKQ"]'], "", r"line 3: tag Deal: invalid deal 'N:AKQ'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Deal "N:A... A... Q... J..."]', '[Leader "N"]'], "", r"line 3: tag Deal: .*'SA' is listed twice|line 3: tag Deal: .*more than one seat"),
    (['[Variant "italian"]', '[Contract "no-queens"]', f'[Deal "{DEAL}"]'], "", r"line 1: missing tag 'Leader'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Leader "N"]'], "", r"line 1: missing tag 'Deal'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', f'[Deal "{DEAL}"]', '[Leader "X"]'], "", r"line 4: tag Leader: invalid seat 'X'"),
    (['[Variant "italian"]', '[Contract "trumps"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 1: tag Trump: contract 'trumps' needs a trump suit"),
    (['[Variant "italian"]', '[Contract "trumps"]', '[Trump "Z"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Trump: invalid suit 'Z'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Trump "S"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Trump: contract 'no-queens' takes no trump"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Options "fast"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Options: unknown option 'fast'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Doubles "maybe"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Doubles: invalid value 'maybe'"),
    (['[Variant "russian"]', '[Contract "no-queens"]', '[Doubles "true"]', f'[Deal "{DEAL32}"]', '[Leader "N"]'], "", r"line 3: tag Doubles: variant 'russian' has no doubles"),
    (['[Variant "russian"]', '[Contract "no-queens"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Deal: .*not in the 32-card deck"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Deal "N:A... - K... -"]', '[Leader "E"]'], "", r"line 4: invalid leader 'E': that seat is not in play"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Hand "x"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Hand: invalid value 'x'"),
    (BASE[:3] + ['[Leader "E"]'] + BASE[4:], "", r"line 7: tag Play names N but the leader is E"),
    (BASE[:-1], "SA SK S8 S3", r"line 7: cards 'SA SK S8 S3' outside a play section"),
    (BASE, "SA SK S8 S3 S4", r"line 8: trick 1 has 5 cards 'SA SK S8 S3 S4', expected 4"),
    (BASE, "SA SK S8\nS4 S2 S9 S5", r"line 8: trick 1 has 3 cards 'SA SK S8', expected 4 \(only the last"),
    (BASE, "SA SK S8 XX", r"line 8: trick 1: invalid card 'XX'"),
    (BASE, "SA SK S8 S3\nS4 S2 S9 H2", r"line 9: trick 2: illegal card 'H2': W must follow suit \(spades\)"),
    (BASE, "SA SK S8 S3\nS4 S2 S9 S5\nS7 S6", r"line 10: trick 3: illegal card 'S7': S is on move and N holds it"),
    (BASE, "SA SK S8 S3\nSA", r"line 9: trick 2: illegal card 'SA': it has already been played"),
    (BASE, "SA SK S8 S3\n[Event \"x\"]", r"line 9: tag line '\[Event \"x\"\]' after the play"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Sale "E 1"]', '[Dealer "W"]', f'[Deal "{DEAL}"]'], "", r"line 3: tag Sale 'E 1': only the trumps hands are sold"),
    (['[Variant "italian"]', '[Contract "trumps"]', '[Trump "S"]', '[Sale "E 1"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 4: tag Sale 'E 1' needs a Dealer tag"),
    (['[Variant "italian"]', '[Contract "trumps"]', '[Trump "S"]', '[Dealer "E"]', '[Sale "E 1"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Sale 'E 1': the dealer cannot buy"),
    (['[Variant "italian"]', '[Contract "trumps"]', '[Trump "S"]', '[Dealer "W"]', '[Sale "E x"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Sale: invalid value 'E x'"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Trump "S"]', '[Dealer "W"]', '[Bid "E 4 null"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Bid 'E 4 null': a null bid is at most 3 tricks"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Trump "S"]', '[Dealer "W"]', '[Bid "E 2 null"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Bid 'E 2 null': a null bid is played as null, not festa"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Trump "S"]', '[Dealer "W"]', '[Bid "W 2"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Bid 'W 2': the host does not bid"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]'], "", r"line 4: tag Festa '433': variant 'italian' has no festa \(docs/rules.md 6\)"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Dealer "W"]', '[Festa "later"]', f'[Deal "{DEAL}"]'], "", r"line 4: tag Festa: invalid value 'later': expected one of accepted, refused, host, 433"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Festa "433"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Festa '433' needs a Dealer tag"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Trump "S"]', '[Dealer "W"]', '[Festa "accepted"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Festa 'accepted' needs a Bid tag"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Dealer "W"]', '[Bid "E 3"]', '[Festa "433"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Festa '433': no bid was accepted, so the record takes no Bid tag \(line 4\)"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Trump "S"]', '[Dealer "W"]', '[Bid "E 7"]', '[Festa "refused"]', f'[Deal "{DEAL}"]'], "", r"line 6: tag Festa 'refused': the host plays null after 8 or null is refused, not festa"),
    (['[Variant "portuguese"]', '[Contract "null"]', '[Dealer "W"]', '[Bid "E 5"]', '[Festa "refused"]', f'[Deal "{DEAL}"]'], "", r"line 4: tag Bid 'E 5': 8 or null is asked only at 6 or 7 plus-tricks"),
    (['[Variant "portuguese"]', '[Contract "null"]', '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]'], "", r"line 4: tag Festa '433': the hand is the festa, not null"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Trump "S"]', '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]'], "", r"line 3: tag Trump 'S': a festa settled 433 is not played"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Dealer "W"]', '[Festa "433"]', f'[Deal "{DEAL}"]', '[Play "N"]'], "SA SK S8 S3", r"line 7: cards 'SA SK S8 S3': a festa settled 433 is not played"),
    (['[Variant "portuguese"]', '[Contract "festa"]', '[Dealer "W"]', '[Festa "433"]', '[Score "N 75 E 75 S 100 W 75"]', f'[Deal "{DEAL}"]'], "", r"line 5: tag Score 'N 75 E 75 S 100 W 75' does not match the 433 settlement 'N 75 E 75 S 75 W 100'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Score "N 1"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Score: invalid value 'N 1'"),
    (['[Variant "italian"]', '[Contract "no-queens"]', '[Score "N 1 N 2 S 0 W 0"]', f'[Deal "{DEAL}"]', '[Leader "N"]'], "", r"line 3: tag Score 'N 1 N 2 S 0 W 0': expected each seat in play once"),
]


@pytest.mark.parametrize("lines, play, message", ERRORS)
def test_every_error_names_the_line_and_the_problem(lines, play, message):
    with pytest.raises(RecordError, match=message) as info:
        Record.parse(record_text(*lines, play=play))
    assert isinstance(info.value, ParseError)
    assert info.value.line is not None


def test_line_numbers_count_from_the_file_start_in_a_match():
    good = record_text(*BASE, play="SA SK S8 S3")
    bad = record_text(*BASE, play="SA SK S8 H3")
    with pytest.raises(RecordError, match=r"^line 17: trick 1: illegal card 'H3'"):
        parse_records(good + "\n\n" + bad)


def test_after_the_end_of_the_hand():
    # docs/rules.md 2.4: no queens left after trick 1, the hand ends early.
    text = record_text('[Variant "italian"]', '[Contract "no-queens"]', '[Leader "N"]',
                       '[Deal "N:AK... QJ... T9... 87..."]', '[Play "N"]',
                       play="SA SQ ST S8\nSK SJ S9 S7")
    with pytest.raises(RecordError, match=r"line 7: trick 2: card 'SK' after the end of the hand"):
        Record.parse(text)


def test_empty_and_non_text_inputs():
    with pytest.raises(RecordError, match="empty record"):
        parse_records("\n ; only a comment\n")
    with pytest.raises(RecordError, match="expected a string"):
        parse_records(None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="expected one record, found 2"):
        Record.parse(format_records([Record.parse(record_text(*BASE))] * 2))
    with pytest.raises(RecordError, match="cannot read record file"):
        read_records("/nonexistent/x.kpbn")


@pytest.mark.parametrize("data, message", [
    ([], "expected a JSON object"),
    ({"variant": "italian"}, "missing field 'contract'"),
    ({"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N", "x": 1},
     "unknown field 'x'"),
    ({"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N", "play": "SA"},
     "invalid field 'play'"),
    ({"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N",
      "doubles": "no"}, "invalid field 'doubles'"),
    ({"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N",
      "play": ["SA", "H4"]}, r"^trick 1: illegal card 'H4': E must follow suit"),
    ({"variant": "italian", "contract": "trumps", "trump": "S", "deal": DEAL, "leader": "N",
      "dealer": "W", "sale": {"buyer": "E"}}, "invalid field 'sale'"),
])
def test_json_twin_errors(data, message):
    with pytest.raises(RecordError, match=message):
        Record.from_dict(data)


def test_with_play_checks_the_cards():
    r = Record.parse(record_text(*BASE))
    assert r.with_play(["SA", "SK"]).play == (Card("SA"), Card("SK"))
    with pytest.raises(RecordError, match="illegal card 'SQ'"):
        r.with_play(["SA", "SQ"])


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["italian", "italian-wikipedia"]))
def test_domino_records_round_trip(seed, variant):
    # docs/rules.md 9: cards in the order played, passes implied, several to a line.
    from kingsolve.game.domino import DominoPosition
    rng = random.Random(seed)
    pos = DominoPosition(variant, Deal.random(seed=seed), leader=rng.choice(list(Seat)))
    for _ in range(rng.randrange(53)):
        if pos.complete:
            break
        pos.play(rng.choice(pos.legal_cards()))
    record = Record.from_position(pos, dealer=Seat.N, hand=8)
    assert Record.parse(record.text()) == record
    assert Record.from_dict(record.to_dict()) == record
    assert record.position().record == pos.record
    if pos.complete:
        assert record.final_scores() == pos.scores()


def test_domino_record_errors():
    deal = Deal.random(seed=2)
    base = ['[Variant "italian"]', '[Contract "domino"]', '[Leader "N"]', f'[Deal "{deal}"]']
    with pytest.raises(RecordError, match=r"line 4: tag Deal: invalid deal for the domino"):
        Record.parse(record_text(*base[:3], '[Deal "N:A... K... Q... J..."]', '[Play "N"]'))
    with pytest.raises(RecordError, match=r"line 3: the domino takes no trump"):
        Record.parse(record_text(*base[:2], '[Trump "S"]', *base[2:]))
    with pytest.raises(RecordError, match=r"line 6: card 1: illegal card 'SA'"):
        Record.parse(record_text(*base, '[Play "N"]', play="SA"))
