from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", RedirectView.as_view(url="/en/", permanent=False)),
]
urlpatterns += i18n_patterns(
    path("", include("leagues.urls")),
    prefix_default_language=True,
)
