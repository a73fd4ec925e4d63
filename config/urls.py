from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.language import root as language_root
from config.language import switch_language
from leagues.admin import worker_status_view
from leagues.health import healthz, ping
from leagues.manage.account import password_reset_view
from leagues.manage.login import login_view, refuse_when_locked

urlpatterns = [
    path("admin/worker/", admin.site.admin_view(worker_status_view), name="worker-status"),
    path("admin/login/", refuse_when_locked(admin.site.login)),  # the same throttle as the site's login
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("ping", ping, name="ping"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("lang/", switch_language, name="switch-language"),
    path("api/v1/", include("leagues.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves Swagger UI's start-up as a script file: no inline script (CSP)
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("embed/<str:lang>/", include("leagues.public.embed_urls")),
    path("", language_root, name="root"),
]
urlpatterns += i18n_patterns(
    path("manage/", include("leagues.manage.urls")),
    path("about/", TemplateView.as_view(template_name="about.html"), name="about"),
    path("accounts/login/", login_view, name="login"),
    path("accounts/password_reset/", password_reset_view, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("leagues.public.urls")),
    path("", include("tiebreaks.urls")),
    prefix_default_language=True,
)
