"""The Content-Security-Policy of every answer: scripts, styles, images and fonts only from the site itself,
no inline script, no plugin, forms posting only here, framed by no other site (the embeddable widgets,
which are framed on purpose, leave out frame-ancestors)."""

POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)
NOT_FRAMED = "frame-ancestors 'none'"


def content_security_policy(get_response):
    def middleware(request):
        response = get_response(request)
        if "Content-Security-Policy" not in response:
            framed = getattr(response, "xframe_options_exempt", False)
            response["Content-Security-Policy"] = "; ".join(POLICY if framed else (*POLICY, NOT_FRAMED))
        return response

    return middleware
