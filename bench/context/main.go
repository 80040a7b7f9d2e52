// Command context-bench prepares a workspace for the context benchmarks
// and times them (see run.sh):
//
//	context-bench gen -repo DIR [-n 1000]        1,000 learnings anchored to real symbols and files, with links
//	context-bench cli -lore BIN -repo DIR [-runs 30] FILE...   whole-process `lore context FILE --format json`
//	context-bench mcp -lore BIN -repo DIR [-runs 30] FILE...   lore_context calls to one `lore mcp` after start-up
//	context-bench inproc -repo DIR [-runs 30] [-cpuprofile F] FILE...   Workspace.Context in process (store open, sync, ranking)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/learnfile"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: context-bench gen|cli|mcp [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	repo := fs.String("repo", ".", "workspace")
	n := fs.Int("n", 1000, "learnings to generate")
	bin := fs.String("lore", "lore", "lore binary")
	runs := fs.Int("runs", 30, "timed runs per target")
	prof := fs.String("cpuprofile", "", "inproc: write a CPU profile")
	_ = fs.Parse(os.Args[2:]) // ExitOnError: a bad flag exits
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(*repo, *n)
	case "cli":
		err = cli(*bin, *repo, *runs, fs.Args())
	case "mcp":
		err = mcpBench(*bin, *repo, *runs, fs.Args())
	case "inproc":
		err = inproc(*repo, *runs, *prof, fs.Args())
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "context-bench:", err)
		os.Exit(2)
	}
}

var words = strings.Fields(`buffer overflow retries deadline cancel context timeout parse encode decode
	escape unicode allocation goroutine leak mutex race channel close error wrap sentinel
	panic recover reflect interface nil slice capacity append map iteration order sort stable
	hash seed signal syscall file descriptor socket keepalive header chunked gzip flush
	compress checksum utf8 rune width locale timezone monotonic clock overflow`)

// gen adds n learnings through the library (so baselines are recorded),
// anchored to functions and files of the index, a tenth linked to an
// earlier learning.
func gen(repo string, n int) error {
	ctx := context.Background()
	ws, err := lore.Open(repo, lore.Options{})
	if err != nil {
		return err
	}
	var syms []analyzer.Symbol
	err = ws.Symbols(ctx, nil, func(s analyzer.Symbol) error {
		if (s.Kind == "function" || s.Kind == "method") && !strings.HasSuffix(s.Path, "_test.go") && strings.HasSuffix(s.Path, ".go") &&
			!strings.Contains(s.Path, "testdata/") {
			syms = append(syms, s)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(syms) == 0 {
		return errors.New("no symbols: run lore index first")
	}
	// Names declared twice in a file (init) cannot anchor by name.
	count := map[string]int{}
	for _, s := range syms {
		count[s.FQName]++
	}
	syms = slices.DeleteFunc(syms, func(s analyzer.Symbol) bool { return count[s.FQName] > 1 })
	// Resume after an interrupted run.
	have, err := ws.List(ctx, lore.ListOptions{})
	if err != nil {
		return err
	}
	var ids []string
	for _, l := range have {
		ids = append(ids, l.ID)
	}
	r := rand.New(rand.NewPCG(1, uint64(len(have))))
	start := time.Now()
	for i := len(have); i < n; i++ {
		s := syms[r.IntN(len(syms))]
		var anchors []string
		switch i % 4 {
		case 0, 1:
			anchors = []string{s.FQName}
		case 2:
			anchors = []string{s.Path}
		case 3:
			anchors = []string{s.FQName, path.Dir(s.Path) + "/" + path.Base(s.Path)}
		}
		w := func() string { return words[r.IntN(len(words))] }
		opts := lore.AddOptions{
			Title:   fmt.Sprintf("%s must handle %s %s", s.Name, w(), w()),
			Body:    fmt.Sprintf("Learned in incident %d: %s in %s broke on %s %s; keep the %s check.", i, s.Name, s.Path, w(), w(), w()),
			Tags:    []string{path.Base(path.Dir(s.Path)), w()},
			Anchors: anchors,
		}
		if i%10 == 9 && len(ids) > 0 {
			opts.Links = []learnfile.Link{{To: ids[r.IntN(len(ids))], Type: "relates", Weight: 0.8}}
		}
		l, err := ws.Add(ctx, opts)
		if err != nil {
			return fmt.Errorf("learning %d: %w", i, err)
		}
		ids = append(ids, l.ID)
		if (i+1)%100 == 0 {
			fmt.Fprintf(os.Stderr, "%d learnings, %v\n", i+1, time.Since(start).Round(time.Millisecond))
		}
	}
	return nil
}

func cli(bin, repo string, runs int, targets []string) error {
	if len(targets) == 0 {
		return errors.New("give target files")
	}
	var all, allCPU []time.Duration
	for _, t := range targets {
		var ds, cpu []time.Duration
		var out []byte
		for range runs + 1 {
			cmd := exec.Command(bin, "-C", repo, "context", t, "--format", "json")
			start := time.Now()
			o, err := cmd.Output()
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("lore context %s: %v", t, err)
			}
			out = o
			ds = append(ds, d)
			cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
		ds, cpu = ds[1:], cpu[1:] // the first run warms the page cache
		all, allCPU = append(all, ds...), append(allCPU, cpu...)
		fmt.Printf("lore context %-40s wall p50 %6.1f ms  p90 %6.1f ms  cpu p50 %5.1f ms  (%d runs, %d learnings listed)\n", t, ms(pct(ds, 50)), ms(pct(ds, 90)), ms(pct(cpu, 50)), len(ds), strings.Count(string(out), `"reason"`))
	}
	fmt.Printf("lore context (all targets)%-28s wall p50 %6.1f ms  p90 %6.1f ms  cpu p50 %5.1f ms  (%d runs)\n", "", ms(pct(all, 50)), ms(pct(all, 90)), ms(pct(allCPU, 50)), len(all))
	return nil
}

func mcpBench(bin, repo string, runs int, targets []string) (err error) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "context-bench", Version: "v0"}, nil)
	start := time.Now()
	cmd := exec.Command(bin, "-C", repo, "mcp")
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	cpuStart, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := session.Close(); err == nil {
			err = cerr
		}
	}()
	fmt.Printf("lore mcp start-up and initialize: %.1f ms\n", ms(time.Since(start)))
	var all []time.Duration
	for _, t := range targets {
		var ds []time.Duration
		for i := range runs + 1 {
			start := time.Now()
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "lore_context", Arguments: map[string]any{"targets": []string{t}}})
			d := time.Since(start)
			if err != nil {
				return err
			}
			if res.IsError {
				return fmt.Errorf("lore_context %s: %v", t, res.Content)
			}
			if i > 0 {
				ds = append(ds, d)
			}
		}
		all = append(all, ds...)
		fmt.Printf("mcp lore_context %-36s p50 %6.1f ms  p90 %6.1f ms  (%d calls)\n", t, ms(pct(ds, 50)), ms(pct(ds, 90)), len(ds))
	}
	cpuEnd, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return err
	}
	fmt.Printf("mcp lore_context (all targets)%-24s p50 %6.1f ms  p90 %6.1f ms  (%d calls), server cpu %.1f ms per call (mean)\n", "", ms(pct(all, 50)), ms(pct(all, 90)), len(all),
		ms(cpuEnd-cpuStart)/float64(len(all)+len(targets)))
	return nil
}

// procCPU returns the user and system time a process has used so far (in
// clock ticks of 10 ms: good for means over many calls).
func procCPU(pid int) (time.Duration, error) {
	name := fmt.Sprintf("/proc/%d/stat", pid)
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func inproc(repo string, runs int, prof string, targets []string) error {
	ctx := context.Background()
	ws, err := lore.Open(repo, lore.Options{})
	if err != nil {
		return err
	}
	if prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var all, syncs []time.Duration
	for _, t := range targets {
		var ds []time.Duration
		for i := range runs + 1 {
			start := time.Now()
			if _, err := ws.Sync(ctx); err != nil {
				return err
			}
			mid := time.Now()
			if _, err := ws.Context(ctx, lore.ContextOptions{Targets: []string{t}}); err != nil {
				return err
			}
			if i > 0 {
				syncs = append(syncs, mid.Sub(start))
				ds = append(ds, time.Since(mid))
			}
		}
		all = append(all, ds...)
		fmt.Printf("Workspace.Context %-36s p50 %6.1f ms  p90 %6.1f ms\n", t, ms(pct(ds, 50)), ms(pct(ds, 90)))
	}
	fmt.Printf("Workspace.Context (all)%-30s p50 %6.1f ms; Workspace.Sync alone (open, sync, close) p50 %6.1f ms\n", "", ms(pct(all, 50)), ms(pct(syncs, 50)))
	return nil
}
