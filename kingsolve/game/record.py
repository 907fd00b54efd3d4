"""Game records: one played hand of King in PBN style, its JSON twin, match files.

A record is a block of tag lines followed by a ``[Play "N"]`` section::

    [Event "club night"]
    [Hand "2"]
    [Variant "italian"]
    [Contract "no-queens"]
    [Dealer "W"]
    [Leader "N"]
    [Doubles "false"]
    [Deal "N:AQ74.K93.J82.T65 KJ2.QT754.A3.K84 T98.AJ86.KQ95.A2 653.2.T764.QJ973"]
    [Play "N"]
    SA S2 S8 S3
    ...

In a trick contract each play line is one trick, its cards in play order from the
trick's leader (the last line may be short when the record stops mid-trick). In the
domino the cards are listed in the order played, passes implied, several to a line.
``[Play]`` names the seat that moves first (the same as ``[Leader]``).

A match file holds several records separated by blank lines. Lines starting with
``;`` or ``%`` are comments. Every problem raises ``RecordError`` (a ``ParseError``)
naming the line: an unknown tag, a bad deal, an illegal card (with the trick and the
rule, as the play engine states it).

Optional tags: ``Event``, ``Site``, ``Date``, ``Hand`` (its number in the match),
``Seed`` (what the deal was made from), ``Sale`` (Italian sale, docs/rules.md 10:
``"E 2"``, buyer and price in tricks), ``Bid`` (Portuguese festa, docs/rules.md 6: the
standing bid, ``"E 3"`` plus-tricks or ``"E 2 null"``), ``Festa`` (how the festa was
settled: ``accepted``, the default with a ``Bid``, the bidder pays it; ``refused``,
*8 or null* refused at 6 or 7 plus-tricks, the host plays ``null`` and nobody pays;
``host``, no bid accepted and the host plays; ``433``, no bid accepted and no play,
the host scores 100 and each other seat 75, a record with no ``Trump`` and no play)
and ``Score`` (the final scores, ``"N -3 E 0 S -6 W -3"``, needed when the play is
not recorded to the end; checked against the play when it is).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, TypeVar

from .cards import Card, Seat, Suit
from ..checks import check_fields, is_int
from .deal import Deal
from ..errors import KingsolveError, ParseError, excerpt
from .numbers import JSON_SAFE_INT
from .rule_documents import rules_from_json
from .rules import TRUMP_NONE, VARIANTS, Contract, RuleSet, get_variant

if TYPE_CHECKING:
    from .domino import DominoPosition
    from .position import Position

_Parsed = TypeVar("_Parsed")
#: A record's tags by name: each tag's text and the line it came from.
_TagLines = Mapping[str, tuple[str, int]]
#: The ``Score`` tag read: each seat in play and its points.
_Score = tuple[tuple[Seat, int], ...]

__all__ = ["Record", "RecordError", "parse_records", "format_records", "read_records",
           "TAGS"]

#: The tags a record may carry, in the order ``Record.text()`` writes them.
TAGS = ("Event", "Site", "Date", "Hand", "Variant", "Rules", "Contract", "Trump", "Options", "Dealer",
        "Leader", "Doubles", "Seed", "Sale", "Bid", "Festa", "Score", "Deal", "Play")

#: How a Portuguese festa was settled (docs/rules.md 6), as the ``Festa`` tag names it.
FESTA_OUTCOMES = ("accepted", "refused", "host", "433")

#: How many domino cards ``Record.text()`` writes to a line.
DOMINO_CARDS_PER_LINE = 8

_TAG_LINE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NO_TRUMP = {"", "-", "NT", "N/A", "NONE"}


class RecordError(ParseError):
    """A game record that cannot be read; ``line`` is the 1-based line of the problem."""

    code = "record"

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass(frozen=True)
class Record:
    """One hand of King as played: the rules, the deal, the cards played and the tags.

    >>> r = Record("italian", "no-queens", Deal("N:AK... QJ... T9... 87..."), Seat.N,
    ...            play=["SA", "SQ", "ST", "S8"])
    >>> Record.parse(r.text()) == r
    True
    """

    variant: str
    contract: str
    deal: Deal
    leader: Seat
    trump: Suit | None = None
    options: tuple[str, ...] = ()
    dealer: Seat | None = None
    doubles: bool = False
    play: tuple[Card, ...] = ()
    event: str | None = None
    site: str | None = None
    date: str | None = None
    hand: int | None = None
    seed: str | None = None
    sale: tuple[Seat, int] | None = None
    bid: tuple[Seat, int, str] | None = None
    festa: str | None = None
    score: tuple[tuple[Seat, int], ...] | None = None
    house_rules: str | None = None     # a rule document's JSON text (tag Rules), else None

    def __post_init__(self) -> None:
        # Normalise loose inputs so equal records compare equal.
        object.__setattr__(self, "leader", Seat.parse(self.leader))
        if self.dealer is not None:
            object.__setattr__(self, "dealer", Seat.parse(self.dealer))
        if self.trump is not None:
            object.__setattr__(self, "trump", Suit.parse(self.trump))
        loose: Any = self.deal      # PBN text too, like the other fields' loose forms
        if not isinstance(loose, Deal):
            object.__setattr__(self, "deal", Deal(loose))
        object.__setattr__(self, "options", tuple(self.options))
        object.__setattr__(self, "play", tuple(Card.parse(c) for c in self.play))

    # --- rules -----------------------------------------------------------------------
    @property
    def rules(self) -> RuleSet:
        """The rule set the record names, or embeds as a rule document (tag ``Rules``)."""
        if self.house_rules is not None:
            return rules_from_json(self.house_rules)
        return get_variant(self.variant)

    @property
    def is_domino(self) -> bool:
        """Whether the hand is the domino (docs/rules.md section 9)."""
        return self.rules.contract(self.contract).kind == "domino"

    @property
    def is_played(self) -> bool:
        """False only for a festa settled ``433`` (docs/rules.md 6): no trump, no play."""
        return self.festa != "433"

    def position(self, cards: int | None = None) -> Position | DominoPosition:
        """The play engine's position after the first ``cards`` cards (all by default).

        A ``Position`` for a trick contract, a ``DominoPosition`` for the domino.
        ``RecordError`` for a festa settled ``433``, which is not played.
        """
        if not self.is_played:
            raise RecordError("a festa settled 433 is not played: it has no position")
        from .play import new_position
        return new_position(self.rules, self.contract, self.deal, leader=self.leader,
                            trump=self.trump, doubles=self.doubles, options=self.options,
                            play=self.play if cards is None else self.play[:cards])

    def tricks(self) -> list[tuple[Card, ...]]:
        """The play split as the text writes it: one trick a line (domino: fixed lines)."""
        if self.is_domino:
            per = DOMINO_CARDS_PER_LINE
        else:
            per = self.deal.players
        return [self.play[i:i + per] for i in range(0, len(self.play), per)]

    def adjustments(self) -> dict[Seat, int]:
        """Points moved by a sale (docs/rules.md 10) or a festa settlement (docs/rules.md 6): an
        accepted bid paid to the host, or ``433``'s 100 to the host and 75 to the others."""
        out = {s: 0 for s in self.deal.seats}
        if self.festa == "433" and self.dealer is not None:
            return {s: 100 if s == self.dealer else 75 for s in self.deal.seats}
        if self.sale is not None and self.dealer is not None:
            buyer, price = self.sale
            per_trick = self.rules.contract(self.contract).each_trick
            out[buyer] -= price * per_trick
            out[self.dealer] += price * per_trick
        if self.bid is not None and self.dealer is not None and self.festa != "refused":
            bidder, count, kind = self.bid
            points = count * (75 if kind == "null" else 25)
            out[bidder] -= points
            out[self.dealer] += points
        return out

    def final_scores(self) -> dict[Seat, Any] | None:
        """The hand's final scores: from the play when complete, else the ``Score`` tag.

        Sale and bid payments are included. ``None`` when neither is known.
        """
        if self.score is not None:
            return dict(self.score)
        return self._played_scores()

    def _played_scores(self) -> dict[Seat, Any] | None:
        if not self.is_played:
            return self.adjustments()
        pos = self.position()
        if not pos.complete:
            return None
        adj = self.adjustments()
        return {s: v + adj.get(s, 0) for s, v in pos.scores().items()}

    # --- text ------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> "Record":
        """Read exactly one record; ``RecordError`` naming the line on any problem."""
        records = parse_records(text)
        if len(records) != 1:
            raise RecordError(f"expected one record, found {len(records)}")
        return records[0]

    def tags(self) -> list[tuple[str, str]]:
        """The record's tag pairs, in the order the text writes them (``Play`` last)."""
        out: list[tuple[str, str]] = []
        for name, value in (("Event", self.event), ("Site", self.site), ("Date", self.date),
                            ("Hand", None if self.hand is None else str(self.hand))):
            if value is not None:
                out.append((name, value))
        out.append(("Variant", self.variant))
        if self.house_rules is not None:
            out.append(("Rules", self.house_rules))
        out.append(("Contract", self.contract))
        if self.is_played and (self.trump is not None
                               or self.rules.contract(self.contract).trump != TRUMP_NONE):
            out.append(("Trump", "-" if self.trump is None else self.trump.letter))
        if self.options:
            out.append(("Options", " ".join(self.options)))
        if self.dealer is not None:
            out.append(("Dealer", self.dealer.name))
        out.append(("Leader", self.leader.name))
        out.append(("Doubles", "true" if self.doubles else "false"))
        if self.seed is not None:
            out.append(("Seed", self.seed))
        if self.sale is not None:
            out.append(("Sale", f"{self.sale[0].name} {self.sale[1]}"))
        if self.bid is not None:
            seat, count, kind = self.bid
            out.append(("Bid", f"{seat.name} {count}" + (" null" if kind == "null" else "")))
        if self.festa is not None:
            out.append(("Festa", self.festa))
        if self.score is not None:
            out.append(("Score", " ".join(f"{s.name} {v}" for s, v in self.score)))
        out.append(("Deal", self.deal.pbn()))
        return out

    def text(self) -> str:
        """The record as PBN-style text, ending with a newline; ``parse`` reads it back."""
        lines = [f'[{name} "{_escape(value)}"]' for name, value in self.tags()]
        if self.is_played:
            lines.append(f'[Play "{self.leader.name}"]')
        for trick in self.tricks():
            lines.append(" ".join(str(c) for c in trick))
        return "\n".join(lines) + "\n"

    # --- JSON ------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The JSON twin: the shared request fields plus the record's tags.

        Without the tags it is a valid request for ``solve_request`` (the whole play).
        """
        out: dict[str, Any] = {
            "variant": self.variant if self.house_rules is None else json.loads(self.house_rules),
            "contract": self.contract,
            "trump": None if self.trump is None else self.trump.letter,
            "options": list(self.options), "doubles": self.doubles,
            "deal": self.deal.pbn(), "leader": self.leader.name,
            "play": [str(c) for c in self.play],
            "dealer": None if self.dealer is None else self.dealer.name,
        }
        for name in ("event", "site", "date", "hand", "seed"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.sale is not None:
            out["sale"] = {"buyer": self.sale[0].name, "price": self.sale[1]}
        if self.bid is not None:
            out["bid"] = {"bidder": self.bid[0].name, "tricks": self.bid[1], "kind": self.bid[2]}
        if self.festa is not None:
            out["festa"] = self.festa
        if self.score is not None:
            out["score"] = {s.name: v for s, v in self.score}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Record":
        """Read the JSON twin; ``RecordError`` naming the field on any problem."""
        check_fields(data, _JSON_FIELDS, "record", kind="record", error=RecordError)
        tags = {**_json_text_tags(data), **_json_flag_tags(data), **_json_payment_tags(data)}
        if "Leader" not in tags and "Dealer" not in tags:
            tags["Leader"] = ("N", 0)           # as in a request: N leads unless told
        play = data.get("play") or []
        if not isinstance(play, list) or not all(isinstance(c, str) for c in play):
            raise RecordError(f"invalid field 'play': expected a list of cards, got {excerpt(play)}")
        try:
            return _build(tags, [(0, play)] if play else [], None, 0, from_json=True)
        except RecordError as exc:
            raise RecordError(re.sub(r"^line 0: ", "", str(exc))) from None

    @classmethod
    def from_position(cls, position: Position | DominoPosition, **tags: Any) -> "Record":
        """The record of a position's play so far (``Position`` or ``DominoPosition``)."""
        contract = position.contract.name
        rules = position.variant
        if rules != VARIANTS.get(rules.name):
            tags.setdefault("house_rules", compact_json(rules.to_dict()))
        return cls(rules.name, contract, position.deal, position.leader,
                   trump=getattr(position, "trump", None),
                   options=tuple(getattr(position, "options", ()) or ()),
                   doubles=bool(getattr(position, "doubles", False)),
                   play=tuple(position.record), **tags)

    def with_play(self, play: Iterable["Card | str"]) -> "Record":
        """The same record with another play (checked by ``validate``)."""
        out = replace(self, play=tuple(Card.parse(c) for c in play))
        out.validate()
        return out

    def validate(self) -> None:
        """Check the record against the rules: raises ``RecordError`` on a problem."""
        Record.from_dict(self.to_dict())

    def __str__(self) -> str:
        return self.text()


# --- reading -----------------------------------------------------------------------------
def compact_json(document: Any) -> str:
    """A rule document as the one-line JSON text of the tag ``Rules``."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def parse_records(text: str) -> list[Record]:
    """Read every record of a match file (records separated by blank lines)."""
    if not isinstance(text, str):
        raise RecordError(f"invalid record text: expected a string, got {type(text).__name__}")
    records = []
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith((";", "%")):
            continue
        if not line:
            if block:
                records.append(_parse_block(block))
                block = []
            continue
        block.append((number, line))
    if block:
        records.append(_parse_block(block))
    if not records:
        raise RecordError("empty record: expected tag lines such as [Variant \"italian\"]")
    return records


def read_records(path: str) -> list[Record]:
    """Read a match file from disk."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise RecordError(f"cannot read record file {path!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"cannot read record file {path!r}: not UTF-8 text") from None
    return parse_records(text)


def format_records(records: Sequence[Record]) -> str:
    """A match file: the records' texts separated by blank lines."""
    return "\n".join(r.text() for r in records)


def _parse_block(block: list[tuple[int, str]]) -> Record:
    tags: dict[str, tuple[str, int]] = {}
    play_lines: list[tuple[int, list[str]]] = []
    play_line_no: int | None = None
    for number, line in block:
        if line.startswith("["):
            if play_line_no is not None and play_lines:
                raise RecordError(f"tag line {excerpt(line, 80)} after the play: start a new record "
                                  f"after a blank line", number)
            m = _TAG_LINE.match(line)
            if not m:
                raise RecordError(f"invalid tag line {excerpt(line, 80)}: expected [Name \"value\"]", number)
            name, value = m.group(1), _unescape(m.group(2))
            canonical = next((t for t in TAGS if t.lower() == name.lower()), None)
            if canonical is None:
                raise RecordError(f"unknown tag {excerpt(name)}: expected one of {', '.join(TAGS)}",
                                  number)
            if canonical in tags:
                raise RecordError(f"duplicate tag {excerpt(canonical)} (first on line "
                                  f"{tags[canonical][1]})", number)
            tags[canonical] = (value.strip(), number)
            if canonical == "Play":
                play_line_no = number
            continue
        if play_line_no is None:
            raise RecordError(f"cards {excerpt(line, 80)} outside a play section: put [Play \"seat\"] "
                              f"before them", number)
        play_lines.append((number, line.replace(",", " ").split()))
    return _build(tags, play_lines, play_line_no, block[0][0])


# --- the JSON twin read as tags (line 0: the messages name the field instead) ---------
_JSON_FIELDS = {"variant", "contract", "trump", "options", "doubles", "deal", "leader", "play",
                "dealer", "event", "site", "date", "hand", "seed", "sale", "bid", "festa",
                "score"}


def _json_text_tags(data: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """The fields whose tag is their text: the required ones and the optional ones."""
    tags: dict[str, tuple[str, int]] = {}
    if isinstance(data.get("variant"), Mapping):      # a rule document: the tag Rules
        tags["Rules"] = (compact_json(data["variant"]), 0)
        data = {k: v for k, v in data.items() if k != "variant"}
    fields = [("variant", "Variant", "Rules" not in tags), ("contract", "Contract", True),
              ("deal", "Deal", True),
              ("leader", "Leader", False)]
    fields += [(key, tag, False) for key, tag in (
        ("trump", "Trump"), ("dealer", "Dealer"), ("event", "Event"), ("site", "Site"),
        ("date", "Date"), ("hand", "Hand"), ("seed", "Seed"), ("festa", "Festa"))]
    for key, tag, required in fields:
        value = data.get(key)
        if value is None:
            if required:
                raise RecordError(f"missing field {excerpt(key)} in record")
            continue
        if not (isinstance(value, str) or is_int(value)):
            raise RecordError(f"invalid field {excerpt(key)}: expected text, got {excerpt(value)}")
        tags[tag] = (str(value), 0)
    return tags


def _json_flag_tags(data: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """The ``doubles`` and ``options`` fields as tags."""
    tags: dict[str, tuple[str, int]] = {}
    if "doubles" in data and data["doubles"] is not None:
        if not isinstance(data["doubles"], bool):
            raise RecordError(f"invalid field 'doubles': expected true or false, "
                              f"got {excerpt(data['doubles'])}")
        tags["Doubles"] = ("true" if data["doubles"] else "false", 0)
    options = data.get("options") or []
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise RecordError(f"invalid field 'options': expected a list of names, got {excerpt(options)}")
    if options:
        tags["Options"] = (" ".join(options), 0)
    return tags


def _json_payment_tags(data: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """The ``sale``, ``bid`` and ``score`` objects as their tags' text."""
    tags: dict[str, tuple[str, int]] = {}
    sale = data.get("sale")
    if sale is not None:
        if not isinstance(sale, Mapping) or set(sale) != {"buyer", "price"}:
            raise RecordError(f"invalid field 'sale': expected {{\"buyer\": seat, \"price\": "
                              f"tricks}}, got {excerpt(sale)}")
        tags["Sale"] = (f"{sale['buyer']} {sale['price']}", 0)
    bid = data.get("bid")
    if bid is not None:
        if not isinstance(bid, Mapping) or not {"bidder", "tricks"} <= set(bid) \
                or not set(bid) <= {"bidder", "tricks", "kind"}:
            raise RecordError(f"invalid field 'bid': expected {{\"bidder\": seat, \"tricks\": "
                              f"n, \"kind\": \"plus\" or \"null\"}}, got {excerpt(bid)}")
        tags["Bid"] = (f"{bid['bidder']} {bid['tricks']} {bid.get('kind', 'plus')}", 0)
    score = data.get("score")
    if score is not None:
        if not isinstance(score, Mapping):
            raise RecordError(f"invalid field 'score': expected an object of seat to points, "
                              f"got {excerpt(score)}")
        tags["Score"] = (" ".join(f"{k} {v}" for k, v in score.items()), 0)
    return tags


class _Tags:
    """A record's tags, by name, with the line each came from for the error messages."""

    def __init__(self, tags: dict[str, tuple[str, int]], first_line: int) -> None:
        self.tags = tags
        self.first_line = first_line

    def __contains__(self, tag: str) -> bool:
        return tag in self.tags

    def value(self, tag: str) -> str | None:
        return self.tags[tag][0] if tag in self.tags else None

    def text(self, tag: str) -> str:
        """The text of a tag the record is known to hold."""
        return self.tags[tag][0]

    def line_of(self, tag: str) -> int:
        return self.tags[tag][1] if tag in self.tags else self.first_line

    def error(self, tag: str, exc: KingsolveError) -> RecordError:
        return RecordError(f"tag {tag}: {exc}", self.line_of(tag))

    def required(self, tag: str, parse: Callable[[str], _Parsed]) -> _Parsed:
        if tag not in self.tags:
            raise RecordError(f"missing tag {excerpt(tag)} in the record starting here",
                              self.first_line)
        try:
            return parse(self.tags[tag][0])
        except KingsolveError as exc:
            raise self.error(tag, exc) from None

    def seat(self, tag: str) -> Seat | None:
        if tag not in self.tags:
            return None
        return _tag_seat(tag, self.tags[tag][0], self.line_of(tag))


def _tag_seat(tag: str, text: str, line: int) -> Seat:
    """The seat ``text`` names in the tag ``tag``, else ``RecordError`` naming the tag."""
    try:
        return Seat.parse(text)
    except ParseError as exc:
        raise RecordError(f"tag {tag}: {exc}", line) from None


def _build(tags: dict[str, tuple[str, int]], play_lines: list[tuple[int, list[str]]],
           play_line_no: int | None, first_line: int, from_json: bool = False) -> Record:
    """Check tags and play against the rules and make the record."""
    t = _Tags(tags, first_line)
    variant, house_rules = _variant_tags(t)
    contract, options = _contract_tags(t, variant)
    deal = t.required("Deal", Deal)
    dealer = t.seat("Dealer")
    leader = _leader_tags(t, variant, contract, deal, dealer, from_json)
    doubles = _doubles_tag(t)
    trump = _trump_tag(t)
    hand = _int_tag(tags, "Hand", minimum=1)
    sale = _sale_tag(tags, variant, contract.name, dealer)
    festa = _festa_tag(tags, variant, contract.name, dealer)
    bid = _bid_tag(tags, variant, contract.name, dealer, festa)
    score = _score_tag(tags, deal)
    if festa == "433":
        return _unplayed_433(tags, variant.name, contract.name, deal, leader, dealer, doubles,
                             trump, options, play_lines, hand, score, t.line_of, house_rules)
    position = _start_position(t, variant, contract, deal, leader, trump, doubles)
    play = _play(position, contract.kind, play_lines, from_json)
    record = Record(variant.name, contract.name, deal, leader, trump=trump, options=options,
                    dealer=dealer, doubles=doubles, play=tuple(play),
                    event=t.value("Event"), site=t.value("Site"), date=t.value("Date"),
                    hand=hand, seed=t.value("Seed"), sale=sale, bid=bid, festa=festa,
                    score=score, house_rules=house_rules)
    if score is not None and position.complete:
        _check_score(t, record, score)
    return record


def _variant_tags(t: _Tags) -> tuple[RuleSet, str | None]:
    """The rule set of the tags ``Variant`` and ``Rules`` (a rule document, whose name
    ``Variant`` repeats when given), and the document's one-line text."""
    if "Rules" not in t:
        return t.required("Variant", get_variant), None
    rules = t.required("Rules", rules_from_json)
    named = t.value("Variant")
    if named is not None and named != rules.name:
        raise RecordError(f"tag Variant: {excerpt(named)} is not the name of the tag Rules' "
                          f"rule set, {rules.name!r}", t.line_of("Variant"))
    return rules, compact_json(json.loads(t.text("Rules")))


def _contract_tags(t: _Tags, variant: RuleSet) -> tuple[Contract, tuple[str, ...]]:
    """The contract, with its ``Options`` applied, and the options' names."""
    contract = t.required("Contract", variant.contract)
    options: tuple[str, ...] = ()
    if "Options" in t and t.text("Options") not in ("", "-"):
        options = tuple(t.text("Options").split())
        try:
            contract = contract.with_options(options)
        except KingsolveError as exc:
            raise t.error("Options", exc) from None
    return contract, options


def _leader_tags(t: _Tags, variant: RuleSet, contract: Contract, deal: Deal, dealer: Seat | None,
                 from_json: bool) -> Seat:
    """The leader: ``Leader``, else ``Play``, else the seat after the dealer (tricks only)."""
    leader = t.seat("Leader")
    play_seat = t.seat("Play")
    if leader is None:
        leader = play_seat
    if leader is None and dealer is not None and contract.kind == "tricks":
        leader = variant.next_seat(dealer, deal.seats)
    if leader is None:
        if from_json:
            raise RecordError(f"missing field 'leader' in record: the {contract.name} takes no "
                              f"leader from the dealer")
        raise RecordError("missing tag 'Leader' in the record starting here", t.first_line)
    if play_seat is not None and play_seat != leader:
        raise RecordError(f"tag Play names {play_seat.name} but the leader is {leader.name}: "
                          f"[Play] names the seat that moves first", t.line_of("Play"))
    return leader


def _doubles_tag(t: _Tags) -> bool:
    if "Doubles" not in t:
        return False
    value = t.text("Doubles").lower()
    if value not in ("true", "false", "yes", "no", "1", "0"):
        raise RecordError(f"tag Doubles: invalid value {excerpt(t.value('Doubles'))}: expected "
                          f"true or false", t.line_of("Doubles"))
    return value in ("true", "yes", "1")


def _trump_tag(t: _Tags) -> Suit | None:
    if "Trump" not in t or t.text("Trump").upper() in _NO_TRUMP:
        return None
    try:
        return Suit.parse(t.text("Trump"))
    except ParseError as exc:
        raise t.error("Trump", exc) from None


#: The tag that holds each field of a position.
_FIELD_TAGS = {"trump": "Trump", "doubles": "Doubles", "deal": "Deal", "leader": "Leader"}


def _start_position(t: _Tags, variant: RuleSet, contract: Contract, deal: Deal, leader: Seat,
                    trump: Suit | None, doubles: bool) -> Position | DominoPosition:
    """The play engine's position before the first card, every engine check named by tag."""
    from .play import new_position
    try:
        return new_position(variant, contract, deal, leader=leader, trump=trump, doubles=doubles)
    except KingsolveError as exc:
        tag = _FIELD_TAGS.get(exc.field or "deal", "Deal")
        # a seat not in play, or a domino with a trump or in doubles, says it whole
        if exc.field == "leader":
            raise RecordError(str(exc), t.line_of("Leader") if "Leader" in t
                              else t.line_of("Play")) from None
        if contract.kind == "domino" and tag != "Deal":
            raise RecordError(str(exc), t.line_of(tag)) from None
        raise t.error(tag, exc) from None


def _check_score(t: _Tags, record: Record, score: _Score) -> None:
    """``RecordError`` when the ``Score`` tag differs from what the complete play scores."""
    played = record._played_scores()
    if played is not None and played != dict(score):
        shown = " ".join(f"{s.name} {v}" for s, v in played.items())
        raise RecordError(f"tag Score {excerpt(t.value('Score'))} does not match the play, which "
                          f"scores {excerpt(shown)}", t.line_of("Score"))


def _play(position: Position | DominoPosition, kind: str, play_lines: list[tuple[int, list[str]]],
          from_json: bool) -> list[Card]:
    from .position import Position
    cards: list[Card] = []
    # a trick contract's text is a trick a line; the domino's, lines of a fixed length
    tricks = position if kind == "tricks" and isinstance(position, Position) else None
    per_trick = None if tricks is None else len(tricks.seats)
    for i, (number, tokens) in enumerate(play_lines):
        if tricks is not None and per_trick is not None and not from_json:
            trick = tricks.trick_number + 1
            if len(tokens) > per_trick:
                raise RecordError(f"trick {trick} has {len(tokens)} cards "
                                  f"{excerpt(' '.join(tokens))}, expected {per_trick}", number)
            if len(tokens) < per_trick and i != len(play_lines) - 1:
                raise RecordError(f"trick {trick} has {len(tokens)} cards "
                                  f"{excerpt(' '.join(tokens))}, expected {per_trick} (only the last "
                                  f"line may stop mid-trick)", number)
        for token in tokens:
            where = (f"trick {tricks.trick_number + 1}" if tricks is not None
                     else f"card {len(cards) + 1}")
            try:
                card = Card.parse(token)
            except ParseError as exc:
                raise RecordError(f"{where}: {exc}", number) from None
            if position.complete:
                raise RecordError(f"{where}: card {excerpt(str(card))} after the end of the hand",
                                  number)
            try:
                position.play(card)
            except KingsolveError as exc:
                message = re.sub(r" at play\[\d+\]", "", str(exc))
                raise RecordError(f"{where}: {message}", number) from None
            cards.append(card)
    return cards


def _int_tag(tags: dict[str, tuple[str, int]], tag: str, minimum: int = 0) -> int | None:
    if tag not in tags:
        return None
    value, line = tags[tag]
    # Read only when it is short: it must fit a JSON number a JavaScript client holds.
    if not re.fullmatch(r"\d{1,16}", value) or not minimum <= int(value) <= JSON_SAFE_INT:
        raise RecordError(f"tag {tag}: invalid value {excerpt(value)}: expected a whole number "
                          f"from {minimum} to {JSON_SAFE_INT}", line)
    return int(value)


def _sale_tag(tags: _TagLines, variant: RuleSet, contract: str, dealer: Seat | None) -> tuple[Seat, int] | None:
    if "Sale" not in tags:
        return None
    value, line = tags["Sale"]
    parts = value.split()
    no_sale = variant.lacks("sale")
    if no_sale is not None:
        raise RecordError(f"tag Sale {excerpt(value)}: {no_sale}", line)
    if contract != "trumps":
        raise RecordError(f"tag Sale {excerpt(value)}: only the trumps hands are sold "
                          f"(docs/rules.md 10)", line)
    if dealer is None:
        raise RecordError(f"tag Sale {excerpt(value)} needs a Dealer tag (the seller)", line)
    if len(parts) != 2 or not parts[1].isdigit() or int(parts[1]) < 1:
        raise RecordError(f"tag Sale: invalid value {excerpt(value)}: expected the buyer's seat and "
                          f"the price in tricks, such as \"E 2\"", line)
    buyer = _tag_seat("Sale", parts[0], line)
    if buyer == dealer:
        raise RecordError(f"tag Sale {excerpt(value)}: the dealer cannot buy its own declaration", line)
    return (buyer, int(parts[1]))


def _festa_hand_tag(tags: _TagLines, tag: str, what: str, variant: RuleSet, contract: str,
                    dealer: Seat | None) -> tuple[str, int] | None:
    """(value, line) of a tag only a Portuguese festa hand takes (docs/rules.md 6), or None."""
    if tag not in tags:
        return None
    value, line = tags[tag]
    no_festa = variant.lacks("festa")
    if no_festa is not None:
        raise RecordError(f"tag {tag} {excerpt(value)}: {no_festa}", line)
    if contract not in ("festa", "null"):
        raise RecordError(f"tag {tag} {excerpt(value)}: {what} belong to the Portuguese festa "
                          f"(docs/rules.md 6)", line)
    if dealer is None:
        raise RecordError(f"tag {tag} {excerpt(value)} needs a Dealer tag (the host)", line)
    return value, line


def _festa_tag(tags: _TagLines, variant: RuleSet, contract: str, dealer: Seat | None) -> str | None:
    found = _festa_hand_tag(tags, "Festa", "festa outcomes", variant, contract, dealer)
    if found is None:
        return None
    value, line = found
    outcome = value.lower()
    if outcome not in FESTA_OUTCOMES:
        raise RecordError(f"tag Festa: invalid value {excerpt(value)}: expected one of "
                          f"{', '.join(FESTA_OUTCOMES)}", line)
    if outcome in ("accepted", "refused") and "Bid" not in tags:
        raise RecordError(f"tag Festa {excerpt(value)} needs a Bid tag (the bid the host "
                          f"{'accepted' if outcome == 'accepted' else 'answered with 8 or null'})",
                          line)
    if outcome in ("host", "433") and "Bid" in tags:
        raise RecordError(f"tag Festa {excerpt(value)}: no bid was accepted, so the record takes no "
                          f"Bid tag (line {tags['Bid'][1]})", line)
    if outcome == "refused" and contract != "null":
        raise RecordError(f"tag Festa 'refused': the host plays null after 8 or null is "
                          f"refused, not {contract}", line)
    if outcome == "433" and contract != "festa":
        raise RecordError(f"tag Festa '433': the hand is the festa, not {contract}", line)
    return outcome


def _unplayed_433(tags: _TagLines, variant: str, contract: str, deal: Deal, leader: Seat,
                  dealer: Seat | None, doubles: bool, trump: Suit | None,
                  options: tuple[str, ...], play_lines: list[tuple[int, list[str]]],
                  hand: int | None, score: _Score | None, line_of: Callable[[str], int],
                  house_rules: str | None) -> Record:
    """docs/rules.md 6 (3): a festa settled 433 has no trump and no play."""
    if trump is not None:
        raise RecordError(f"tag Trump {excerpt(tags['Trump'][0])}: a festa settled 433 is not played "
                          f"and names no trump", line_of("Trump"))
    if play_lines:
        raise RecordError(f"cards {excerpt(' '.join(play_lines[0][1]))}: a festa settled 433 is not "
                          f"played", play_lines[0][0])
    record = Record(variant, contract, deal, leader, options=options, dealer=dealer,
                    doubles=doubles, event=tags.get("Event", (None,))[0],
                    site=tags.get("Site", (None,))[0], date=tags.get("Date", (None,))[0],
                    hand=hand, seed=tags.get("Seed", (None,))[0], festa="433", score=score,
                    house_rules=house_rules)
    settled = record.adjustments()
    if score is not None and dict(score) != settled:
        shown = " ".join(f"{s.name} {v}" for s, v in settled.items())
        raise RecordError(f"tag Score {excerpt(tags['Score'][0])} does not match the 433 settlement "
                          f"{excerpt(shown)}", line_of("Score"))
    return record


def _bid_tag(tags: _TagLines, variant: RuleSet, contract: str, dealer: Seat | None,
             festa: str | None = None) -> tuple[Seat, int, str] | None:
    found = _festa_hand_tag(tags, "Bid", "bids", variant, contract, dealer)
    if found is None:
        return None
    value, line = found
    parts = value.split()
    if len(parts) not in (2, 3) or not parts[1].isdigit() or int(parts[1]) < 1 \
            or (len(parts) == 3 and parts[2].lower() not in ("plus", "null")):
        raise RecordError(f"tag Bid: invalid value {excerpt(value)}: expected the bidder's seat, a "
                          f"number of tricks and optionally null, such as \"E 3\" or "
                          f"\"E 2 null\"", line)
    kind = parts[2].lower() if len(parts) == 3 else "plus"
    bidder = _tag_seat("Bid", parts[0], line)
    if bidder == dealer:
        raise RecordError(f"tag Bid {excerpt(value)}: the host does not bid at its own festa", line)
    if kind == "null" and int(parts[1]) > 3:
        raise RecordError(f"tag Bid {excerpt(value)}: a null bid is at most 3 tricks", line)
    if festa == "refused":
        if kind != "plus" or int(parts[1]) not in (6, 7):
            raise RecordError(f"tag Bid {excerpt(value)}: 8 or null is asked only at 6 or 7 "
                              f"plus-tricks (tag Festa 'refused')", line)
    elif (kind == "null") != (contract == "null"):
        raise RecordError(f"tag Bid {excerpt(value)}: a {kind} bid is played as "
                          f"{'null' if kind == 'null' else 'festa'}, not {contract}", line)
    return (bidder, int(parts[1]), kind)


def _score_tag(tags: _TagLines, deal: Deal) -> _Score | None:
    if "Score" not in tags:
        return None
    value, line = tags["Score"]
    parts = value.split()
    if len(parts) != 2 * deal.players:
        raise RecordError(f"tag Score: invalid value {excerpt(value)}: expected each seat in play and "
                          f"its points, such as \"N -3 E 0 S -6 W -3\"", line)
    out = []
    for i in range(0, len(parts), 2):
        seat = _tag_seat("Score", parts[i], line)
        if not re.fullmatch(r"[+-]?\d+", parts[i + 1]):
            raise RecordError(f"tag Score: invalid points {excerpt(parts[i + 1])} for {seat.name}", line)
        out.append((seat, int(parts[i + 1])))
    if sorted(s for s, _ in out) != sorted(deal.seats):
        raise RecordError(f"tag Score {excerpt(value)}: expected each seat in play once "
                          f"({' '.join(s.name for s in deal.seats)})", line)
    return tuple(sorted(out))
