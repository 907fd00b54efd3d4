"""Choices before the play: trump, Italian sale, Portuguese festa, Turkish contract.

Each option's values are checked against a brute-force paranoid search (docs/rules.md 11)
on short deals, and each summary against the rules of its section.
"""

from __future__ import annotations

import json
import random

import pytest

from kingsolve import Deal, Position, Seat, Suit
from kingsolve.hands.choices import (contract_choice, festa_choice, redeal_choice, sale_choice,
                               trump_choice)
from kingsolve.search.analysis import LEGEND
from kingsolve.errors import InvalidRequestError, KingsolveError
from kingsolve.hands.match import ScoreSheetError

from bruteforce import solve as brute_solve
from contracts import small_deal


def deal_of(seed: int, per_seat: int = 3) -> Deal:
    return small_deal(random.Random(seed), per_seat)


def brute_values(variant, contract, deal, leader, trump=None):
    pos = Position(variant, contract, deal, leader=leader, trump=trump)
    return brute_solve(pos).values


@pytest.mark.parametrize("variant, labels", [
    ("italian", ["trump S", "trump H", "trump D", "trump C"]),
    ("italian-wikipedia", ["trump S", "trump H", "trump D", "trump C", "no trump"]),  # docs/rules.md 5
])
def test_trump_choice_values_every_trump_for_every_seat(variant, labels):
    deal = deal_of(1)
    choice = trump_choice(variant, deal, dealer="W", solver=brute_solve, seed=1)
    assert [o.label for o in choice.options] == labels
    assert choice.params["leader"] == "N"  # docs/rules.md 4: the seat after the dealer leads
    for o in choice.options:
        assert o.values == brute_values(variant, "trumps", deal, Seat.N, o.trump)
    for seat in deal.seats:
        top = max(o.values[seat] for o in choice.options)
        assert choice.summary["best"][seat.name] == [o.label for o in choice.options
                                                 if o.values[seat] == top]
    data = json.loads(json.dumps(choice.to_dict()))
    assert data["seed"] == 1 and data["budget"]["nodes"] > 0 and data["kind"] == "trump"
    assert "trump S" in choice.text()


def test_turkish_trumps_and_portuguese_festa_trumps():
    deal = deal_of(2)
    # docs/rules.md 7: the chooser leads and names the trump (counterclockwise play).
    tk = trump_choice("turkish", deal, leader="E", solver=brute_solve)
    assert tk.option("trump D").values == brute_values("turkish", "trumps", deal, Seat.E, Suit.D)
    pt = trump_choice("portuguese", deal, leader="S", solver=brute_solve)
    assert pt.params["contract"] == "festa"
    assert pt.option("trump C").values == brute_values("portuguese", "festa", deal, Seat.S, Suit.C)


def test_trump_choice_errors():
    deal = deal_of(3)
    with pytest.raises(InvalidRequestError, match="takes no trump"):
        trump_choice("russian", Deal.random(seed=1, deck=32), leader="N", contract="no-tricks",
                     solver=brute_solve)
    with pytest.raises(InvalidRequestError, match="give the leader or the dealer"):
        trump_choice("italian", deal, solver=brute_solve)
    with pytest.raises(InvalidRequestError, match="leader E is not the seat after dealer W"):
        trump_choice("italian", deal, leader="E", dealer="W", solver=brute_solve)
    with pytest.raises(InvalidRequestError, match="no option 'trump X'"):
        trump_choice("italian", deal, leader="N", solver=brute_solve).option("trump X")


def test_sale_outcomes_and_the_price_where_buying_stops_paying():
    # docs/rules.md 10: buyer scores tricks - k, dealer tricks + k; without a sale the dealer
    # declares its best trump. The seat after the dealer leads in every case.
    for seed in range(4):
        deal = deal_of(seed)
        choice = sale_choice("italian", deal, dealer="S", solver=brute_solve)
        assert choice.params["leader"] == "W"
        values = {o.label: o.values for o in choice.options}
        declared = choice.summary["dealer_declares"]
        assert values[declared][Seat.S] == max(v[Seat.S] for v in values.values())
        for name, b in choice.summary["buyers"].items():
            buyer = Seat.parse(name)
            named = values[b["trump"]]
            assert named[buyer] == max(v[buyer] for v in values.values())
            for row in b["prices"]:
                k = row["price"]
                assert row["buyer"] == named[buyer] - k
                assert row["dealer"] == named[Seat.S] + k
                assert row["buyer_gains"] == row["buyer"] - values[declared][buyer]
            stop = b["stops_paying"]
            assert all(r["buyer_gains"] > 0 for r in b["prices"][:stop - 1])
            if stop <= deal.tricks:
                assert b["prices"][stop - 1]["buyer_gains"] <= 0
            assert b["highest_paying_price"] == stop - 1
        assert set(choice.summary["buyers"]) == {"N", "E", "W"}
    with pytest.raises(InvalidRequestError, match="variant 'turkish' has no sale"):
        sale_choice("turkish", deal_of(0), dealer="S", solver=brute_solve)


def test_festa_host_options_and_highest_paying_bids():
    # docs/rules.md 6: 433 gives the host 100 and each other 75; bids pay 25 a plus-trick,
    # 75 a null-trick; the bidder chooses the trump (or null) and who leads.
    deal = deal_of(5, per_seat=2)
    choice = festa_choice(deal, host="E", solver=brute_solve, seed="s5")
    assert choice.option("433").values == {Seat.N: 75, Seat.E: 100, Seat.S: 75, Seat.W: 75}
    assert choice.option("null, S leads").values == brute_values("portuguese", "null", deal, Seat.S)
    assert choice.option("trump H, W leads").values == brute_values("portuguese", "festa", deal,
                                                                 Seat.W, Suit.H)
    host_values = choice.summary["host_values"]
    assert set(host_values) == ({"433", "null, S leads"}
                                | {f"trump {t}, {s} leads" for t in "SHDC" for s in "ES"})
    assert choice.summary["host_value"] == max(host_values.values())
    host_best = choice.option(choice.summary["host_best"])
    for name, b in choice.summary["bidders"].items():
        bidder = Seat.parse(name)
        leaders = {bidder, bidder.next()}
        plus = max(o.values[bidder] for o in choice.options
                   if o.contract == "festa" and o.leader in leaders)
        null = max(o.values[bidder] for o in choice.options
                   if o.contract == "null" and o.leader in leaders)
        assert b["plus_value"] == plus and b["null_value"] == null
        base = host_best.values[bidder]
        assert b["without_bid"] == base
        k = b["highest_plus_bid"]
        assert k == 0 or plus - 25 * k > base
        assert k == deal.tricks or plus - 25 * (k + 1) <= base
        n = b["highest_null_bid"]
        assert n == 0 or null - 75 * n > base
        assert n == 3 or null - 75 * (n + 1) <= base
    assert choice.to_dict()["seed"] == "s5"


def test_turkish_contract_choice_under_the_quotas():
    # docs/rules.md 7: each penalty contract twice a match; each seat 3 penalties, 2 trumps.
    deal = deal_of(6)
    choice = contract_choice(deal, "W", chosen=[("N", "no-queens"), ("E", "no-queens"),
                                            ("W", "no-tricks"), ("W", "trumps")],
                         solver=brute_solve)
    labels = [o.label for o in choice.options]
    assert "no-queens" not in labels and "no-tricks" in labels
    assert labels[-4:] == ["trumps S", "trumps H", "trumps D", "trumps C"]
    assert choice.option("no-hearts").values == brute_values("turkish", "no-hearts", deal, Seat.W)
    assert choice.summary["left"] == {"penalties": 2, "trumps": 1}
    top = max(o.values[Seat.W] for o in choice.options)
    assert choice.summary["value"] == top
    only_trumps = contract_choice(deal, "N", chosen=[("N", "no-tricks"), ("N", "no-hearts"),
                                                     ("N", "no-last-two")], solver=brute_solve)
    assert [o.contract for o in only_trumps.options] == ["trumps"] * 4
    done = [("S", "no-tricks"), ("S", "no-hearts"), ("S", "no-queens"), ("S", "trumps"),
            ("S", "trumps")]
    with pytest.raises(InvalidRequestError, match="S has no contract left"):
        contract_choice(deal, "S", chosen=done, solver=brute_solve)
    with pytest.raises(ScoreSheetError, match=r"hand 3: 'no-queens' is played a 3rd time"):
        contract_choice(deal, "S", chosen=[("N", "no-queens")] * 3, solver=brute_solve)
    with pytest.raises(ScoreSheetError, match=r"hand 4: N chooses a 4th penalty"):
        contract_choice(deal, "S", chosen=[("N", "no-queens"), ("N", "no-hearts"),
                                           ("N", "no-tricks"), ("N", "no-last-two")],
                        solver=brute_solve)
    with pytest.raises(ScoreSheetError, match=r"hand 3: W chooses 'trumps' a 3rd time"):
        contract_choice(deal, "S", chosen=[("W", "trumps")] * 3, solver=brute_solve)
    with pytest.raises(KingsolveError, match="unknown contract 'no-men'"):
        contract_choice(deal, "S", chosen=[("W", "no-men")], solver=brute_solve)
    with pytest.raises(InvalidRequestError, match=r"invalid chosen\[0\]"):
        contract_choice(deal, "S", chosen=["no-men"], solver=brute_solve)


def test_redeal_property():
    # docs/rules.md 4: four or more aces and kings may ask for a redeal (five the next time).
    deal = Deal("N:AK.AK.Q2.J2 QJ.QJ.AK.T9 T9.T9.JT.AK 87.87.98.Q8")
    choice = redeal_choice(deal)
    assert choice.summary["may_redeal"] == ["N"]
    assert choice.summary["seats"]["E"]["total"] == 2
    assert redeal_choice(deal, threshold=5).summary["may_redeal"] == []
    with pytest.raises(InvalidRequestError, match="invalid threshold 0"):
        redeal_choice(deal, threshold=0)


def test_the_library_solver_gives_the_same_choices():
    # kingsolve.solve against the brute force, on the sale and the festa.
    deal = deal_of(7)
    for run in (lambda s: sale_choice("italian", deal, "N", solver=s),
                lambda s: festa_choice(deal_of(8, per_seat=2), "W", solver=s)):
        fast, slow = run(None), run(brute_solve)
        assert [o.to_dict() for o in fast.options] == [o.to_dict() for o in slow.options]
        assert fast.summary == slow.summary
        assert fast.nodes > 0 and fast.to_dict()["budget"] == {"nodes": 200_000_000,
                                                               "ms": 60_000.0, "tt_mb": 64}


# --- within a budget: estimates inside proved ranges, never a failure ---------------------

@pytest.mark.parametrize("nodes", [50, 400, 3000])
def test_a_budgeted_choice_ranks_every_option_inside_bounds_holding_the_exact_values(nodes):
    # docs/rules.md 11: each option's proved range holds the exact value (the library's
    # exact search, itself checked against the brute force above), its estimate lies
    # in the range, and the budget is the whole choice's
    from kingsolve.search.budget import Budget
    from kingsolve.search.solver import solve
    deal = deal_of(5, per_seat=6)
    choice = trump_choice("italian", deal, leader="E", budget=Budget(nodes=nodes))
    exact = {o.label: solve(Position("italian", "trumps", deal, leader="E", trump=o.trump),
                            cards=False).values for o in choice.options}
    for o in choice.options:
        for seat, (lo, hi) in o.bounds.items():
            assert lo <= exact[o.label][seat] <= hi, (nodes, o.label, seat)
            assert lo <= o.rating(seat) <= hi
            if seat in o.values:
                assert o.values[seat] == exact[o.label][seat]
    for seat in deal.seats:
        ranking = choice.summary["ranking"][seat.name]
        ratings = [choice.option(label).rating(seat) for label in ranking]
        assert ratings == sorted(ratings, reverse=True)
        if choice.summary["proved_best"][seat.name]:
            # some best option by rating is an exact best option
            top = max(exact[o.label][seat] for o in choice.options)
            assert any(exact[label][seat] == top for label in choice.summary["best"][seat.name])


def test_a_full_deal_choice_answers_within_its_budget_and_exact_names_the_option():
    from kingsolve.errors import SolveTimeout
    from kingsolve.search.budget import Budget
    deal = Deal.random(5)
    choice = trump_choice("italian", deal, leader="N", budget=Budget(ms=800))
    assert choice.ms < 800 + 1500 and not choice.summary["exact"]
    for o in choice.options:
        assert set(o.estimates) == set(deal.seats)
        assert all(lo <= o.estimates[s] <= hi for s, (lo, hi) in o.bounds.items())
    text = choice.text()
    assert "≈" in text and "proved range" in text
    rows = [line for line in text.splitlines() if line.startswith("  trump ")]
    for line, o in zip(rows, choice.options):
        assert [p.strip() for p in line[len(o.label) + 2:].split("  ") if p.strip()] == \
            [o.cell(s) for s in deal.seats]
    with pytest.raises(SolveTimeout, match=r"option 'trump S' stopped: not proved within the budget of 2000 nodes"):
        trump_choice("italian", deal, leader="N", budget=Budget(nodes=2000), exact=True)


def test_cli_choices_prints_every_option_on_a_small_budget(capsys):
    from kingsolve_cli import main
    argv = ["choices", "trump", "--variant", "italian", "--seed", "5", "--leader", "N"]
    assert main([*argv, "--ms", "600"]) == 0
    out = capsys.readouterr().out
    assert all(f"trump {s}" in out for s in "SHDC") and "≈" in out
    assert "values exact; the others are estimates inside proved ranges" in out
    assert main([*argv, "--ms", "600", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(set(o) >= {"values", "bounds", "estimates", "solved"} for o in data["options"])
    assert main([*argv, "--nodes", "1000", "--exact"]) != 0
    assert "option 'trump S' stopped" in capsys.readouterr().err


def _no_python(text: str) -> None:
    for literal in ("[", "]", "{", "}", "True", "False", "None", "'"):
        assert literal not in text, (literal, text)


def test_every_choice_reads_as_tables_and_words():
    deal = deal_of(3)
    trump = trump_choice("italian", deal, leader="N", solver=brute_solve).text()
    _no_python(trump)
    lines = trump.splitlines()
    head = lines.index(next(x for x in lines if x.startswith("seat ")))
    assert lines[head].split("  ")[0] == "seat" and "proved best" in lines[head]
    best = trump_choice("italian", deal, leader="N", solver=brute_solve).summary["best"]
    for seat, line in zip(deal.seats, lines[head + 1:head + 5]):
        assert line.startswith(f"{seat.name} ") and ", ".join(best[seat.name]) in line
        assert line.split()[-1] != "False"
    assert lines[-1] == "every value exact: the choice is proved"
    assert "proved range" not in trump         # no legend when every value is exact

    sale = sale_choice("italian", deal, dealer="S", solver=brute_solve).text()
    _no_python(sale)
    assert "without a sale S declares trump " in sale and "highest price that pays" in sale
    festa = festa_choice(deal_of(5, per_seat=2), host="E", solver=brute_solve).text()
    _no_python(festa)
    assert "host E: best " in festa and "highest plus bid" in festa
    contract = contract_choice(deal_of(6), "W", chosen=[("W", "no-tricks")],
                               solver=brute_solve).text()
    _no_python(contract)
    assert "best for W: " in contract and "left to choose: 2 penalty contracts, 2 trumps" \
        in contract
    redeal = redeal_choice(Deal("N:AK.AK.Q2.J2 QJ.QJ.AK.T9 T9.T9.JT.AK 87.87.98.Q8")).text()
    _no_python(redeal)
    assert "N     2     2      4      yes" in redeal and "N may ask for one" in redeal


def test_a_choice_by_estimate_marks_its_values_as_a_table_does(capsys):
    from kingsolve_cli import main
    assert main(["choices", "trump", "--variant", "italian", "--seed", "5", "--leader", "N",
                 "--ms", "600"]) == 0
    out = capsys.readouterr().out
    _no_python(out.replace("Seed: 5", ""))
    assert [line.strip() for line in out.splitlines() if line.startswith("  -3 exact")] == [LEGEND]
    # the cells are the table's: unsigned, ≈ for an estimate, lo..hi for a range
    assert "+" not in out and "≈" in out and ".." in out


def test_house_rules_keep_their_base_choices_under_their_own_rules():
    # A document based on a built-in, under a name of its own, keeps the base's sale,
    # festa and chooser (docs/rules.md 13) and plays each option under its own rules.
    from kingsolve import rules_from_dict
    festa_house = rules_from_dict({"base": "portuguese", "name": "club",
                                   "contracts": {"festa": {"each_trick": 10}}})
    deal = deal_of(5, per_seat=2)
    choice = festa_choice(deal, host="E", solver=brute_solve, variant=festa_house)
    own = brute_values(festa_house, "festa", deal, Seat.W, Suit.H)
    assert choice.option("trump H, W leads").values == own
    assert own != brute_values("portuguese", "festa", deal, Seat.W, Suit.H)
    chooser_house = rules_from_dict({"base": "turkish", "name": "club",
                                     "contracts": {"no-tricks": {"each_trick": -7}}})
    deal = deal_of(6)
    choice = contract_choice(deal, "W", solver=brute_solve, variant=chooser_house)
    own = brute_values(chooser_house, "no-tricks", deal, Seat.W)
    assert choice.option("no-tricks").values == own
    assert own != brute_values("turkish", "no-tricks", deal, Seat.W)
    sale_house = rules_from_dict({"base": "italian", "name": "club",
                                  "contracts": {"trumps": {"each_trick": 2}}})
    sold = sale_choice(sale_house, deal, dealer="S", solver=brute_solve)
    assert sold.option("trump S").values == brute_values(sale_house, "trumps", deal, Seat.W, Suit.S)


@pytest.mark.parametrize("run, message", [
    (lambda: festa_choice(deal_of(5, per_seat=2), "E", variant={"base": "portuguese", "contracts": {"null": None}}),
     "variant 'portuguese' has no festa (docs/rules.md 6): it has no contract 'null'"),
    (lambda: festa_choice(deal_of(5, per_seat=2), "E", variant="italian"),
     "variant 'italian' has no festa (docs/rules.md 6): it has no contract 'festa'"),
    (lambda: contract_choice(deal_of(6), "W", variant={"base": "turkish", "quotas": None}),
     "variant 'turkish' has no Turkish chooser (docs/rules.md 7): it has no quotas"),
    (lambda: contract_choice(deal_of(6), "W", variant={"base": "turkish", "name": "club", "schedule": [],
                                                      "contracts": {"no-queens": None}}),
     "variant 'club' has no Turkish chooser (docs/rules.md 7): it has no contract 'no-queens'"),
    (lambda: sale_choice({"base": "italian", "first_dealer": None}, deal_of(6), dealer="S"),
     "variant 'italian' has no sale (docs/rules.md 10): it has no dealer to declare the trump"),
    (lambda: sale_choice({"base": "italian", "contracts": {"trumps": {"trump": "none", "trump_obligation": None}}},
                         deal_of(6), dealer="S"),
     "variant 'italian' has no sale (docs/rules.md 10): its contract 'trumps' takes no trump"),
])
def test_a_rule_set_without_the_procedure_of_a_choice_is_refused_in_one_line(run, message):
    with pytest.raises(InvalidRequestError) as err:
        run()
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_the_api_takes_house_rules_for_every_kind_of_choice(client):
    festa_house = {"base": "portuguese", "name": "club", "contracts": {"festa": {"each_trick": 10}}}
    deal = deal_of(5, per_seat=2).pbn()
    resp = client.post("/api/v1/choices", json={"kind": "festa", "variant": festa_house, "deal": deal,
                                                 "host": "E", "ms": 2000})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["variant"] == "club"
    trump_h = next(o for o in body["options"] if o["label"] == "trump H, W leads")
    from kingsolve import rules_from_dict
    exact = brute_values(rules_from_dict(festa_house), "festa", Deal(deal), Seat.W, Suit.H)
    assert all(trump_h["bounds"][s.name][0] <= v <= trump_h["bounds"][s.name][1] for s, v in exact.items())
    bad = client.post("/api/v1/choices", json={"kind": "festa", "variant": "russian", "deal": deal, "host": "E"})
    assert bad.status_code == 400
    assert bad.get_json()["message"].startswith("choices festa: variant 'russian' has no festa")
    hint = client.post("/api/v1/hint", json={"choice": "festa", "variant": festa_house, "seat": "E",
                                              "hand": "AKQJ.T98.765.432", "samples": 2, "ms": 2000})
    assert hint.status_code == 200, hint.get_json()
    no_festa = client.post("/api/v1/hint", json={"choice": "festa", "variant": "italian", "seat": "E",
                                                  "hand": "AKQJ.T98.765.432", "samples": 2})
    assert no_festa.status_code == 400 and "has no festa" in no_festa.get_json()["message"]
