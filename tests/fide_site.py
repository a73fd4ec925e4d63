"""Random tournaments played on the site, end to end, and checked with FIDE's own tools after every round.

A tournament comes from the Random Tournament Generator (:mod:`pairings.generator`: players, half-point and
zero-point byes, forfeits, Baku, a tie-break list, a seed). An organiser builds it on the site through the
doors a club uses: the players into the league's registry, the event through the API, the entries through the
entries page (the lowest-ranked player, when the file gives a bye in round 1, as a late entry with that bye), the
initial colour and the byes on the pairing screen. Every round is paired ON THE SITE (odd rounds through the
API's pair-and-publish, even rounds through the pairing screen) and must be the generated file's pairing; each
result is the file's result of the same game, entered through the API (rounds 1, 4, 7) or the round sheet (the
others). After every round:

* FIDE's pairing checker (gacrux) replays the round from the site's own TRF export: it must pair it as the site did;
* FIDE's tie-break checker computes the points and every tie-break from the same export: the public standings API
  must show the same values;
* the site's own verdict (leagues/services/fide_check.py, stored by the worker) must say the same.

One tournament in five is a round robin instead (Berger tables on the site, random results). Used by
tests/integration/test_fide_end_to_end.py and scripts/check-fide; needs a database whose transactions commit
(the recompute runs after each commit, in-process).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from django.test import Client

from leagues.models import Entry, Event, FideCheck, Game, League, Player, RoundPairing
from leagues.services.clubs import club_save
from leagues.services.players import player_save
from pairings.fide_tools import fide_pairing_check, fide_tiebreaks
from pairings.generator import TournamentPlan, generate
from pairings.model import PairingError
from tests.factories import LeagueFactory, organiser_of
from tiebreaks.trf import read_trf

#: the site's result of a game from the file's codes of white and black
GAME_RESULTS = {
    ("1", "0"): "1-0",
    ("=", "="): "1/2-1/2",
    ("0", "1"): "0-1",
    ("+", "-"): "+/-",
    ("-", "+"): "-/+",
    ("-", "-"): "-/-",
}
#: the bye asked for on the pairing screen for a file's bye code
REQUESTED = {"H": "half", "Z": "zero", "F": "full"}
CRITERIA = ((), ("BH/C1", "BH", "SB"), ("PS", "BH", "WIN"), ("ARO", "BH/M1", "DE", "KS"), ("BH", "SB", "DE"))


@dataclass
class Tally:
    tournaments: int = 0
    rounds: int = 0
    pairings_equal: int = 0  # rounds the site paired as the file and as FIDE's pairing checker
    values: int = 0  # standings values compared (points and each tie-break of each player)
    values_equal: int = 0
    verdicts_ok: int = 0  # rounds whose stored verdict (FideCheck) said "equal"
    round_robins: int = 0
    baku: int = 0
    late_entries: int = 0
    byes: int = 0  # half-point, zero-point and full-point byes entered on the pairing screen
    #: seeds whose tournament the generator itself cannot finish (a round with no legal pairing: C.04.3 art. 1.9.3
    #: leaves it to the arbiter); not played, not counted as tournaments
    unfinished: list[int] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)

    COUNTS: ClassVar[tuple[str, ...]] = ("tournaments", "rounds", "pairings_equal", "values", "values_equal")
    COUNTS += ("verdicts_ok", "round_robins", "baku", "late_entries", "byes")

    def add(self, other: Tally) -> None:
        for name in self.COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.disagreements += other.disagreements
        self.unfinished += other.unfinished

    def summary(self) -> str:
        return (
            f"{self.tournaments} tournaments, {self.rounds} rounds: pairings equal to the file's and FIDE's in "
            f"{self.pairings_equal}, standings values equal to FIDE's tie-break checker {self.values_equal} of "
            f"{self.values}, the site's own verdict 'equal' after {self.verdicts_ok} rounds ({self.round_robins} "
            f"round robins, {self.baku} Swiss with Baku acceleration, {self.late_entries} late entries, {self.byes} "
            f"byes requested); {len(self.disagreements)} disagreements"
            + (f"; seeds the generator cannot finish (not played): {self.unfinished}" if self.unfinished else "")
        )


class Disagreement(Exception):
    """The site and the file or FIDE's tools part ways; the tournament stops there."""


def plan_for(seed: int) -> TournamentPlan:
    """A small Swiss (6 to 13 players, 4 to 6 rounds) with byes, forfeits, sometimes Baku."""
    rng = random.Random(seed)
    players = rng.randrange(6, 14)
    return TournamentPlan(
        players=players,
        rounds=rng.randrange(4, min(7, players)),
        seed=seed,
        baku=rng.random() < 0.2,
        zpb=rng.choice((0, 0.04, 0.08)),
        hpb=rng.choice((0, 0.05, 0.1)),
        forfeits=rng.choice((0, 0.04, 0.08)),
        criteria=rng.choice(CRITERIA),
    )


def is_round_robin(seed: int) -> bool:
    return seed % 5 == 0


class SiteTournament:
    """One tournament played on the site by its organiser, checked after every round."""

    def __init__(self, seed: int, generated: str | None = None):
        self.seed = seed
        self.generated = generated  # the generator's file of a Swiss, when play() has made it already
        self.tally = Tally(tournaments=1)
        self.client = Client()
        self.api = Client()
        self.league: League = LeagueFactory()
        self.organiser = organiser_of(self.league)
        self.client.force_login(self.organiser)
        self.api.force_login(self.organiser)
        self.club = club_save(
            league=self.league, user=self.organiser, fields={"name": f"Club {seed}", "slug": f"club-{seed}"}
        )
        self.slug = f"random-{seed}"
        self.entries: dict[int, Entry] = {}  # the file's start number -> the site's entry

    # --- the doors ------------------------------------------------------------------------------------

    def _ok(self, response: Any, what: str) -> Any:
        if response.status_code >= 400:
            raise Disagreement(f"{what}: the site answered {response.status_code} {response.content[:300]!r}")
        return response

    def _manage(self, path: str, data: dict[str, Any], what: str) -> None:
        self._ok(self.client.post(f"/en/manage/events/{self.slug}/{path}", data), what)

    def _event(self) -> Event:
        return Event.objects.get(slug=self.slug)

    def _create_event(self, system: str, rounds: int, criteria: list[str], starts_on: str) -> None:
        body = {
            "name": f"Random {self.seed}",
            "slug": self.slug,
            "system": system,
            "rounds_count": rounds,
            "rule_set": "fide-2026",
            "tiebreak_criteria": criteria,
            "starts_on": starts_on,
        }
        self._ok(
            self.api.post(f"/api/v1/leagues/{self.league.slug}/events/", body, content_type="application/json"),
            "creating the event",
        )

    def _publish(self) -> None:
        self._manage("status/", {"status": "published"}, "publishing the event")
        if self._event().status != Event.Status.PUBLISHED:
            raise Disagreement("the event could not be published")

    def _register(self, player: Player, late_bye: str = "") -> Entry:
        late = bool(late_bye)
        data = {"player": player.pk, "rating": "", "late_bye": late_bye or "zero"}
        self._manage("entries/", data, f"registering {player.name}")
        entry = Entry.objects.filter(event__slug=self.slug, player=player).first()
        if entry is None:
            raise Disagreement(f"{player.name} was not registered{' late' if late else ''}")
        return entry

    def _pair(self, number: int) -> list[tuple[int, int]]:
        """Pair and publish the round on the site: (white, black) in board order, black 0 for the PAB."""
        api = f"/api/v1/events/{self.slug}/rounds/{number}/pairing/"
        if number % 2:
            self._ok(self.api.post(api), f"pairing round {number} (API)")
            pairing = self.api.get(api).json()
            if pairing["status"] != RoundPairing.Status.READY:
                raise Disagreement(f"round {number} was not paired: {pairing['status']} {pairing['problem']}")
            self._ok(self.api.post(f"{api}publish/"), f"publishing round {number} (API)")
        else:
            self._manage(f"pairing/{number}/", {"action": "pair"}, f"pairing round {number} (screen)")
            pairing = RoundPairing.objects.get(round__event__slug=self.slug, round__number=number)
            if pairing.status != RoundPairing.Status.READY:
                raise Disagreement(f"round {number} was not paired: {pairing.status} {pairing.problem}")
            self._manage(f"pairing/{number}/", {"action": "publish"}, f"publishing round {number} (screen)")
        published = self.api.get(api).json()
        if published["status"] != RoundPairing.Status.PUBLISHED:
            raise Disagreement(f"round {number} was not published")
        return [
            (board["white"]["start_number"], board["black"]["start_number"] if board["black"] else 0)
            for board in published["boards"]
        ]

    def _results(self, number: int, results: dict[int, str]) -> None:
        """Each game's result (by game id), through the API in rounds 1, 4, 7 (one request and one recompute a
        game) and the round sheet in the others (the whole round in one)."""
        if number % 3 == 1:
            for game_id, result in results.items():
                self._ok(
                    self.api.post(
                        f"/api/v1/games/{game_id}/result/", {"result": result}, content_type="application/json"
                    ),
                    f"the result of game {game_id} (API)",
                )
            return
        data: dict[str, Any] = {"reason": ""}  # as the browser sends the sheet: every board, byes as they are
        for game in Game.objects.filter(round__event__slug=self.slug, round__number=number):
            data[f"result_{game.pk}"], data[f"version_{game.pk}"] = results.get(game.pk, game.result), game.version
        response = self.client.post(f"/en/manage/events/{self.slug}/rounds/{number}/", data)
        if response.status_code != 302:
            form = response.context["form"] if response.context else None
            problems = form.errors if form is not None else response.content[:300]
            raise Disagreement(f"the round sheet of round {number} was refused ({response.status_code}): {problems!s}")

    def _games(self, number: int) -> dict[tuple[int, int], Game]:
        games = Game.objects.filter(round__event__slug=self.slug, round__number=number, black__isnull=False)
        found = {}
        for g in games.select_related("white", "black"):
            assert g.white is not None and g.black is not None  # a game of two entries (black__isnull=False)
            found[(g.white.start_number, g.black.start_number)] = g
        return found

    # --- the checks after a round ----------------------------------------------------------------------

    def _check_round(self, number: int, site: list[tuple[int, int]], criteria: list[str], round_robin: bool) -> None:
        export = self._ok(self.api.get(f"/api/v1/events/{self.slug}/export.trf"), "the TRF export").content
        trf = export.decode()
        (fide,) = fide_pairing_check(trf, number)
        if not fide.same or sorted(fide.file) != sorted(site):
            raise Disagreement(f"round {number}: the site paired {site}, FIDE's pairing checker {list(fide.fide)}")
        self.tally.pairings_equal += 1
        standings = self.api.get(f"/api/v1/events/{self.slug}/standings/").json()
        if standings["being_updated"]:
            raise Disagreement(f"round {number}: the standings were not recomputed")
        codes = ["PTS", *criteria]
        theirs = fide_tiebreaks(trf, codes, rounds=number, round_robin=round_robin)
        wrong = []
        for row in standings["rows"]:
            ours = [row["points"], *(row["values"].get(code) for code in criteria)]
            for code, site_value, fide_value in zip(codes, ours, theirs[row["start_number"]], strict=True):
                self.tally.values += 1
                if _hundredths(site_value) == _hundredths(fide_value):
                    self.tally.values_equal += 1
                else:
                    wrong.append(f"{row['start_number']} {code}: site {site_value}, FIDE {fide_value}")
        if wrong:
            raise Disagreement(f"after round {number} the standings differ from FIDE's tie-break checker: {wrong}")
        verdict = FideCheck.objects.filter(event__slug=self.slug).first()
        event = self._event()
        if verdict is None or verdict.version != event.results_version or verdict.rounds != number:
            raise Disagreement(f"after round {number} the site stored no verdict of FIDE's tools for the round")
        if not verdict.ok:
            raise Disagreement(f"after round {number} the site's verdict lists differences: {verdict.differences}")
        self.tally.verdicts_ok += 1

    # --- a Swiss from the generator --------------------------------------------------------------------

    def play_swiss(self) -> None:
        plan = plan_for(self.seed)
        tournament = read_trf(self.generated if self.generated is not None else generate(plan))
        people = sorted(tournament.participants, key=lambda p: p.start_number)
        criteria = list(tournament.tiebreaks[1:])
        self._create_event("swiss", plan.rounds, criteria, tournament.start_date)
        if plan.baku:
            self._event_edit_baku()
            self.tally.baku += 1
        last = people[-1]
        # the lowest-ranked player asked for a bye in round 1: entered late, with that bye for the round missed (not
        # under Baku: its accelerated group follows the number of players, which a late entry changes after round 1)
        late = not plan.baku and last.rounds[0].opponent is None and last.rounds[0].code in ("Z", "H")
        players = {p.start_number: self._registry_player(p) for p in people}
        for p in people[:-1] if late else people:
            self.entries[p.start_number] = self._register(players[p.start_number])
        self._check_start_numbers(people[:-1] if late else people)
        self._publish()
        colour = next(line[4] for line in tournament.extra_records if line.startswith("152"))
        self._manage(
            "pairing/1/",
            {"action": "settings", "pab_points": "1", "half_byes_allowed": "2", "initial_colour": colour.lower()},
            "the pairing settings",
        )
        for number in range(1, plan.rounds + 1):
            if number == 2 and late:
                late_bye = "half" if last.rounds[0].code == "H" else "zero"
                self.entries[last.start_number] = self._register(players[last.start_number], late_bye=late_bye)
                self.tally.late_entries += 1
                self._check_start_numbers(people)
            for p in people:
                entry = p.rounds[number - 1]
                if entry.opponent is None and entry.code in REQUESTED and p.start_number in self.entries:
                    if number == 1 and late and p is last:
                        continue
                    bye = {"action": "bye", "bye-entry": self.entries[p.start_number].pk}
                    self._manage(f"pairing/{number}/", {**bye, "bye-kind": REQUESTED[entry.code]}, "a bye")
                    self.tally.byes += 1
            site = self._pair(number)
            expected = _file_pairing(people, number)
            if sorted(site) != sorted(expected):
                raise Disagreement(f"round {number}: the site paired {sorted(site)}, the file {sorted(expected)}")
            games = self._games(number)
            results = {}
            for white, black in site:
                if black:
                    codes = (people[white - 1].rounds[number - 1].code, people[black - 1].rounds[number - 1].code)
                    results[games[white, black].pk] = GAME_RESULTS[codes]
            self._results(number, results)
            self.tally.rounds += 1
            self._check_round(number, site, criteria, round_robin=False)

    def _event_edit_baku(self) -> None:
        from leagues.services.events import event_save

        event_save(league=self.league, user=self.organiser, fields={"baku_acceleration": True}, event=self._event())

    def _registry_player(self, p: Any) -> Player:
        fields = {
            "name": p.name,
            "rating": p.rating,
            "title": p.title or "",
            "federation": p.federation or "",
            # the generator's FIDE ids repeat from one tournament to the next; the registry keeps one player per id
            "fide_id": int(p.fide_id) + 100_000 * self.seed if p.fide_id else None,
            "sex": {"f": "w"}.get(p.sex, p.sex or ""),
        }
        return player_save(league=self.league, user=self.organiser, fields=fields, club=self.club)

    def _check_start_numbers(self, people: list[Any]) -> None:
        for p in people:
            entry = Entry.objects.get(pk=self.entries[p.start_number].pk)
            if entry.start_number != p.start_number:
                raise Disagreement(f"{p.name} has start number {entry.start_number} on the site, {p.start_number}")
            self.entries[p.start_number] = entry

    # --- a round robin ---------------------------------------------------------------------------------

    def play_round_robin(self) -> None:
        rng = random.Random(self.seed)
        count = rng.randrange(4, 8)
        rounds = count - 1 if count % 2 == 0 else count
        self.tally.round_robins += 1
        self._create_event("rr", rounds, [], "2026-04-01")
        for n in range(1, count + 1):
            player = player_save(
                league=self.league,
                user=self.organiser,
                fields={"name": f"Player {n}, Robin", "rating": 2400 - 37 * n},
                club=self.club,
            )
            self.entries[n] = self._register(player)
        self._publish()
        criteria = list(self._event().tiebreak_criteria)
        for number in range(1, rounds + 1):
            site = self._pair(number)
            games = self._games(number)
            results = {games[w, b].pk: rng.choice(("1-0", "1/2-1/2", "0-1", "+/-")) for w, b in site if b}
            self._results(number, results)
            self.tally.rounds += 1
            self._check_round(number, site, criteria, round_robin=True)

    def play(self) -> Tally:
        try:
            if is_round_robin(self.seed):
                self.play_round_robin()
            else:
                self.play_swiss()
        except Disagreement as problem:
            self.tally.disagreements.append(f"seed {self.seed}: {problem}")
        return self.tally


def _file_pairing(people: list[Any], number: int) -> list[tuple[int, int]]:
    """The file's pairing of a round: (white, black) of each game, (player, 0) for the pairing-allocated bye."""
    pairs = []
    for p in people:
        entry = p.rounds[number - 1]
        if entry.opponent is not None and entry.colour == "w":
            pairs.append((p.start_number, entry.opponent))
        elif entry.opponent is None and entry.code == "U":
            pairs.append((p.start_number, 0))
    return pairs


def _hundredths(value: Any) -> Fraction | None:
    if value is None:
        return None
    return Fraction(round(Fraction(str(value)) * 100), 100)


def play(seed: int) -> Tally:
    """Play the tournament of ``seed`` on the site and check it with FIDE's tools after every round."""
    if is_round_robin(seed):
        return SiteTournament(seed).play()
    try:
        generated = generate(plan_for(seed))
    except PairingError:
        return Tally(tournaments=0, unfinished=[seed])
    return SiteTournament(seed, generated).play()  # the same file, generated once
