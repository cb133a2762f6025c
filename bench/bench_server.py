"""Load on the web app: how many photos (or scored hands) a second one server answers, how long each waits, and
whether its memory grows under load. Not a test: numbers for the README and for spotting regressions.

Starts ``uvicorn`` with ``server.app:create_app`` in a subprocess on a free loopback port, sends one warm-up
request (the first photo loads the models), then ``--clients`` threads each POST in a loop for ``--seconds``.
Prints progress every few seconds, then requests/s, p50/p95 latency, errors, and the server's RSS (VmRSS from
/proc) at start, after the warm-up and after the run. Client threads share the machine's cores with the server.

    python bench/bench_server.py [--mode recognize|score|live] [--seconds 30] [--clients 4] [--photo PATH]
                                 [--shared ../shared]

``--mode live`` measures live mode instead: one viewer on the WebSocket /api/live sends a frame, waits for its
table, sends the next (as the page does), and the frames read per second are printed with the median time the
server took per frame.

Without ``--photo`` the photo is a generated scene (``datasets.scenes.render_scene``, phone-corner framing,
1024x768 JPEG), which needs the tile art in ../shared.
"""
from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from datasets.generate import default_shared  # noqa: E402

HAND = {"hand": "123m456p789s11z 555z", "win_tile": "5z", "context": {"tsumo": True, "dora_indicators": ["4z"]}}


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scene_jpeg(shared: Path, seed: int = 7) -> bytes:
    import cv2
    import numpy as np

    from datasets.scenes import render_scene

    if not (shared / "data" / "tile-art").is_dir():
        sys.exit(f"no tile art under {shared}/data/tile-art: pass --photo PATH or --shared")
    scene = render_scene(np.random.default_rng(seed), shared, framing="corner")
    return cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "server.app:create_app", "--factory", "--host",
                             "127.0.0.1", "--port", str(port), "--log-level", "warning"],
                            cwd=REPO, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/rulesets", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.terminate()
    sys.exit("the server did not answer within 60 s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["recognize", "score", "live"], default="recognize")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--photo", type=Path, help="a photo to send (default: a generated scene)")
    ap.add_argument("--shared", type=Path, default=default_shared())
    ap.add_argument("--every", type=float, default=5, help="seconds between progress lines")
    args = ap.parse_args()

    if args.mode == "live":
        return live(args.photo.read_bytes() if args.photo else scene_jpeg(args.shared), args.seconds)
    if args.mode == "recognize":
        photo = args.photo.read_bytes() if args.photo else scene_jpeg(args.shared)
        what = f"POST /api/recognize, {args.photo or 'a generated 1024x768 scene'} ({len(photo) / 1024:.0f} KiB)"
        request = dict(url="/api/recognize", files={"photo": ("photo.jpg", photo, "image/jpeg")})
    else:
        what, request = f"POST /api/score {HAND['hand']!r}", dict(url="/api/score", json=HAND)

    port = free_port()
    proc = start_server(port)
    try:
        base = f"http://127.0.0.1:{port}"
        rss_start = rss_mib(proc.pid)
        t0 = time.perf_counter()
        warm = httpx.post(base + request["url"], timeout=120, **{k: v for k, v in request.items() if k != "url"})
        warm_s = time.perf_counter() - t0
        if warm.status_code != 200:
            sys.exit(f"warm-up request failed: {warm.status_code} {warm.text[:300]}")
        rss_warm = rss_mib(proc.pid)
        print(f"{what}; {args.clients} clients for {args.seconds:g} s; warm-up request {warm_s:.2f} s", flush=True)

        latencies, errors, stop = [], [], time.monotonic() + args.seconds

        def client():
            with httpx.Client(base_url=base, timeout=120) as c:
                while time.monotonic() < stop:
                    t = time.perf_counter()
                    try:
                        r = c.post(**request)
                        ok = r.status_code == 200
                    except httpx.HTTPError as e:
                        ok, r = False, e
                    (latencies if ok else errors).append(time.perf_counter() - t if ok else repr(r)[:200])

        threads = [threading.Thread(target=client, daemon=True) for _ in range(args.clients)]
        start = time.monotonic()
        for t in threads:
            t.start()
        while time.monotonic() < stop:
            time.sleep(max(0.0, min(args.every, stop - time.monotonic())))
            elapsed = time.monotonic() - start
            print(f"  {elapsed:5.1f} s: {len(latencies)} done, {len(latencies) / elapsed:.1f}/s, "
                  f"{len(errors)} errors, server RSS {rss_mib(proc.pid):.0f} MiB", flush=True)
        for t in threads:  # the requests in flight at the end still count
            t.join()
        elapsed = time.monotonic() - start
        rss_end = rss_mib(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

    lat = sorted(latencies)
    pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
    print(f"requests: {len(lat)} ok, {len(errors)} errors in {elapsed:.1f} s = {len(lat) / elapsed:.2f} requests/s")
    print(f"latency: p50 {pct(0.50):.1f} ms, p95 {pct(0.95):.1f} ms, max {pct(1.0):.1f} ms")
    print(f"server RSS: {rss_start:.0f} MiB at start, {rss_warm:.0f} MiB after warm-up, {rss_end:.0f} MiB after the run")
    for e in errors[:3]:
        print(f"  error: {e}")


def live(frame: bytes, seconds: float) -> None:
    import json
    import statistics

    from websockets.sync.client import connect

    port = free_port()
    proc = start_server(port)
    try:
        with connect(f"ws://127.0.0.1:{port}/api/live", max_size=2**24) as ws:
            ws.send(frame)  # warm-up: the first frame loads the models
            json.loads(ws.recv(timeout=120))
            answers, server_ms, start = 0, [], time.monotonic()
            while time.monotonic() - start < seconds:
                ws.send(frame)
                out = json.loads(ws.recv(timeout=60))
                answers += 1
                server_ms.append(out["ms"])
            elapsed = time.monotonic() - start
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"live: {answers} frames in {elapsed:.1f} s = {answers / elapsed:.2f} frames/s; "
          f"median {statistics.median(server_ms):.0f} ms per frame in the server; "
          f"{len(out['tiles'])} stable tiles in the last answer")


if __name__ == "__main__":
    main()
