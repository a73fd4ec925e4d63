"""The Django admin of league rules (imported by leagues.admin): a rule is saved and deleted through
services.league_rules, as the pages do (checked, then every saved card of its divisions checked again); the
violations found are read here and decided in the organiser's inbox (the disputes page)."""

from django.contrib import admin, messages

from . import models
from .errors import ServiceError
from .services.league_rules import rule_delete, rule_save


@admin.register(models.LeagueRule)
class LeagueRuleAdmin(admin.ModelAdmin):
    list_display = ("league", "event", "kind", "severity", "value", "penalty")
    list_filter = ("league", "kind", "severity")

    def get_readonly_fields(self, request, obj=None):
        return ["league", "event", "kind"] if obj is not None and obj.pk else []  # another rule: add it

    def save_model(self, request, obj, form, change):
        try:
            saved = rule_save(
                league=obj.league,
                event=obj.event,
                user=request.user,
                kind=obj.kind,
                severity=obj.severity,
                value=obj.value,
                penalty=obj.penalty,
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
            return
        obj.pk = saved.pk

    def delete_model(self, request, obj):
        rule_delete(rule=obj, user=request.user)


@admin.register(models.RuleViolation)
class RuleViolationAdmin(admin.ModelAdmin):
    list_display = ("match", "kind", "severity", "side", "board", "player", "status", "penalty")
    list_filter = ("status", "kind")
    readonly_fields = tuple(f.name for f in models.RuleViolation._meta.fields)

    def has_add_permission(self, request):
        return False
