# syntax=docker/dockerfile:1
# The production image. Web (gunicorn, the default command), worker and beat all run from it; see
# docker-compose.yml and docs/operations.md. The build steps live in scripts/build-image, which CI
# also runs into a fresh virtual environment (tests/integration/test_image_build.py).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS builder
RUN apt-get update \
 && apt-get install -y --no-install-recommends gettext \
 && rm -rf /var/lib/apt/lists/*
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /app
COPY . .
# the virtual environment (/opt/venv), compiled translations (locale/*/LC_MESSAGES/django.mo) and
# collected static files with their manifest (staticfiles/), checked with `check --deploy`
RUN --mount=type=cache,target=/root/.cache/pip scripts/build-image /opt/venv

FROM ${PYTHON_IMAGE} AS runtime
RUN groupadd --system --gid 10001 chess \
 && useradd --system --uid 10001 --gid chess --home-dir /app --shell /usr/sbin/nologin chess
COPY --from=builder /opt/venv /opt/venv
COPY --from=builder /app /app
WORKDIR /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.prod \
    DEBUG=false \
    PORT=8000 \
    WEB_CONCURRENCY=3 \
    WEB_THREADS=8
USER chess
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["python", "scripts/healthcheck.py"]
# gunicorn binds 0.0.0.0:$PORT: $WEB_CONCURRENCY workers of $WEB_THREADS threads each, no control socket
# (config/gunicorn.py, the production serving config)
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi"]
