"""nginx in front of a cluster, from the shipped configuration (``deploy/nginx/baccarat.conf``):
the test writes the two files of its own that the configuration includes (the nodes, the
listening port) and a main ``nginx.conf`` with every path in its folder, and runs Debian's
``nginx`` in the foreground on a free port."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from serving import ServerProcess, free_port, services_required, wait_until

__all__ = ["NGINX", "Nginx"]

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "baccarat.conf"


class Nginx:
    """nginx on a free port in front of ``nodes``, stopped with ``stop``."""

    def __init__(self, folder: Path, nodes: Sequence[ServerProcess]) -> None:
        if not os.access(NGINX, os.X_OK):
            if services_required():
                raise AssertionError(f"BACCARAT_REQUIRE_SERVICES=1 but there is no {NGINX}")
            pytest.skip("no nginx on this machine (make test installs Debian's nginx-light)")
        self.folder = folder
        self.port = free_port()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "baccarat-nodes.conf").write_text(
            "".join(f"server 127.0.0.1:{n.port} max_fails=1 fail_timeout=5s;\n" for n in nodes)
        )
        (folder / "baccarat-listen.conf").write_text(
            f"listen 127.0.0.1:{self.port};\nserver_name 127.0.0.1;\n"
        )
        user = "user root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\ndaemon off;\npid {folder}/nginx.pid;\n"
            f"error_log {folder}/error.log warn;\nevents {{ worker_connections 4096; }}\n"
            "http {\n"
            f"  access_log off;\n  client_body_temp_path {folder}/body;\n"
            f"  proxy_temp_path {folder}/proxy;\n  fastcgi_temp_path {folder}/fastcgi;\n"
            f"  uwsgi_temp_path {folder}/uwsgi;\n  scgi_temp_path {folder}/scgi;\n"
            f"  include {SHIPPED};\n"
            "}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Nginx:
        # The shipped file includes its two neighbours by relative name: from the prefix.
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            cwd=self.folder,
            stderr=subprocess.PIPE,
        )

        seen: list[str] = []

        def up() -> bool | None:
            assert self.process is not None
            if self.process.poll() is not None:
                _, err = self.process.communicate()
                raise AssertionError(f"nginx stopped: {err.decode(errors='replace')}")
            try:
                answer = httpx.get(f"{self.url}/healthz", timeout=1, trust_env=False)
            except httpx.HTTPError as error:
                seen.append(repr(error))
                return None
            seen.append(f"{answer.status_code} {answer.text[:200]}")
            return answer.status_code == 200 or None

        try:
            wait_until(up, 20, "nginx to answer")
        except AssertionError:
            self.stop()
            raise AssertionError(f"nginx did not pass /healthz on: {seen[-3:]}") from None
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
