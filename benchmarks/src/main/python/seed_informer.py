"""Subject (s) of the cold-start benchmark: the Python client's informer.

Starts the official client's SharedInformer (PyPI ``kubernetes``, pinned by the
benchmark harness) on the ConfigMaps of one namespace: a list into its cache, then a
watch from the list's resourceVersion. Prints one machine-readable line when the
informer has delivered the add of every expected object, which it does after the list
is in its cache, and exits.

Usage: seed_informer.py NAMESPACE EXPECTED_OBJECTS LAUNCH_EPOCH_SECONDS
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


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    namespace = sys.argv[1]
    expected = int(sys.argv[2])
    launched = float(sys.argv[3])
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
    # the watch thread may be blocked in a read: leave without joining it
    os._exit(0)


if __name__ == "__main__":
    main()
