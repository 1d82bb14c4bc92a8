"""`/docs` and `/redoc` work on a network without internet: their scripts come from the package
(static/vendor/, with their licences), checked in headless Chromium with every outside request refused."""

from __future__ import annotations

import re
import urllib.request
from typing import Any

from test_web_client import server  # noqa: F401  (the real `minodice serve` fixture)

PAGES = {"/docs": ".opblock", "/redoc": "[data-section-id]"}
#: ReDoc's bundle asks for its own small logo from its CDN and hides the image when that fails; nothing
#: else may leave this server.
SELF_HIDING = {"https://cdn.redoc.ly/redoc/logo-mini.svg"}


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=20) as reply:
        return reply.status, reply.headers.get("content-type", ""), reply.read()


def test_the_api_pages_name_only_this_server(server: str) -> None:  # noqa: F811
    for path in PAGES:
        status, _, body = _get(server + path)
        html = body.decode()
        assert status == 200
        links = re.findall(r"""(?:src|href)=["']([^"']+)""", html) + re.findall(r"url: '([^']+)'", html)
        assert links and all(link.startswith("/") for link in links), links
        for link in links:
            assert _get(server + link)[0] == 200, link
    for licence in ("/vendor/swagger-ui/LICENSE", "/vendor/redoc/LICENSE"):
        assert _get(server + licence)[0] == 200


def test_the_api_pages_render_offline_in_chromium(server: str, browser: Any) -> None:  # noqa: F811
    page = browser.new_page()
    outside: list[str] = []

    def only_this_server(route: Any) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    for path, selector in PAGES.items():
        page.goto(server + path)
        page.wait_for_selector(selector, timeout=30_000)
        assert "/api/" in page.content()
    assert set(outside) <= SELF_HIDING, outside
    page.close()
