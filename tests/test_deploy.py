"""docs/deploy.md's nginx configuration, run for real: TLS in front of two server processes on PostgreSQL.

The `nginx` block is taken from the page as it is; only what must differ on a
test machine is replaced (the two upstream ports, the listening port, the
certificate — a throwaway self-signed one made with openssl). A game is then
played through the proxy over https:// and wss://. Skipped where nginx or
openssl is missing — failed instead where CI sets MINODICE_REQUIRE_PROXY.
"""

from __future__ import annotations

import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import postgres_cluster
from minodice import record
from test_server_common import Player, ServerProcess, free_port, play_out, start

pg_url = postgres_cluster.pg_url  # the fixture
DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"


def _need(tool: str) -> str:
    found = shutil.which(tool) or (f"/usr/sbin/{tool}" if Path(f"/usr/sbin/{tool}").exists() else None)
    if found is None:
        reason = f"{tool} is not installed"
        if os.environ.get("MINODICE_REQUIRE_PROXY"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def _trust(cert: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cert))


def nginx_block() -> str:
    """The page's nginx configuration."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.S)
    assert len(blocks) == 1, "docs/deploy.md shows one nginx configuration"
    return blocks[0]


def test_the_page_shows_what_a_host_needs() -> None:
    text = DEPLOY.read_text()
    conf = nginx_block()
    for needed in ("proxy_set_header Upgrade", "proxy_http_version 1.1", "ssl_certificate", "upstream minodice"):
        assert needed in conf
    assert "--secret-file" in text or "MINODICE_SECRET_FILE" in text
    assert "postgresql+psycopg://" in text


@pytest.fixture
def proxied(pg_url: str, tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """(https base, wss base, CA file): nginx with the page's configuration before two server processes."""
    nginx, openssl = _need("nginx"), _need("openssl")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=60,
    )
    secret = tmp_path / "secret.key"
    servers = [ServerProcess(pg_url, tmp_path / f"server{i}.log", secret_file=secret).start() for i in (1, 2)]
    port = free_port()
    conf = nginx_block()
    conf = conf.replace("127.0.0.1:8001", f"127.0.0.1:{servers[0].port}")
    conf = conf.replace("127.0.0.1:8002", f"127.0.0.1:{servers[1].port}")
    conf = conf.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    conf = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", conf)
    conf = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", conf)
    assert str(servers[0].port) in conf and str(cert) in conf and str(port) in conf
    prefix = tmp_path / "nginx"
    (prefix / "logs").mkdir(parents=True)
    temp = prefix / "temp"
    temp.mkdir()
    main = prefix / "nginx.conf"
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the test's private directory
    main.write_text(
        f"daemon off;\n{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\nerror_log {prefix / 'logs' / 'error.log'};\n"
        "events { worker_connections 256; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {temp}/body;\n  proxy_temp_path {temp}/proxy;\n"
        f"  fastcgi_temp_path {temp}/fcgi;\n  uwsgi_temp_path {temp}/uwsgi;\n  scgi_temp_path {temp}/scgi;\n"
        f"{conf}\n}}\n"
    )
    proc = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(main)], stderr=subprocess.PIPE)
    base = f"https://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "nginx exited"
            try:
                if httpx.get(base + "/healthz", verify=_trust(cert), timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield base, f"wss://127.0.0.1:{port}", cert
    finally:
        proc.terminate()
        proc.wait(10)
        for srv in servers:
            srv.stop()


def test_a_game_through_nginx_over_tls(proxied: tuple[str, str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    base, ws_base, cert = proxied
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the websocket client trusts the test certificate
    with httpx.Client(base_url=base, verify=_trust(cert), timeout=10) as http:
        # Round robin: the two processes answer in turn, and either knows every table.
        answered = {http.get("/healthz").json()["process"] for _ in range(4)}
        assert len(answered) == 2
        body = http.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", None], "name": "Ana"}).json()
        code = body["table"]["code"]
        bo = http.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()["token"]
        start(http, code, body["host_token"])
        ana = Player(ws_base, code, body["token"])
        bob = Player(ws_base, code, bo)
        play_out([ana, bob], timeout=90)
        rec = http.get(f"/api/tables/{code}/record").json()
        assert record.check(rec) is None and len(rec["hands"]) == 8
        ana.close()
        bob.close()
        # The proxy passes the body limit on: a lobby body past the server's 64 KiB is refused by the server.
        r = http.post("/api/tables", content=b"{" + b" " * 70_000 + b"}", headers={"Content-Type": "application/json"})
        assert r.status_code == 413
