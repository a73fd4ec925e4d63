"""Prize funds through the models, the recompute hook and the API (spec tiebreak-rules.md §14, §15 T13).

Expected amounts are worked out by hand in minor units; every test states its arithmetic.
"""

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import (
    ClubMembership,
    Entry,
    Event,
    Game,
    Prize,
    PrizeAllocation,
    PrizeAward,
    PrizeFund,
    Result,
    Round,
    StandingsSnapshot,
)
from leagues.recompute import store_snapshot
from leagues.services.prizes import prizes_recompute
from tests.factories import ClubFactory, EventFactory, PlayerFactory
from tests.helpers import engine_snapshot, fund_with, player, present, snapshot_event

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------------------------ helpers


def money_by_name(allocation):
    return {award.entry.player.name: award.money for award in allocation.awards.select_related("entry__player")}


def api(event, lang="en"):
    return APIClient().get(f"/api/v1/events/{event.slug}/prizes/", HTTP_ACCEPT_LANGUAGE=lang)


# ------------------------------------------------------------------------------------ spec T13 cases


def test_t13_two_tied_for_first_share_200_and_100_as_150_each():
    event, snapshot = snapshot_event(
        [player("Ana", 4, {"BH/C1": 12}), player("Bo", 4, {"BH/C1": 11.5}), player("Cai", 3, {"BH/C1": 11})]
    )
    fund_with(event, places=[(1, 20000), (2, 10000)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    # (20000 + 10000) / 2 = 15000 pence each; Cai, third, has no prize
    assert money_by_name(allocation) == {"Ana": 15000, "Bo": 15000}
    assert (allocation.fund_total, allocation.total_paid, allocation.remainder) == (30000, 30000, 0)
    line = allocation.lines[0]
    assert line["code"] == "places_shared_pooled"
    assert line["params"]["places"] == [1, 2] and line["params"]["share"] == 15000
    text = api(event).json()["lines"][0]["text"]
    assert text == "Places 1–2 shared by Ana and Bo: £200 + £100 pooled, £150 each."


def test_t13_us_32b3_four_tied_with_one_youth_get_162_50_each():
    # $300 + $200 overall and a $150 youth prize; four tied, one of them a youth (born after 2008):
    # each brings one prize, the youth the youth prize: (30000 + 20000 + 15000) / 4 = 16250 cents
    event, snapshot = snapshot_event(
        [
            player("Ames", 4, birth_year=1980),
            player("Bell", 4, birth_year=2010),
            player("Cruz", 4, birth_year=1975),
            player("Diaz", 4, birth_year=1990),
            player("Eden", 2, birth_year=2011),
        ]
    )
    fund_with(
        event,
        places=[(1, 30000), (2, 20000)],
        categories=[("Youth", "born_after", "2008", 15000)],
        method="us-32b3",
        currency="USD",
    )

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert money_by_name(allocation) == {"Ames": 16250, "Bell": 16250, "Cruz": 16250, "Diaz": 16250}
    assert allocation.total_paid == 65000 and allocation.remainder == 0
    body = api(event).json()
    assert [line["code"] for line in body["lines"]] == ["us32b3_pooled"]
    assert "$162.50 each" in body["lines"][0]["text"]
    assert "$650" in body["lines"][0]["text"]


def test_t13_three_tied_for_100_50_25_get_58_33_and_one_penny_stays():
    # 10000 + 5000 + 2500 = 17500 pence / 3 = 5833 each, remainder 17500 - 3 * 5833 = 1
    event, snapshot = snapshot_event([player("Ana", 5), player("Bo", 5), player("Cai", 5), player("Dev", 1)])
    fund_with(event, places=[(1, 10000), (2, 5000), (3, 2500)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert money_by_name(allocation) == {"Ana": 5833, "Bo": 5833, "Cai": 5833}
    assert allocation is not None
    assert (allocation.total_paid, allocation.remainder) == (17499, 1)
    texts = [line["text"] for line in api(event).json()["lines"]]
    assert texts == [
        "Places 1–3 shared by Ana, Bo and Cai: £100 + £50 + £25 pooled, £58.33 each.",
        "The shares are rounded down: £0.01 remains with the organiser.",
    ]


def test_the_remainder_can_be_paid_in_tiebreak_order():
    # same 17500 / 3: the one remaining penny goes to the first of the tied in tie-break order
    event, snapshot = snapshot_event(
        [player("Ana", 5, {"BH/C1": 9}), player("Bo", 5, {"BH/C1": 8}), player("Cai", 5, {"BH/C1": 7})]
    )
    fund_with(event, places=[(1, 10000), (2, 5000), (3, 2500)], remainder="by_tiebreak")

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert money_by_name(allocation) == {"Ana": 5834, "Bo": 5833, "Cai": 5833}
    assert (allocation.total_paid, allocation.remainder) == (17500, 0)


def test_a_tie_straddling_the_last_prize_place_pools_only_the_prizes_that_exist():
    # Ana alone first (£300). Bo, Cai, Dev tied on 3½ occupy places 2-4; only places 2 and 3 carry money:
    # (20000 + 10000) / 3 = 10000 each. Eve, fifth, gets nothing.
    event, snapshot = snapshot_event(
        [
            player("Ana", 4),
            player("Bo", 3.5, {"BH/C1": 10}),
            player("Cai", 3.5, {"BH/C1": 9}),
            player("Dev", 3.5, {"BH/C1": 8}),
            player("Eve", 2),
        ]
    )
    fund_with(event, places=[(1, 30000), (2, 20000), (3, 10000)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert money_by_name(allocation) == {"Ana": 30000, "Bo": 10000, "Cai": 10000, "Dev": 10000}
    texts = [line["text"] for line in api(event).json()["lines"]]
    assert "Places 2–4 shared by Bo, Cai and Dev: £200 + £100 pooled, £100 each." in texts


def test_the_trophy_goes_by_tiebreak_while_the_money_is_pooled():
    event, snapshot = snapshot_event([player("Ana", 4, {"BH/C1": 12}), player("Bo", 4, {"BH/C1": 11.5})])
    fund_with(event, places=[(1, 20000, "Trophy"), (2, 10000)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    awards = {
        present(a.entry.player).name: (a.money, a.items) for a in allocation.awards.select_related("entry__player")
    }
    assert awards == {"Ana": (15000, ["Trophy"]), "Bo": (15000, [])}
    item_line = allocation.lines[-1]
    assert item_line["code"] == "item_by_tiebreak"
    assert item_line["params"]["criterion"] == "BH/C1"
    assert (item_line["params"]["value"], item_line["params"]["other_value"]) == ("12", "11.5")
    assert api(event).json()["lines"][-1]["text"] == (
        "Trophy for place 1 to Ana, ahead of Bo on Buchholz Cut-1: 12 against 11.5."
    )


def test_one_prize_per_player_the_better_prize_is_taken_and_the_other_passes_on():
    # Ana (U1800) wins place 1 (£100) over the U1800 prize (£40); the U1800 prize passes to Cai, the next
    # eligible player (Bo is rated 1900). Rating is the rating at start of the event.
    event, snapshot = snapshot_event(
        [
            player("Ana", 4, rating=1700),
            player("Bo", 3, rating=1900),
            player("Cai", 2, rating=1750),
        ]
    )
    fund_with(event, places=[(1, 10000), (2, 5000)], categories=[("U1800", "rating_below", "1800", 4000)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert money_by_name(allocation) == {"Ana": 10000, "Bo": 5000, "Cai": 4000}
    codes = [line["code"] for line in allocation.lines]
    assert codes == ["better_prize_taken", "place_prize", "place_prize", "category_prize"]


def test_category_eligibility_reads_the_club_membership_sex_and_birth_year():
    club = ClubFactory(slug="fjord")
    event, snapshot = snapshot_event(
        [
            player("Ana", 5),
            player("Bo", 4, club=club, sex="m"),
            player("Cai", 3, club=club, sex="w", birth_year=2012),
        ]
    )
    fund_with(
        event,
        places=[(1, 10000)],
        categories=[
            ("Fjord", "club", "fjord", 3000),
            ("Women", "sex", "w", 2000),
            ("U14", "born_after", "2011", 1000),
        ],
        one_prize_per_player=False,
    )

    allocation = present(prizes_recompute(event.pk, snapshot))

    # without the one-prize rule Cai takes the women's prize and the U14 prize; Bo the best Fjord player
    assert money_by_name(allocation) == {"Ana": 10000, "Bo": 3000, "Cai": 3000}


# ------------------------------------------------------------------------------------ best club team


def three_clubs():
    """Fjord = Ana 5 + Cai 4 + Fay 3 = 12; Oslo = Bo 4½ + Eve 3½ + Hal 2½ = 10½; Bergen = Dev 4 + Gus 3 +
    Ivy 2 = 9 (best three of each club, standings order; BH/C1 the first tiebreak)."""
    fjord = ClubFactory(slug="fjord", name="Fjord SK")
    oslo = ClubFactory(slug="oslo", name="Oslo SK")
    bergen = ClubFactory(slug="bergen", name="Bergen SK")
    rows = [
        ("Ana", 5, fjord),
        ("Bo", 4.5, oslo),
        ("Cai", 4, fjord),
        ("Dev", 4, bergen),
        ("Eve", 3.5, oslo),
        ("Fay", 3, fjord),
        ("Gus", 3, bergen),
        ("Hal", 2.5, oslo),
        ("Ivy", 2, bergen),
    ]
    return snapshot_event(
        [player(name, points, {"BH/C1": 20 - i}, club=club) for i, (name, points, club) in enumerate(rows)]
    )


def test_best_club_team_goes_to_the_club_and_the_page_and_api_show_it(client):
    event, snapshot = three_clubs()
    fund_with(event, places=[(1, 10000)], clubs=[(1, 6000, 3, "Club shield"), (2, 3000, 3)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    # Fjord 12 > Oslo 10½ > Bergen 9: £60 and the shield to Fjord, £30 to Oslo; Ana also keeps her £100
    assert money_by_name(allocation) == {"Ana": 10000}
    assert allocation is not None
    assert allocation.club_awards == [
        {"club": "fjord", "name": "Fjord SK", "money": 6000, "items": ["Club shield"]},
        {"club": "oslo", "name": "Oslo SK", "money": 3000, "items": []},
    ]
    assert (allocation.fund_total, allocation.total_paid, allocation.remainder) == (19000, 19000, 0)
    body = api(event).json()
    assert body["club_awards"] == allocation.club_awards
    assert [(p["kind"], p["players"]) for p in body["prizes"]] == [("place", None), ("club_team", 3), ("club_team", 3)]
    texts = [line["text"] for line in body["lines"]]
    assert texts == [
        "Place 1 to Ana: £100.",
        "Best club team: Fjord SK, whose best players scored 12 points together (Ana 5 + Cai 4 + Fay 3), receives £60.",
        "Best club team, rank 2: Oslo SK, whose best players scored 10.5 points together (Bo 4.5 + Eve 3.5 + "
        "Hal 2.5), receives £30.",
        "Club shield for the best club team category to Fjord SK.",
    ]
    content = client.get(f"/en/events/{event.slug}/prizes/").content.decode()
    shown = re.sub(r"</?bdi[^>]*>", "", content)  # the page isolates names and amounts with <bdi>
    assert texts[1].replace("£", "&#163;") in shown or texts[1] in shown
    assert 'href="/en/clubs/fjord/"' in content and "Best club team, rank 2" in content


def test_a_player_of_two_clubs_counts_for_the_first_recorded_one_on_the_page_and_in_the_prizes(client):
    """Ana joined Oslo first, then Fjord: the standings show Oslo and Oslo's best team (Ana alone) wins."""
    oslo, fjord = ClubFactory(slug="oslo", name="Oslo SK"), ClubFactory(slug="fjord", name="Fjord SK")
    event, snapshot = snapshot_event([player("Ana", 4, club=oslo), player("Bo", 3, club=fjord)])
    ana = present(Entry.objects.get(event=event, start_number=1).player)
    ClubMembership.objects.create(player=ana, club=fjord)
    fund_with(event, clubs=[(1, 5000, 1)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert [(a["club"], a["money"]) for a in allocation.club_awards] == [("oslo", 5000)]
    standings = client.get(f"/en/events/{event.slug}/").content.decode()
    ana_row = next(line for line in standings.split("<tr") if "Ana" in line)
    assert 'href="/en/clubs/oslo/"' in ana_row and "fjord" not in ana_row


def test_two_clubs_tied_on_their_best_two_pool_the_money():
    """N = 2: Fjord = Ana 4 + Cai 3 = 7, Oslo = Bo 4 + Dev 3 = 7: (£50 + £20) / 2 = £35 each."""
    fjord, oslo = ClubFactory(slug="fjord", name="Fjord SK"), ClubFactory(slug="oslo", name="Oslo SK")
    event, snapshot = snapshot_event(
        [
            player("Ana", 4, {"BH/C1": 9}, club=fjord),
            player("Bo", 4, {"BH/C1": 8}, club=oslo),
            player("Cai", 3, {"BH/C1": 7}, club=fjord),
            player("Dev", 3, {"BH/C1": 6}, club=oslo),
            player("Eve", 1),
        ]
    )
    fund_with(event, clubs=[(1, 5000, 2), (2, 2000, 2)])

    allocation = present(prizes_recompute(event.pk, snapshot))

    assert [(a["club"], a["money"]) for a in allocation.club_awards] == [("fjord", 3500), ("oslo", 3500)]
    assert not allocation.awards.exists()  # the money goes to the clubs, not to their players
    (line,) = api(event).json()["lines"]
    assert line["code"] == "club_team_shared"
    assert line["text"] == (
        "Best club team: Fjord SK and Oslo SK, tied on 7 points of their best players (Fjord SK: Ana 4 + Cai 3; "
        "Oslo SK: Bo 4 + Dev 3), share £50 + £20 pooled, £35 each."
    )


def test_the_admin_saves_a_club_team_prize(client):
    event, _ = three_clubs()
    response = _admin_client(client).post(
        "/admin/leagues/prizefund/add/",
        _fund_form(
            event,
            [
                {"kind": "club_team", "amount": 5000, "team_size": 2},
            ],
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    # best two: Fjord 5 + 4 = 9 > Oslo 4½ + 3½ = 8 > Bergen 4 + 3 = 7
    assert PrizeAllocation.objects.get(fund__event=event).club_awards[0]["club"] == "fjord"


# --------------------------------------------------------------------------- the recompute and storage


def record(event, number, board, white, black, result):
    rnd, _ = Round.objects.get_or_create(event=event, number=number)
    Game.objects.create(round=rnd, board=board, white=white, black=black, result=result)


def test_prizes_follow_a_real_standings_recompute_and_replace_the_old_allocation():
    """R1 P1-P2 1-0, P3-P4 1-0; R2 P1-P3 ½-½, P4-P2 1-0. Points: P1 1½, P3 1½, P4 1, P2 0.
    BH: P3 = P4 1 + P1 1½ = 2½, P1 = P2 0 + P3 1½ = 1½, so P3 is first on Buchholz.
    Prizes £200 + trophy, £100, £50: P1 and P3 pool £300 (15000 each), the trophy to P3 (BH 2½ against
    1½), P4 alone third takes 5000."""
    event = EventFactory(rounds_count=2, tiebreak_criteria=["BH"])
    entries = []
    for number, name in enumerate(["P1", "P2", "P3", "P4"], start=1):
        entries.append(Entry.objects.create(event=event, start_number=number, player=PlayerFactory(name=name)))
    p1, p2, p3, p4 = entries
    record(event, 1, 1, p1, p2, Result.WHITE_WINS)
    record(event, 1, 2, p3, p4, Result.WHITE_WINS)
    record(event, 2, 1, p1, p3, Result.DRAW)
    record(event, 2, 2, p4, p2, Result.WHITE_WINS)
    fund_with(event, places=[(1, 20000, "Trophy"), (2, 10000), (3, 5000)])
    Event.objects.filter(pk=event.pk).update(results_version=1)
    store_snapshot(event.pk, 1, engine_snapshot(event), 0)

    allocation = present(prizes_recompute(event.pk, StandingsSnapshot.objects.get(event=event)))

    awards = {
        present(a.entry.player).name: (a.money, a.items) for a in allocation.awards.select_related("entry__player")
    }
    assert awards == {"P3": (15000, ["Trophy"]), "P1": (15000, []), "P4": (5000, [])}
    assert allocation.version == 1

    # a correction: P4-P2 1-0 becomes a draw. P2 and P4 now tie on ½ for third: 5000 / 2 = 2500 each.
    # BH: P3 = P4 ½ + P1 1½ = 2, P1 = P2 ½ + P3 1½ = 2: nothing separates the leaders, the trophy needs lots
    Game.objects.filter(white=p4).update(result=Result.DRAW)
    Event.objects.filter(pk=event.pk).update(results_version=2)
    store_snapshot(event.pk, 2, engine_snapshot(event), 0)
    again = prizes_recompute(event.pk, None)

    assert again is not None
    assert again.pk == allocation.pk and again.version == 2
    assert PrizeAllocation.objects.filter(fund__event=event).count() == 1
    awards = {present(a.entry.player).name: (a.money, a.items) for a in again.awards.select_related("entry__player")}
    assert awards == {"P1": (15000, []), "P3": (15000, []), "P2": (2500, []), "P4": (2500, [])}
    assert [line["code"] for line in again.lines][-1] == "item_needs_lot"


def test_an_older_snapshot_never_replaces_a_newer_allocation():
    event, snapshot = snapshot_event([player("Ana", 4), player("Bo", 3)], version=5)
    fund_with(event, places=[(1, 10000)])
    prizes_recompute(event.pk, snapshot)
    snapshot.version = 4  # a late writer with an older snapshot

    kept = prizes_recompute(event.pk, snapshot)

    assert kept is not None
    assert kept.version == 5


def test_no_fund_no_allocation():
    event, snapshot = snapshot_event([player("Ana", 4)])
    assert prizes_recompute(event.pk, snapshot) is None
    assert not PrizeAllocation.objects.exists()


def test_a_us_32b3_fund_cannot_be_places_first():
    from django.core.exceptions import ValidationError

    event, _ = snapshot_event([player("Ana", 4)])
    fund = PrizeFund(event=event, method="us-32b3", places_first=True)
    with pytest.raises(ValidationError):
        fund.clean()


# -------------------------------------------------------------------------------------------- API


def test_api_is_provisional_until_the_event_is_finished():
    event, snapshot = snapshot_event([player("Ana", 4), player("Bo", 3)])
    fund_with(event, places=[(1, 10000)])
    prizes_recompute(event.pk, snapshot)

    assert api(event).json()["provisional"] is True
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    body = api(event).json()
    assert body["provisional"] is False
    assert body["being_updated"] is False

    # new results not yet in the prizes: provisional again, and marked as being updated
    Event.objects.filter(pk=event.pk).update(results_version=2)
    StandingsSnapshot.objects.filter(event=event).update(version=2)
    body = api(event).json()
    assert body["provisional"] is True and body["being_updated"] is True


def _floats(value):
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _floats(item)
    elif isinstance(value, list):
        for item in value:
            yield from _floats(item)


def test_money_never_floats():
    # 10000 / 3 = 3333 each, 1 penny left: integers all the way, also tiebreak values are exact strings
    event, snapshot = snapshot_event(
        [player("Ana", 2.5, {"BH/C1": 4.25}), player("Bo", 2.5, {"BH/C1": 4.25}), player("Cai", 2.5, {"BH/C1": 3.75})]
    )
    fund_with(event, places=[(1, 10000, "Cup")], currency="EUR")
    prizes_recompute(event.pk, snapshot)

    body = api(event).json()

    assert list(_floats(body)) == []
    assert [a["money"] for a in body["awards"]] == [3333, 3333, 3333]
    assert (body["fund"], body["total_paid"], body["remainder"]) == (10000, 9999, 1)
    assert all(isinstance(a["money"], int) for a in body["awards"])
    assert {f.get_internal_type() for f in (Prize._meta.get_field("amount"), PrizeAward._meta.get_field("money"))} == {
        "PositiveIntegerField"
    }
    assert "€33.33 each" in body["lines"][0]["text"]


def test_api_answers_404_without_a_published_fund():
    event, _snapshot = snapshot_event([player("Ana", 4)])
    response = api(event)
    assert response.status_code == 404
    assert response.json()["code"] == "no_prize_fund"
    fund = fund_with(event, places=[(1, 100)])
    PrizeFund.objects.filter(pk=fund.pk).update(published=False)
    assert api(event).status_code == 404
    assert APIClient().get("/api/v1/events/no-such-event/prizes/").status_code == 404


def test_api_lines_carry_code_params_and_amounts_and_the_awards():
    event, snapshot = snapshot_event([player("Ana", 4, {"BH/C1": 12}), player("Bo", 4, {"BH/C1": 11.5})])
    fund_with(event, places=[(1, 20000, "Trophy"), (2, 10000)])
    prizes_recompute(event.pk, snapshot)

    body = api(event).json()

    assert body["currency"] == "GBP" and body["method"] == "pool"
    assert body["lines"][0]["code"] == "places_shared_pooled"
    assert body["lines"][0]["params"]["prizes"] == [[1, 20000], [2, 10000]]
    assert body["awards"] == [
        {"number": 1, "name": "Ana", "position": 1, "money": 15000, "items": ["Trophy"]},
        {"number": 2, "name": "Bo", "position": 2, "money": 15000, "items": []},
    ]
    assert [p["amount"] for p in body["prizes"]] == [20000, 10000]


# ------------------------------------------------------------------------------------------ admin


def _admin_client(client):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_superuser("prize-admin", "a@example.com", "pw")
    client.force_login(user)
    return client


def _fund_form(event, prizes):
    data = {
        "event": event.pk,
        "currency": "GBP",
        "method": "pool",
        "one_prize_per_player": "on",
        "remainder": "round_down",
        "item_tie": "lot",
        "lot_order": "[]",
        "published": "on",
        "prizes-TOTAL_FORMS": len(prizes),
        "prizes-INITIAL_FORMS": 0,
        "prizes-MIN_NUM_FORMS": 0,
        "prizes-MAX_NUM_FORMS": 1000,
    }
    for i, prize in enumerate(prizes):
        fields = {
            "kind": "place",
            "place": "",
            "category": "",
            "eligibility_kind": "",
            "eligibility_value": "",
            "rank": 1,
            "amount": 0,
            "item": "",
            "team_size": 3,
            **prize,
        }
        data.update({f"prizes-{i}-{key}": value for key, value in fields.items()})
    return data


def test_saving_a_fund_in_the_admin_shares_out_the_prizes(client):
    # two tied for first: (£60 + £40) / 2 = 5000 pence each
    event, _ = snapshot_event([player("Ana", 3), player("Bo", 3), player("Cai", 1)])
    admin = _admin_client(client)

    response = admin.post(
        "/admin/leagues/prizefund/add/",
        _fund_form(
            event,
            [
                {"place": 1, "amount": 6000},
                {"place": 2, "amount": 4000},
            ],
        ),
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    allocation = PrizeAllocation.objects.get(fund__event=event)
    assert money_by_name(allocation) == {"Ana": 5000, "Bo": 5000}
    assert admin.get("/admin/leagues/prizefund/").status_code == 200
    assert admin.get(f"/admin/leagues/prizefund/{allocation.fund_id}/change/").status_code == 200


def test_the_admin_refuses_a_category_prize_without_its_rule(client):
    event, _ = snapshot_event([player("Ana", 3)])
    response = _admin_client(client).post(
        "/admin/leagues/prizefund/add/",
        _fund_form(
            event,
            [
                {"kind": "category", "category": "U1800", "amount": 1000},
            ],
        ),
    )
    assert response.status_code == 200  # the form again, with the error
    assert not PrizeFund.objects.exists()


# ---------------------------------------------------------------------------------------- sentences


def test_every_reason_code_reads_as_a_sentence():
    from tiebreaks.prizes import REASONS

    scenarios: list[tuple[list[Any], dict[str, object]]] = [
        # no pooling: the tiebreak decides the money
        (
            [player("Ana", 3, {"BH/C1": 5}), player("Bo", 3, {"BH/C1": 4})],
            dict(places=[(1, 20000, "Cup"), (2, 10000)], method="none"),
        ),
        # remainder paid in tiebreak order; a place prize nobody can take (place 5 of 3 players)
        (
            [player("Ana", 3, {"BH/C1": 5}), player("Bo", 3, {"BH/C1": 4}), player("Cai", 3, {"BH/C1": 3})],
            dict(places=[(1, 10000), (5, 500)], remainder="by_tiebreak"),
        ),
        # fully tied: lots drawn for the cup
        ([player("Ana", 3), player("Bo", 3)], dict(places=[(1, 1000, "Cup")], lot_order=[2, 1])),
        # fully tied: the cup shared
        ([player("Ana", 3), player("Bo", 3)], dict(places=[(1, 1000, "Cup")], item_tie="shared")),
        # a category item to the only eligible player; a category nobody is eligible for
        (
            [player("Ana", 3, rating=1500), player("Bo", 2, rating=2100)],
            dict(categories=[("U1800", "rating_below", "1800", 0, 1, "Medal"), ("U1000", "rating_below", "1000", 700)]),
        ),
        # US 32B3: the youth gets more from the youth prize alone (5000 > 8000 / 3)
        (
            [player("Ana", 4, birth_year=2012), player("Bo", 4, birth_year=1980), player("Cai", 4, birth_year=1981)],
            dict(places=[(1, 3000)], categories=[("Youth", "born_after", "2008", 5000)], method="us-32b3"),
        ),
        # category prize shared, better prize taken, place prize, us32b3 pooled, remainder kept, items by tiebreak
        (
            [
                player("Ames", 4, {"BH/C1": 9}, birth_year=1980),
                player("Bell", 4, {"BH/C1": 8}, birth_year=2010),
                player("Cruz", 4, {"BH/C1": 7}, birth_year=1975),
                player("Diaz", 4, {"BH/C1": 6}, birth_year=1990),
            ],
            dict(
                places=[(1, 30000, "Cup"), (2, 20000)],
                categories=[("Youth", "born_after", "2008", 15001)],
                method="us-32b3",
            ),
        ),
        (
            [
                player("Ana", 4, rating=1700),
                player("Bo", 3, rating=1900),
                player("Cai", 2, rating=1750),
                player("Dev", 2, rating=1750),
            ],
            dict(places=[(1, 10000), (2, 5000)], categories=[("U1800", "rating_below", "1800", 4000)]),
        ),
        ([player("Ana", 4), player("Bo", 4), player("Cai", 4)], dict(places=[(1, 10000), (2, 5000), (3, 2500)])),
        (
            [player("Ana", 4, {"BH/C1": 2}), player("Bo", 4, {"BH/C1": 1}), player("Cai", 1, {"BH/C1": 1})],
            dict(places=[(1, 20000, "Cup"), (3, 50)]),
        ),
        ([player("Ana", 4), player("Bo", 4)], dict(places=[(1, 1000, "Cup")])),
        ([player("Ana", 5), player("Bo", 3)], dict(places=[(1, 1000, "Cup")])),
        # best club team: one club alone, then two clubs tied (one player each counts)
        (
            [player("Ana", 5, club="fjord"), player("Bo", 3, club="oslo"), player("Cai", 3, club="bergen")],
            dict(clubs=[(1, 1000, 1), (2, 600, 1)]),
        ),
    ]
    seen: dict[str, str] = {}  # reason code -> its text
    clubs = {slug: ClubFactory(slug=slug) for slug in ("fjord", "oslo", "bergen")}
    for rows, fund in scenarios:
        rows = [
            (name, points, values, {**fields, "club": clubs[fields["club"]]} if "club" in fields else fields)
            for name, points, values, fields in rows
        ]
        event, snapshot = snapshot_event(rows)
        fund_with(event, **fund)
        prizes_recompute(event.pk, snapshot)
        for line in api(event).json()["lines"]:
            seen.setdefault(line["code"], line["text"])

    assert set(seen) == set(REASONS), set(REASONS) - set(seen)
    for code, text in seen.items():
        assert text != code and "%(" not in text and text.endswith("."), (code, text)
    assert seen["us32b3_category_alone"] == (
        "Ana gets more from the Youth prize alone, which the others tied on points cannot win (US Chess 32B3): "
        "£50 instead of £26.66 from the pool."
    )
    assert seen["item_by_lot"] == (
        "Cup for place 1 to Bo by the drawing of lots among Ana and Bo, still tied after every tiebreak."
    )
