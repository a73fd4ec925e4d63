"""Headers every API answer carries: the client's rate limit (X-RateLimit-*), and for reads an ETag with
304 Not Modified when If-None-Match already names it (made from the body where a view set none)."""

from django.utils.cache import get_conditional_response, set_response_etag


class ApiHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith("/api/"):
            return response
        limit = getattr(request, "rate_limit", None)
        if limit is not None:
            response["X-RateLimit-Limit"], response["X-RateLimit-Remaining"], response["X-RateLimit-Reset"] = (
                str(value) for value in limit
            )
        if request.method in ("GET", "HEAD") and response.status_code == 200 and not response.streaming:
            if not response.has_header("ETag"):
                set_response_etag(response)
            conditional = get_conditional_response(request, etag=response["ETag"], response=response)
            if conditional is None:
                raise RuntimeError("given an answer, Django returns it or its 304/412")
            if conditional is not response:
                for header in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
                    if response.has_header(header):
                        conditional[header] = response[header]
            return conditional
        return response
