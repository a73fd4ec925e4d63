"""Login with throttling: after a few failed attempts for one username from one address, refuse for a while."""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import caches


def _key(request) -> str:
    username = (request.POST.get("username") or "").strip().lower()[:150]
    address = request.META.get("REMOTE_ADDR", "")
    return f"login-failures:{address}:{username}"


class ThrottledLoginView(auth_views.LoginView):
    cache = caches["default"]

    def post(self, request, *args, **kwargs):
        if (self.cache.get(_key(request)) or 0) >= settings.LOGIN_ATTEMPTS:
            form = self.get_form()
            form.errors.clear()
            context = self.get_context_data(form=form, throttled=True)
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        key = _key(self.request)
        self.cache.add(key, 0, settings.LOGIN_LOCKOUT_SECONDS)
        self.cache.incr(key)
        return super().form_invalid(form)

    def form_valid(self, form):
        self.cache.delete(_key(self.request))
        return super().form_valid(form)
