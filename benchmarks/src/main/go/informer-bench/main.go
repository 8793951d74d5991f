// Command informer-bench is subject (g) of the per-process benchmark: client-go's
// SharedInformerFactory with one ConfigMap informer on a namespace and a handler that
// only counts, driven by the harness over stdin and stdout with the same line protocol
// as the JVM and Python subjects (docs/benchmarks.md, "Per process"):
//
//	harness -> subject: sync | prepare | heap | await FIRST COUNT | count | exit
//	subject -> harness: BENCH READY|SYNCED|HEAP|REACHED|COUNT|ERROR key=value ...
//
// With -start it is subject (g) of the start benchmark (StartBenchmark.java) instead: it
// starts its informer at once, says "BENCH STARTED" with the epoch milliseconds of its
// main, its informer's start and synced, and its CPU time (/proc/self/stat) at both, then
// serves await, count and exit.
//
// Usage: informer-bench [-start] [-json] [-disable-compression] NAMESPACE EXPECTED_OBJECTS, with
// the kubeconfig from KUBECONFIG. By default client-go v0.37 asks for protobuf for
// built-in types and for gzip-encoded responses; -json and -disable-compression make it
// ask for what the JVM and Python clients ask for. Whether the initial state comes from
// a list or a watch-list is client-go's WatchListClient feature gate (on by default in
// v0.37; KUBE_FEATURE_WatchListClient=false turns it off). READY says which of each.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/features"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

const seqKey = "seq"

// mainStarted is when the program's code first ran: package variables are initialized
// before main.
var mainStarted = time.Now()

// procCPUMillis is this process's user + system CPU time from /proc/self/stat, as the
// harness and every other subject of the start benchmark read it; ticks per second from
// BENCH_CLK_TCK (100 without it).
func procCPUMillis() float64 {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return -1
	}
	text := string(data)
	fields := strings.Fields(text[strings.LastIndex(text, ")")+2:])
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	ticks := int64(100)
	if value, err := strconv.ParseInt(os.Getenv("BENCH_CLK_TCK"), 10, 64); err == nil && value > 0 {
		ticks = value
	}
	return float64(utime+stime) * 1000 / float64(ticks)
}

func epochMillis(t time.Time) string {
	return fmt.Sprintf("%.3f", float64(t.UnixNano())/1e6)
}

var out = struct {
	sync.Mutex
	w *bufio.Writer
}{w: bufio.NewWriter(os.Stdout)}

// emit prints one protocol line.
func emit(verb string, pairs ...any) {
	var b strings.Builder
	b.WriteString("BENCH ")
	b.WriteString(verb)
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, " %v=%v", pairs[i], pairs[i+1])
	}
	out.Lock()
	defer out.Unlock()
	out.w.WriteString(b.String())
	out.w.WriteByte('\n')
	out.w.Flush()
}

// window counts the distinct sequence numbers of one measured range that the handler saw.
type window struct {
	sync.Mutex
	first    int64
	seen     []bool
	received int
	updates  int64
}

func (w *window) set(first int64, count int) {
	w.Lock()
	w.first = first
	w.seen = make([]bool, count)
	w.received = 0
	w.Unlock()
	if count == 0 {
		emit("REACHED", "first", first, "received", 0)
	}
}

func (w *window) updated(cm *corev1.ConfigMap) {
	w.Lock()
	w.updates++
	if w.seen == nil {
		w.Unlock()
		return
	}
	seq, err := strconv.ParseInt(cm.Data[seqKey], 10, 64)
	index := seq - w.first
	if err != nil || index < 0 || index >= int64(len(w.seen)) || w.seen[index] {
		w.Unlock()
		return
	}
	w.seen[index] = true
	w.received++
	reached := w.received == len(w.seen)
	received := w.received
	first := w.first
	w.Unlock()
	if reached {
		emit("REACHED", "first", first, "received", received)
	}
}

func (w *window) counts() (int, int64) {
	w.Lock()
	defer w.Unlock()
	return w.received, w.updates
}

// subject is one informer at a time on the namespace; prepare replaces it.
type subject struct {
	client    kubernetes.Interface
	namespace string
	expected  int
	window    *window

	factory  informers.SharedInformerFactory
	informer cache.SharedIndexInformer
	stop     chan struct{}
	adds     int
	addsMu   sync.Mutex
	synced   chan struct{}
	baseline uint64
}

func (s *subject) prepare() error {
	if s.stop != nil {
		close(s.stop)
		s.factory.Shutdown()
	}
	s.stop = make(chan struct{})
	s.synced = make(chan struct{})
	s.addsMu.Lock()
	s.adds = 0
	s.addsMu.Unlock()
	s.factory = informers.NewSharedInformerFactoryWithOptions(s.client, 0, informers.WithNamespace(s.namespace))
	s.informer = s.factory.Core().V1().ConfigMaps().Informer()
	synced := s.synced
	_, err := s.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			s.addsMu.Lock()
			s.adds++
			done := s.adds == s.expected
			s.addsMu.Unlock()
			if done {
				close(synced)
			}
		},
		UpdateFunc: func(_, obj any) {
			if cm, ok := obj.(*corev1.ConfigMap); ok {
				s.window.updated(cm)
			}
		},
	})
	return err
}

func (s *subject) sync() {
	started := time.Now()
	s.factory.Start(s.stop)
	if s.expected > 0 {
		<-s.synced
	}
	ended := time.Now()
	emit("SYNCED", "ms", fmt.Sprintf("%.3f", float64(ended.Sub(started).Nanoseconds())/1e6),
		"items", len(s.informer.GetStore().ListKeys()),
		"start_epoch_ms", started.UnixMilli(), "end_epoch_ms", ended.UnixMilli())
}

// serve answers the stream's commands after a start: await, count, exit.
func serve(s *subject) {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "await":
			first, _ := strconv.ParseInt(fields[1], 10, 64)
			count, _ := strconv.Atoi(fields[2])
			s.window.set(first, count)
		case "count":
			received, updates := s.window.counts()
			emit("COUNT", "received", received, "updates", updates)
		case "exit":
			os.Exit(0)
		default:
			emit("ERROR", "message", "unknown-command")
		}
	}
	os.Exit(0)
}

// heapAlloc is the live heap after two collections.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return stats.HeapAlloc
}

func main() {
	disableCompression := flag.Bool("disable-compression", false,
		"do not ask for gzip-encoded responses (client-go asks by default)")
	json := flag.Bool("json", false, "ask for JSON (client-go asks for protobuf by default)")
	start := flag.Bool("start", false, "start the informer at once and say STARTED (the start benchmark)")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: informer-bench [-json] [-disable-compression] NAMESPACE EXPECTED_OBJECTS")
		os.Exit(2)
	}
	expected, err := strconv.Atoi(flag.Arg(1))
	if err != nil {
		emit("ERROR", "message", "bad-expected-count")
		os.Exit(2)
	}
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		clientcmd.NewDefaultClientConfigLoadingRules(), &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		emit("ERROR", "message", "no-kubeconfig")
		os.Exit(1)
	}
	// no client-side throttling: one list and one watch, as the JVM and Python clients
	config.QPS = 1000
	config.Burst = 1000
	config.DisableCompression = *disableCompression
	contentType := "protobuf"
	if *json {
		config.ContentType = "application/json"
		config.AcceptContentTypes = "application/json"
		contentType = "json"
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		emit("ERROR", "message", "no-client")
		os.Exit(1)
	}
	if *start {
		s := &subject{client: client, namespace: flag.Arg(0), expected: expected, window: &window{}}
		if err := s.prepare(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			emit("ERROR", "message", "prepare-failed")
			os.Exit(1)
		}
		informerStarted := time.Now()
		informerCPU := procCPUMillis()
		s.factory.Start(s.stop)
		if s.expected > 0 {
			<-s.synced
		}
		synced := time.Now()
		emit("STARTED", "pid", os.Getpid(), "main_epoch_ms", epochMillis(mainStarted),
			"informer_epoch_ms", epochMillis(informerStarted), "synced_epoch_ms", epochMillis(synced),
			"informer_cpu_ms", fmt.Sprintf("%.1f", informerCPU), "synced_cpu_ms", fmt.Sprintf("%.1f", procCPUMillis()),
			"items", len(s.informer.GetStore().ListKeys()))
		serve(s)
		return
	}
	// the first request opens the connection (TLS handshake) before the informer starts,
	// as every subject does
	if _, err := client.Discovery().ServerVersion(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		emit("ERROR", "message", "server-unreachable")
		os.Exit(1)
	}
	s := &subject{client: client, namespace: flag.Arg(0), expected: expected, window: &window{}}
	if err := s.prepare(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		emit("ERROR", "message", "prepare-failed")
		os.Exit(1)
	}
	s.baseline = heapAlloc()
	emit("READY", "pid", os.Getpid(), "client", "client-go-v0.37.2",
		"watchlist", features.FeatureGates().Enabled(features.WatchListClient),
		"compression", !*disableCompression, "content", contentType)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "sync":
			s.sync()
		case "prepare":
			if err := s.prepare(); err != nil {
				emit("ERROR", "message", "prepare-failed")
				os.Exit(1)
			}
			emit("READY", "pid", os.Getpid())
		case "heap":
			after := heapAlloc()
			emit("HEAP", "bytes", int64(after)-int64(s.baseline), "items", len(s.informer.GetStore().ListKeys()),
				"method", "go-heapalloc")
		case "await":
			first, _ := strconv.ParseInt(fields[1], 10, 64)
			count, _ := strconv.Atoi(fields[2])
			s.window.set(first, count)
		case "count":
			received, updates := s.window.counts()
			emit("COUNT", "received", received, "updates", updates)
		case "exit":
			os.Exit(0)
		default:
			emit("ERROR", "message", "unknown-command")
		}
	}
	os.Exit(0)
}
