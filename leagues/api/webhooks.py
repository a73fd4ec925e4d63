"""Webhook subscriptions through the API: subscribe, list, read, delete, resume, send a test event, and
each subscription's delivery log (newest first, cursor pages)."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from ..models import Scope, WebhookDelivery, WebhookSubscription
from ..services.webhooks import (
    SUBSCRIBABLE,
    subscription_of,
    webhook_resume,
    webhook_send_test,
    webhook_subscribe,
    webhook_unsubscribe,
)
from .auth import TokenScope
from .serializers import ErrorSerializer


class SubscriptionSerializer(serializers.ModelSerializer):
    events = serializers.ListField(child=serializers.ChoiceField(choices=SUBSCRIBABLE), min_length=1)
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    paused = serializers.SerializerMethodField()

    class Meta:
        model = WebhookSubscription
        fields: tuple[str, ...] = (
            "id",
            "url",
            "events",
            "league",
            "club",
            "event",
            "created_at",
            "paused",
            "failures_in_a_row",
        )

    def get_paused(self, subscription) -> bool:
        return subscription.paused_at is not None


class SubscribeSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=500)
    events = serializers.ListField(child=serializers.ChoiceField(choices=SUBSCRIBABLE), min_length=1)
    league = serializers.SlugField(required=False)
    club = serializers.SlugField(required=False)
    event = serializers.SlugField(required=False)


class NewSubscriptionSerializer(SubscriptionSerializer):
    secret = serializers.CharField(read_only=True, help_text="Signs every delivery; shown in this answer only.")

    class Meta(SubscriptionSerializer.Meta):
        fields = (*SubscriptionSerializer.Meta.fields, "secret")


class DeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookDelivery
        fields = ("id", "event_type", "status", "attempts", "response_code", "error", "created_at", "last_attempt_at")


class NewestFirst(CursorPagination):
    ordering = "-created_at"
    page_size = 50


class WebhookViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Your webhook subscriptions (organisers, club secretaries; tokens need the `webhooks` scope)."""

    permission_classes = (permissions.IsAuthenticated, TokenScope)
    read_scope = Scope.WEBHOOKS
    required_scope = Scope.WEBHOOKS
    serializer_class = SubscriptionSerializer
    pagination_class = NewestFirst
    queryset = WebhookSubscription.objects.none()

    def get_queryset(self):
        return WebhookSubscription.objects.filter(owner=self.request.user).select_related("league", "club", "event")

    @extend_schema(
        request=SubscribeSerializer,
        responses={201: NewSubscriptionSerializer, 401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def create(self, request):
        """Subscribe an HTTPS URL to a league, a club or an event; the answer carries the signing secret."""
        body = SubscribeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        subscription = webhook_subscribe(
            user=request.user,
            url=data["url"],
            events=data["events"],
            league=data.get("league"),
            club=data.get("club"),
            event=data.get("event"),
        )
        answer = NewSubscriptionSerializer(subscription).data | {"secret": subscription.secret}
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: SubscriptionSerializer, 404: ErrorSerializer})
    def retrieve(self, request, pk=None):
        return Response(SubscriptionSerializer(subscription_of(user=request.user, subscription_id=_id(pk))).data)

    @extend_schema(responses={204: None, 404: ErrorSerializer})
    def destroy(self, request, pk=None):
        webhook_unsubscribe(user=request.user, subscription_id=_id(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={202: DeliverySerializer, 404: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def test(self, request, pk=None):
        """Send a `test` event to this subscription now (see its delivery log for the answer)."""
        delivery = webhook_send_test(user=request.user, subscription_id=_id(pk))
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={200: SubscriptionSerializer, 404: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        """Deliver again to a subscription that paused after repeated failures."""
        return Response(SubscriptionSerializer(webhook_resume(user=request.user, subscription_id=_id(pk))).data)

    @extend_schema(responses={200: DeliverySerializer(many=True), 404: ErrorSerializer})
    @action(detail=True)
    def deliveries(self, request, pk=None):
        """The subscription's delivery log: status, attempts, the receiver's response code, times."""
        subscription = subscription_of(user=request.user, subscription_id=_id(pk))
        page = self.paginate_queryset(WebhookDelivery.objects.filter(subscription=subscription))
        return self.get_paginated_response(DeliverySerializer(page, many=True).data)


def _id(pk) -> int:
    return int(pk) if str(pk).isdecimal() and len(str(pk)) < 10 else 0
