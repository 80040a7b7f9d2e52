// Command graph measures lore's graph store on a generated power-law graph:
// bulk load, bytes per edge on disk, single upserts, neighbourhood and
// traversal latencies, export and import. See BENCHMARKS.md.
//
//	go run ./bench/graph [-nodes 100000] [-m 10] [-queries 1000] [-dir DIR]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/lorehq/lore/graph"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() (err error) {
	nodes := flag.Int("nodes", 100_000, "nodes")
	m := flag.Int("m", 10, "edges added with each node (preferential attachment)")
	queries := flag.Int("queries", 1000, "queries per latency measurement")
	dir := flag.String("dir", "", "store directory (default: a temporary one, removed after)")
	seed := flag.Uint64("seed", 1, "random seed")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	jsonOut := flag.String("json", "", "only write the generated graph as lore's graph JSON to this file (for cli.sh)")
	flag.Parse()
	if *jsonOut != "" {
		ids, edges := generate(rand.New(rand.NewPCG(*seed, 42)), *nodes, *m)
		return writeJSON(*jsonOut, ids, edges)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	// Queries run on this thread, so its CPU time is their cost whatever
	// else the machine runs (Badger's background work is elsewhere).
	runtime.LockOSThread()
	if *dir == "" {
		d, err := os.MkdirTemp("", "lore-graph-bench-")
		if err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(d) }() // best effort: not a measurement
		*dir = d
	}
	rng := rand.New(rand.NewPCG(*seed, 42))

	fmt.Printf("machine: %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	_, few := generate(rand.New(rand.NewPCG(*seed, 7)), 1100, *m)
	if err := exportImport(ctx, *dir, few[:10_000]); err != nil {
		return err
	}
	few = nil
	runtime.GC()

	t0 := time.Now()
	ids, edges := generate(rng, *nodes, *m)
	maxIn, maxOut := degrees(edges)
	fmt.Printf("graph: %d nodes, %d edges (Barabási–Albert, m=%d; max in-degree %d, max out-degree %d), generated in %s\n",
		len(ids), len(edges), *m, maxIn, maxOut, time.Since(t0).Round(time.Millisecond))
	fmt.Printf("edge types: %v\n", typeCounts(edges))

	// Bulk load into an empty on-disk store, with the larger memtable a
	// rebuild asks for.
	s, err := graph.Open(filepath.Join(*dir, "db"), graph.Options{Schema: 1, MemTableSize: 64 << 20})
	if err != nil {
		return err
	}
	nodeList := make([]graph.Node, len(ids))
	for i, id := range ids {
		nodeList[i] = graph.Node{ID: id}
	}
	fmt.Printf("load average before: %s\n", loadAvg())
	t0 = time.Now()
	cpu0 := cpuTime()
	if err := s.Load(ctx, nodeList, edges); err != nil {
		return err
	}
	load := time.Since(t0)
	if err := s.Close(); err != nil {
		return err
	}
	loadClose := time.Since(t0)
	fmt.Printf("bulk load: %s (%s including Close; process CPU %s) [target ≤ 10s: %s]\n", load.Round(time.Millisecond),
		loadClose.Round(time.Millisecond), (cpuTime() - cpu0).Round(time.Millisecond), pass(loadClose <= 10*time.Second))
	apparent, allocated, err := diskUsage(filepath.Join(*dir, "db"))
	if err != nil {
		return err
	}
	perEdge := float64(allocated) / float64(len(edges))
	fmt.Printf("on disk after close: %.1f MiB apparent, %.1f MiB allocated: %.1f / %.1f bytes per edge [target ≤ 150: %s]\n",
		mib(apparent), mib(allocated), float64(apparent)/float64(len(edges)), perEdge, pass(perEdge <= 150 && float64(apparent)/float64(len(edges)) <= 150))

	t0 = time.Now()
	s, err = graph.Open(filepath.Join(*dir, "db"), graph.Options{Schema: 1})
	if err != nil {
		return err
	}
	fmt.Printf("open (cold process state, warm page cache): %s; LSM tables per level %v\n", time.Since(t0).Round(time.Microsecond), s.Tables())
	defer func() {
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}()
	t0 = time.Now()
	st, err := s.Stats()
	if err != nil {
		return err
	}
	keys := st.Nodes + st.EdgesByType[graph.CoChangesWith]*2 + st.Edges
	fmt.Printf("Stats() right after open (first touch of the tables) iterates %d keys in %s (%.0f ns/key)\n",
		keys, time.Since(t0).Round(time.Millisecond), float64(time.Since(t0).Nanoseconds())/float64(keys))
	if st.Edges != len(edges) {
		return fmt.Errorf("stats say %d edges, loaded %d", st.Edges, len(edges))
	}
	// Keep what the measurements need and drop the generated graph, so
	// that the garbage collector does not scan a million edges while the
	// queries run (a lore process does not hold the graph in memory).
	hubs := topHubs(edges, 20)
	sample := make([]graph.Edge, 0, 1000)
	for range cap(sample) {
		sample = append(sample, edges[rng.IntN(len(edges))])
	}
	edges, nodeList = nil, nil
	runtime.GC()

	seeds := make([]string, *queries)
	for i := range seeds {
		seeds[i] = ids[rng.IntN(len(ids))]
	}
	measure := func(name string, limit time.Duration, q func(seed string) (int, error)) error {
		lat := make([]time.Duration, 0, len(seeds))
		cpu := make([]time.Duration, 0, len(seeds))
		total := 0
		for _, sd := range seeds {
			t, c := time.Now(), threadCPU()
			n, err := q(sd)
			if err != nil {
				return fmt.Errorf("%s from %s: %w", name, sd, err)
			}
			lat = append(lat, time.Since(t))
			cpu = append(cpu, threadCPU()-c)
			total += n
		}
		report(name, lat, limit, fmt.Sprintf("mean %d results; load average %s", total/len(seeds), loadAvg()))
		report("  same, CPU time of the querying thread", cpu, limit, "")
		return nil
	}

	// Single upserts: half new edges, half updates of existing ones.
	lat := make([]time.Duration, 0, *queries)
	cpu := make([]time.Duration, 0, *queries)
	for i := range *queries {
		e := sample[rng.IntN(len(sample))]
		if i%2 == 0 {
			e = graph.Edge{Type: graph.LinksTo, From: ids[rng.IntN(len(ids))], To: ids[rng.IntN(len(ids))], Relation: "bench", Weight: rng.Float64()}
			if e.From == e.To {
				continue
			}
		}
		t, c := time.Now(), threadCPU()
		if _, err := s.UpsertEdge(e); err != nil {
			return err
		}
		lat = append(lat, time.Since(t))
		cpu = append(cpu, threadCPU()-c)
	}
	report("single upsert (own transaction)", lat, time.Millisecond, "")
	report("  same, CPU time of the calling thread", cpu, time.Millisecond, "")

	neighbourhood := func(sd string) (int, error) {
		g, err := s.Neighborhood(ctx, graph.TraverseOptions{Seeds: []string{sd}, Depth: 2, Limit: 100})
		if err != nil {
			return 0, err
		}
		return len(g.Nodes) + len(g.Edges), nil
	}
	if err := measure("depth-2 neighbourhood, both directions, limit 100 (first queries: the store's uid→id cache is cold)", 5*time.Millisecond, neighbourhood); err != nil {
		return err
	}
	for i := range seeds { // other seeds for the second pass
		seeds[i] = ids[rng.IntN(len(ids))]
	}
	if err := measure("depth-2 neighbourhood, both directions, limit 100 (new seeds, after 1,000 queries)", 5*time.Millisecond, neighbourhood); err != nil {
		return err
	}
	if err := measure("depth-2 traverse, both directions, limit 100", 5*time.Millisecond, func(sd string) (int, error) {
		rs, err := s.Traverse(ctx, graph.TraverseOptions{Seeds: []string{sd}, Depth: 2, Limit: 100})
		return len(rs), err
	}); err != nil {
		return err
	}
	if err := measure("depth-2 traverse, out-edges, no limit", 10*time.Millisecond, func(sd string) (int, error) {
		rs, err := s.Traverse(ctx, graph.TraverseOptions{Seeds: []string{sd}, Depth: 2, Direction: graph.Out})
		return len(rs), err
	}); err != nil {
		return err
	}
	if err := measure("3-hop traverse, both directions, limit 100", 50*time.Millisecond, func(sd string) (int, error) {
		rs, err := s.Traverse(ctx, graph.TraverseOptions{Seeds: []string{sd}, Depth: 3, Limit: 100})
		return len(rs), err
	}); err != nil {
		return err
	}
	seeds = seeds[:0]
	for range *queries / 10 {
		seeds = append(seeds, hubs[rng.IntN(len(hubs))])
	}
	if err := measure("worst case: depth-2 neighbourhood from the 20 biggest hubs, limit 100", 0, func(sd string) (int, error) {
		g, err := s.Neighborhood(ctx, graph.TraverseOptions{Seeds: []string{sd}, Depth: 2, Limit: 100})
		if err != nil {
			return 0, err
		}
		return len(g.Nodes) + len(g.Edges), nil
	}); err != nil {
		return err
	}

	return nil
}

// exportImport measures export and re-import of 10,000 edges, in a process
// that holds nothing else yet.
func exportImport(ctx context.Context, dir string, sub []graph.Edge) error {
	small, err := graph.Open(filepath.Join(dir, "small"), graph.Options{Schema: 1})
	if err != nil {
		return err
	}
	if err := small.Load(ctx, nil, sub); err != nil {
		return err
	}
	var buf bytes.Buffer
	var exp, imp, expCPU, impCPU []time.Duration
	for i := range 10 {
		buf.Reset()
		t, c := time.Now(), cpuTime()
		if err := small.Export(ctx, &buf, graph.JSON); err != nil {
			return err
		}
		exp = append(exp, time.Since(t))
		expCPU = append(expCPU, cpuTime()-c)
		fresh, err := graph.Open(filepath.Join(dir, fmt.Sprintf("import%d", i)), graph.Options{Schema: 1})
		if err != nil {
			return err
		}
		t, c = time.Now(), cpuTime()
		if err := fresh.Import(ctx, bytes.NewReader(buf.Bytes())); err != nil {
			return err
		}
		imp = append(imp, time.Since(t))
		impCPU = append(impCPU, cpuTime()-c)
		if err := fresh.Close(); err != nil {
			return err
		}
	}
	if err := small.Close(); err != nil {
		return err
	}
	report("export 10,000 edges as JSON", exp, 100*time.Millisecond, fmt.Sprintf("%.1f MiB; load average %s", mib(int64(buf.Len())), loadAvg()))
	report("  same, process CPU time", expCPU, 100*time.Millisecond, "")
	report("import 10,000 edges from JSON into an empty store", imp, 100*time.Millisecond, "")
	report("  same, process CPU time (all threads)", impCPU, 100*time.Millisecond, "")
	return nil
}

// writeJSON writes the graph in the shape `lore graph import` reads: nodes
// by id, edges with type, ends, relation and weight.
func writeJSON(path string, ids []string, edges []graph.Edge) error {
	type node struct {
		ID string `json:"id"`
	}
	type edge struct {
		Type     graph.EdgeType `json:"type"`
		From     string         `json:"from"`
		To       string         `json:"to"`
		Relation string         `json:"relation,omitempty"`
		Weight   float64        `json:"weight"`
	}
	doc := struct {
		Nodes []node `json:"nodes"`
		Edges []edge `json:"edges"`
	}{make([]node, len(ids)), make([]edge, len(edges))}
	for i, id := range ids {
		doc.Nodes[i] = node{id}
	}
	for i, e := range edges {
		doc.Edges[i] = edge{e.Type, e.From, e.To, e.Relation, e.Weight}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = json.NewEncoder(w).Encode(doc)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func pass(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// threadCPU is the CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID).
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(fmt.Sprintf("clock_gettime: %v", errno)) // cannot fail for this clock
	}
	return time.Duration(ts.Nano())
}

// cpuTime is the user+system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(fmt.Sprintf("getrusage: %v", err)) // cannot fail for RUSAGE_SELF
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func report(name string, lat []time.Duration, limit time.Duration, note string) {
	slices.Sort(lat)
	p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	verdict := ""
	if limit > 0 {
		verdict = "PASS"
		if p(0.95) > limit {
			verdict = "FAIL"
		}
		verdict = fmt.Sprintf(" [target p95 ≤ %s: %s]", limit, verdict)
	}
	fmt.Printf("%s: n=%d p50 %s p95 %s p99 %s max %s%s %s\n", name, len(lat),
		r(p(0.5)), r(p(0.95)), r(p(0.99)), r(lat[len(lat)-1]), verdict, note)
}

func r(d time.Duration) time.Duration {
	if d > time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func diskUsage(dir string) (apparent, allocated int64, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		apparent += info.Size()
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			allocated += st.Blocks * 512
		}
		return nil
	})
	return apparent, allocated, err
}

// generate builds a Barabási–Albert graph: each new node links to m
// existing nodes chosen with probability proportional to their degree, so
// degrees follow a power law. Node kinds and edge types follow lore's
// model: one node in ten is a learning, one a symbol, the rest files.
func generate(rng *rand.Rand, n, m int) ([]string, []graph.Edge) {
	ids := make([]string, n)
	kind := func(i int) int { return i % 10 } // 0 learning, 1 symbol, else file
	for i := range ids {
		mod, pkg := i%97, i%13
		switch kind(i) {
		case 0:
			ids[i] = fmt.Sprintf("learning:%010x", rng.Uint64()>>24)
		case 1:
			ids[i] = fmt.Sprintf("symbol:src/module%03d/pkg%02d/file%06d.go::Type%d::Method%d", mod, pkg, i, i%7, i%11)
		default:
			ids[i] = fmt.Sprintf("file:src/module%03d/pkg%02d/file%06d.go", mod, pkg, i)
		}
	}
	var ends []int // every edge end, for degree-proportional choice
	edges := make([]graph.Edge, 0, n*m)
	for v := 1; v < n; v++ {
		seen := map[int]bool{}
		for len(seen) < min(m, v) {
			var u int
			if len(ends) == 0 || rng.IntN(10) == 0 {
				u = rng.IntN(v)
			} else {
				u = ends[rng.IntN(len(ends))]
			}
			if seen[u] || u == v {
				continue
			}
			seen[u] = true
			ends = append(ends, u, v)
			edges = append(edges, edge(rng, ids, kind, v, u))
		}
	}
	return ids, edges
}

func edge(rng *rand.Rand, ids []string, kind func(int) int, v, u int) graph.Edge {
	kv, ku := kind(v), kind(u)
	switch {
	case kv == 0 && ku == 0:
		rels := []string{"caused_by", "implements", "supersedes", "relates_to"}
		return graph.Edge{Type: graph.LinksTo, From: ids[v], To: ids[u], Relation: rels[rng.IntN(len(rels))], Weight: rng.Float64()}
	case kv == 0:
		return graph.Edge{Type: graph.AnchoredTo, From: ids[v], To: ids[u], Weight: 1}
	case ku == 0:
		return graph.Edge{Type: graph.AnchoredTo, From: ids[u], To: ids[v], Weight: 1}
	case rng.IntN(4) == 0:
		return graph.Edge{Type: graph.CoChangesWith, From: ids[v], To: ids[u], Weight: rng.Float64()}
	default:
		return graph.Edge{Type: graph.Imports, From: ids[v], To: ids[u], Weight: 1}
	}
}

func degrees(edges []graph.Edge) (maxIn, maxOut int) {
	in, out := map[string]int{}, map[string]int{}
	for _, e := range edges {
		in[e.To]++
		out[e.From]++
	}
	for _, d := range in {
		maxIn = max(maxIn, d)
	}
	for _, d := range out {
		maxOut = max(maxOut, d)
	}
	return maxIn, maxOut
}

func topHubs(edges []graph.Edge, k int) []string {
	deg := map[string]int{}
	for _, e := range edges {
		deg[e.To]++
		deg[e.From]++
	}
	ids := make([]string, 0, len(deg))
	for id := range deg {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return deg[b] - deg[a] })
	return ids[:min(k, len(ids))]
}

func typeCounts(edges []graph.Edge) map[graph.EdgeType]int {
	c := map[graph.EdgeType]int{}
	for _, e := range edges {
		c[e.Type]++
	}
	return c
}
