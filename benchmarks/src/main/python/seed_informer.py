"""Subject (s) of the cold-start benchmark: the Python client's informer.

Starts the official client's SharedInformer (PyPI ``kubernetes``, pinned by the
benchmark harness) on the ConfigMaps of one namespace: a list into its cache, then a
watch from the list's resourceVersion. Prints one machine-readable line when the
informer has delivered the add of every expected object, which it does after the list
is in its cache; then, warm, WARM_SYNCS more informers one after another in the same
process, a line each; and exits.

Usage: seed_informer.py NAMESPACE EXPECTED_OBJECTS LAUNCH_EPOCH_SECONDS [WARM_SYNCS]
(the kubeconfig comes from KUBECONFIG).
"""

import time

STARTED = time.time()

import os  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402

from kubernetes import client, config  # noqa: E402
from kubernetes.informer import ADDED, SharedInformer  # noqa: E402


WARM_PREFIX = "COLD-START-WARM "


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    namespace = sys.argv[1]
    expected = int(sys.argv[2])
    launched = float(sys.argv[3])
    warm = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    config.load_kube_config()
    api = client.CoreV1Api()
    added = 0
    synced = threading.Event()

    def on_add(_obj):
        nonlocal added
        added += 1
        if added == expected:
            synced.set()

    informer = SharedInformer(list_func=api.list_namespaced_config_map, namespace=namespace)
    informer.add_event_handler(ADDED, on_add)
    informer_started = time.time()
    informer.start()
    if not synced.wait(timeout=600):
        print("COLD-START error=not-synced added=%d" % added, flush=True)
        sys.exit(2)
    now = time.time()
    cpu = cpu_seconds()
    print(
        "COLD-START launched=%.6f started=%.6f informer_started=%.6f synced=%.6f "
        "synced_ms=%.1f time_to_sync_ms=%.1f cpu_ms=%.1f cached=%d"
        % (launched, STARTED, informer_started, now, (now - launched) * 1000,
           (now - informer_started) * 1000, cpu * 1000, len(informer.cache.list())),
        flush=True,
    )
    # warm: more informers in the same process, one after another
    for _ in range(warm):
        # not stop(): it joins the watch thread, blocked in its read until an event
        # arrives; the daemon thread leaves at its next event
        informer._stop_event.set()
        added = 0
        synced.clear()
        informer = SharedInformer(list_func=api.list_namespaced_config_map, namespace=namespace)
        informer.add_event_handler(ADDED, on_add)
        cpu_before = cpu_seconds()
        started = time.time()
        informer.start()
        if not synced.wait(timeout=600):
            print("COLD-START error=not-synced added=%d" % added, flush=True)
            sys.exit(2)
        print("%stime_to_sync_ms=%.1f cpu_ms=%.1f cached=%d"
              % (WARM_PREFIX, (time.time() - started) * 1000, (cpu_seconds() - cpu_before) * 1000,
                 len(informer.cache.list())), flush=True)
    # the watch thread may be blocked in a read: leave without joining it
    os._exit(0)


if __name__ == "__main__":
    main()
