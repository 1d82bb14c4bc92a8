"""The server's garbage collector set-up (`server/collector.py`), in a process of its own: it changes
the collector of the whole process."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent('''
    import gc, time, weakref
    from minodice.server.collector import quiet_collector

    quiet_collector(sweep_every=0.3)
    frozen = gc.get_freeze_count()

    class Node:
        pass

    old = [Node() for _ in range(1000)]  # long-lived objects, like a table's events
    ring = Node()
    ring.me = ring  # a cycle: only the collector frees it
    ref = weakref.ref(ring)
    gc.collect(0)  # a young pass: the survivors are frozen
    assert gc.get_freeze_count() >= frozen + 1000, (frozen, gc.get_freeze_count())
    assert not gc.get_objects(1) and not gc.get_objects(2), "a young pass leaves no older generation to scan"

    young = [[Node()] for _ in range(30_000)]  # passes the young threshold: collections run by themselves
    assert not gc.get_objects(2)

    del ring
    gc.collect(0)
    assert ref() is not None, "a frozen cycle outlives the young passes"
    deadline = time.monotonic() + 10
    while ref() is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ref() is None, "the periodic full sweep frees it"
    assert old and young
    print("ok")
''')


def test_young_passes_scan_only_new_objects_and_the_sweep_frees_frozen_cycles() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
