"""Reads for pages and the API: they show the latest snapshot and never run the engine."""

from dataclasses import dataclass

from django.db.models import Prefetch

from .models import Event, League, StandingsSnapshot


@dataclass
class EventStandings:
    event: Event
    snapshot: StandingsSnapshot | None

    @property
    def being_updated(self) -> bool:
        """True while results are newer than the standings shown."""
        stored = self.snapshot.version if self.snapshot else 0
        return self.event.results_version > stored

    @property
    def rows(self) -> list[dict]:
        return self.snapshot.rows if self.snapshot else []

    @property
    def table(self) -> list[dict]:
        """Rows with their tiebreak values in the published order (jsonb does not keep key order)."""
        return [{**row, "cells": [row["values"].get(code) for code in self.criteria]} for row in self.rows]

    @property
    def criteria(self) -> list[str]:
        return self.snapshot.criteria if self.snapshot else list(self.event.tiebreak_criteria)


def leagues_with_events():
    return League.objects.prefetch_related(
        Prefetch("events", queryset=Event.objects.public().select_related("season"))
    )


def event_standings(*, slug: str) -> EventStandings:
    event = Event.objects.public().select_related("league", "season").get(slug=slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    return EventStandings(event=event, snapshot=snapshot)
