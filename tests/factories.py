import factory
from django.contrib.auth import get_user_model

from leagues.models import Club, ClubMembership, Entry, Event, Game, League, Player, Role, Round


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player, Number{n}")
    rating = factory.Sequence(lambda n: 2000 - n)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    rounds_count = 5
    status = Event.Status.PUBLISHED


def swiss_event(players=4, rounds=5, club=None, **kwargs):
    """An individual Swiss event with `players` entries (all in `club` if given) and round 1 paired."""
    event = EventFactory(rounds_count=rounds, **kwargs)
    entries = []
    for n in range(1, players + 1):
        player = PlayerFactory()
        if club is not None:
            ClubMembership.objects.create(player=player, club=club)
        entries.append(Entry.objects.create(event=event, start_number=n, player=player, rating=player.rating))
    rnd = Round.objects.create(event=event, number=1)
    half = players // 2
    games = [
        Game.objects.create(round=rnd, board=b + 1, white=entries[b], black=entries[b + half]) for b in range(half)
    ]
    if players % 2:
        games.append(Game.objects.create(round=rnd, board=half + 1, white=entries[-1]))
    return event, entries, games


def organiser_of(league):
    user = UserFactory()
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    return user
