"""Subject (s) of the cold-start and per-process benchmarks: the Python client's informer.

Starts the official client's SharedInformer (PyPI ``kubernetes``, pinned by the
benchmark harness) on the ConfigMaps of one namespace: a list into its cache, then a
watch from the list's resourceVersion. Prints one machine-readable line when the
informer has delivered the add of every expected object, which it does after the list
is in its cache; then, warm, WARM_SYNCS more informers one after another in the same
process, a line each; and exits.

Usage: seed_informer.py NAMESPACE EXPECTED_OBJECTS LAUNCH_EPOCH_SECONDS [WARM_SYNCS]
(the kubeconfig comes from KUBECONFIG).

With --start (seed_informer.py --start NAMESPACE EXPECTED_OBJECTS) it is subject (s) of
the start benchmark (StartBenchmark.java): it starts its informer at once, says
"BENCH STARTED" with the epoch milliseconds of its start (before its imports), its
informer's start and synced, and its CPU time (/proc/self/stat) at both, then serves the
stream's commands (await, count, exit).

With --protocol (seed_informer.py --protocol NAMESPACE EXPECTED_OBJECTS) it is subject
(s) of the per-process benchmark instead, driven over stdin and stdout by the line
protocol every subject speaks (SubjectProtocol.java): commands sync, prepare, heap,
await FIRST COUNT, count and exit; answers "BENCH VERB key=value ...".
"""

import time

STARTED = time.time()

import os  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import types  # noqa: E402

from kubernetes import client, config  # noqa: E402
from kubernetes.informer import ADDED, MODIFIED, SharedInformer  # noqa: E402


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


_OUT = threading.Lock()


def emit(verb, **pairs):
    line = "BENCH " + verb + "".join(" %s=%s" % (k, v) for k, v in pairs.items())
    with _OUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Tally:
    """Adds, for the sync; the distinct sequence numbers of the updates in the window
    the harness set, for the stream."""

    def __init__(self, expected):
        self.expected = expected
        self.lock = threading.Lock()
        self.synced = threading.Event()
        self.adds = 0
        self.updates = 0
        self.first = 0
        self.seen = None
        self.received = 0

    def added(self, _obj):
        with self.lock:
            self.adds += 1
            if self.adds == self.expected:
                self.synced.set()

    def reset_adds(self):
        with self.lock:
            self.adds = 0
            self.synced.clear()
            if self.expected == 0:
                self.synced.set()

    def updated(self, obj):
        reached = False
        with self.lock:
            self.updates += 1
            if self.seen is None:
                return
            try:
                index = int((obj.data or {}).get("seq")) - self.first
            except (TypeError, ValueError):
                return
            if 0 <= index < len(self.seen) and not self.seen[index]:
                self.seen[index] = 1
                self.received += 1
                reached = self.received == len(self.seen)
        if reached:
            emit("REACHED", first=self.first, received=len(self.seen))

    def window(self, first, count):
        with self.lock:
            self.first = first
            self.seen = bytearray(count)
            self.received = 0
        if count == 0:
            emit("REACHED", first=first, received=0)


def deep_size(root):
    """sys.getsizeof summed over the objects reachable from root, each once: the
    cache's dict, its keys, and the model objects (pydantic models) with everything they
    hold through their __dict__ and __slots__, but not a client configuration, classes or
    functions."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
            types.MethodType, client.Configuration)
    slots = {}
    seen = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        else:
            if hasattr(obj, "__dict__"):
                stack.append(obj.__dict__)
            names = slots.get(type(obj))
            if names is None:
                names = [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())
                         if name not in ("__dict__", "__weakref__")]
                slots[type(obj)] = names
            for name in names:
                value = getattr(obj, name, None)
                if value is not None:
                    stack.append(value)
    return total


def serve(namespace, expected):
    config.load_kube_config()
    api = client.CoreV1Api()
    # the first request opens the connection before the sync, as every subject does
    api.list_namespaced_config_map(namespace, limit=1)
    tally = Tally(expected)
    holder = {}

    def prepare():
        old = holder.get("informer")
        if old is not None:
            # not stop(): it joins the watch thread, blocked in its read until an event
            old._stop_event.set()
        tally.reset_adds()
        informer = SharedInformer(list_func=api.list_namespaced_config_map, namespace=namespace)
        informer.add_event_handler(ADDED, tally.added)
        informer.add_event_handler(MODIFIED, tally.updated)
        holder["informer"] = informer

    prepare()
    emit("READY", pid=os.getpid(), client="kubernetes-" + __import__("kubernetes").__version__)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "sync":
            start_epoch = time.time()
            started = time.monotonic()
            holder["informer"].start()
            if not tally.synced.wait(timeout=600):
                emit("ERROR", message="not-synced", added=tally.adds)
                os._exit(2)
            ended = time.monotonic()
            emit("SYNCED", ms="%.3f" % ((ended - started) * 1000), items=len(holder["informer"].cache.list_keys()),
                 start_epoch_ms=int(start_epoch * 1000), end_epoch_ms=int(time.time() * 1000))
        elif command == "prepare":
            prepare()
            emit("READY", pid=os.getpid())
        elif command == "heap":
            informer = holder["informer"]
            emit("HEAP", bytes=deep_size(informer.cache._objects), items=len(informer.cache.list_keys()),
                 method="python-getsizeof")
        elif command == "await":
            tally.window(int(words[1]), int(words[2]))
        elif command == "count":
            emit("COUNT", received=tally.received, updates=tally.updates)
        elif command == "exit":
            break
        else:
            emit("ERROR", message="unknown-command")
    sys.stdout.flush()
    # the watch thread may be blocked in a read: leave without joining it
    os._exit(0)


def proc_cpu_ms():
    """This process's user + system CPU time from /proc/self/stat, as the harness and
    every other subject of the start benchmark read it."""
    with open("/proc/self/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def start(namespace, expected):
    config.load_kube_config()
    api = client.CoreV1Api()
    tally = Tally(expected)
    informer = SharedInformer(list_func=api.list_namespaced_config_map, namespace=namespace)
    informer.add_event_handler(ADDED, tally.added)
    informer.add_event_handler(MODIFIED, tally.updated)
    informer_epoch = time.time()
    informer_cpu = proc_cpu_ms()
    informer.start()
    if not tally.synced.wait(timeout=600):
        emit("ERROR", message="not-synced", added=tally.adds)
        os._exit(2)
    synced_epoch = time.time()
    synced_cpu = proc_cpu_ms()
    emit("STARTED", pid=os.getpid(), main_epoch_ms="%.3f" % (STARTED * 1000),
         informer_epoch_ms="%.3f" % (informer_epoch * 1000), synced_epoch_ms="%.3f" % (synced_epoch * 1000),
         informer_cpu_ms="%.1f" % informer_cpu, synced_cpu_ms="%.1f" % synced_cpu,
         items=len(informer.cache.list_keys()))
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "await":
            tally.window(int(words[1]), int(words[2]))
        elif words[0] == "count":
            emit("COUNT", received=tally.received, updates=tally.updates)
        elif words[0] == "exit":
            break
        else:
            emit("ERROR", message="unknown-command")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--start":
        start(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--protocol":
        serve(sys.argv[2], int(sys.argv[3]))
    else:
        main()
