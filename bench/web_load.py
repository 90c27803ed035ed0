"""Load check of `crossridor serve`: N clients at once each ask for a best
move (POST /api/best, alpha-beta for 0.2 s by default) while a probe keeps
asking /api/health; prints how many got answers, how long they took, and
the probe's response times during the load (the server stays responsive
because searches run in worker threads, off the event loop).

    python bench/web_load.py [--clients 20] [--time 0.2] [--game quoridor]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.request


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--time", type=float, default=0.2)
    ap.add_argument("--port", type=int, default=8779)
    ap.add_argument("--moves", default="e2 e8 e3 e7")
    args = ap.parse_args()
    base = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen([sys.executable, "-m", "crossridor", "serve", "--port", str(args.port)],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        answers, latencies, probe = [], [], []
        done = threading.Event()

        def client(i):
            t0 = time.perf_counter()
            r = post(base + "/api/best", {"game": "quoridor", "moves": args.moves,
                                          "engine": f"alphabeta:time={args.time}"})
            latencies.append(time.perf_counter() - t0)
            answers.append(r["move"])

        def prober():
            while not done.is_set():
                t0 = time.perf_counter()
                urllib.request.urlopen(base + "/api/health", timeout=10).read()
                probe.append(time.perf_counter() - t0)
                time.sleep(0.01)

        p = threading.Thread(target=prober)
        p.start()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        done.set()
        p.join()
        print(f"{len([a for a in answers if a])}/{args.clients} clients got a move "
              f"(alphabeta {args.time} s each) in {wall:.2f} s wall; per client: "
              f"median {statistics.median(latencies):.2f} s, max {max(latencies):.2f} s")
        print(f"/api/health during the load: {len(probe)} requests, median {1000 * statistics.median(probe):.1f} ms, "
              f"max {1000 * max(probe):.1f} ms")
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
