package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fault-injection suite: real lore processes on real repositories and
// a real Badger store, under the faults of issue 27. Each test logs one
// line "fault table: …" with its trials, the trials that went wrong (a
// hang, a wrong exit code, more than one line of error, a store moved
// aside for no damage, success reported for a failed write or the other
// way round) and the authored data lost; both must be 0.
// LORE_FAULT_TRIALS=N multiplies the trials (CI runs the default).

// hangBound is how long a command may take under a fault before it counts
// as hung.
const hangBound = 30 * time.Second

func faultTrials(n int) int {
	if m, err := strconv.Atoi(os.Getenv("LORE_FAULT_TRIALS")); err == nil && m > 0 {
		return n * m
	}
	return n
}

// tally counts a fault test's trials.
type tally struct {
	name                   string
	trials, failures, lost int
	codes                  map[int]int // exit codes under the fault (negative: a second try)
	mu                     sync.Mutex
}

func (ty *tally) exit(code int) {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	if ty.codes == nil {
		ty.codes = map[int]int{}
	}
	ty.codes[code]++
}

func (ty *tally) fail(t *testing.T, format string, args ...any) {
	t.Helper()
	ty.mu.Lock()
	ty.failures++
	ty.mu.Unlock()
	t.Errorf(format, args...)
}

func (ty *tally) report(t *testing.T) {
	t.Logf("fault table: %-34s trials %4d  failures %d  data lost %d  outcomes %v", ty.name, ty.trials, ty.failures, ty.lost, ty.codes)
	if ty.lost > 0 {
		t.Errorf("%s: authored data lost in %d trials", ty.name, ty.lost)
	}
}

// result is how one lore process ended.
type result struct {
	code   int // -1: killed by a signal
	stdout string
	stderr string
	took   time.Duration
	hung   bool
}

// errorLines are the lines of stderr that are not warnings.
func (r result) errorLines() []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if l != "" && !strings.HasPrefix(l, "lore: warning:") {
			out = append(out, l)
		}
	}
	return out
}

// loreCmd prepares lore with args in dir, as user (0: this process's).
func loreCmd(lore, dir string, uid int, args ...string) *exec.Cmd {
	cmd := exec.Command(lore, append([]string{"-C", dir}, args...)...)
	if uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	return cmd
}

// finish waits for a started command, at most hangBound, killing it then.
func finish(cmd *exec.Cmd, start time.Time) result {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	r := result{}
	select {
	case err = <-done:
	case <-time.After(hangBound):
		r.hung = true
		cmd.Process.Kill()
		err = <-done
	}
	r.took = time.Since(start)
	r.code = cmd.ProcessState.ExitCode()
	if b, ok := cmd.Stdout.(*bytes.Buffer); ok {
		r.stdout = b.String()
	}
	if b, ok := cmd.Stderr.(*bytes.Buffer); ok {
		r.stderr = b.String()
	}
	_ = err
	return r
}

func runLore(lore, dir string, uid int, args ...string) result {
	cmd := loreCmd(lore, dir, uid, args...)
	cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{code: -2, stderr: err.Error()}
	}
	return finish(cmd, start)
}

// faultRepo is a git repository of a few hundred Go files with a lore
// workspace, three learnings and an index, owned by uid (0: as is).
func faultRepo(t *testing.T, lore string, uid int) string {
	t.Helper()
	files := map[string]string{}
	for d := range 12 {
		for f := range 40 {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n", d)
			for i := range 15 {
				fmt.Fprintf(&b, "// F%d_%d does thing %d.\nfunc F%d_%d(x int) int {\n\treturn x + %d\n}\n\n", f, i, i, f, i, i)
			}
			files[fmt.Sprintf("p%d/f%d.go", d, f)] = b.String()
		}
	}
	dir := gitRepo(t, files, nil)
	if uid != 0 {
		reachable(dir)
		filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, uid, uid) })
	}
	for _, args := range [][]string{
		{"init"},
		{"learn", "add", "--title", "F0_0 adds zero", "--anchor", "p0/f0.go::F0_0"},
		{"learn", "add", "--title", "f1 is about ones", "--anchor", "p1/f1.go"},
		{"learn", "add", "--title", "lines of f2", "--anchor", "p2/f2.go#L3-L5"},
		{"index"},
	} {
		if r := runLore(lore, dir, uid, args...); r.code != 0 {
			t.Fatalf("lore %v: %d %s", args, r.code, r.stderr)
		}
	}
	return dir
}

// reachable lets every user through the directories above dir, up to the
// temporary directory (the test's are private).
func reachable(dir string) {
	for d := filepath.Dir(dir); strings.HasPrefix(d, os.TempDir()) && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
}

// sharedCopy copies the lore binary where other users may run it.
func sharedCopy(t *testing.T, lore string) string {
	t.Helper()
	exe, err := os.ReadFile(lore)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "bin", "lore")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	reachable(filepath.Dir(p))
	return p
}

// learningFiles reads the learning files: name → content.
func learningFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ms, _ := filepath.Glob(filepath.Join(dir, ".lore", "learnings", "*.md"))
	for _, p := range ms {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(b)
	}
	return out
}

// lostLearnings counts learning files of before that are gone or changed,
// and checks that lore lists every learning file.
func lostLearnings(t *testing.T, lore, dir string, uid int, before map[string]string) int {
	t.Helper()
	lost := 0
	now := learningFiles(t, dir)
	for name, text := range before {
		if now[name] != text {
			lost++
		}
	}
	r := runLore(lore, dir, uid, "learn", "list")
	if r.code != 0 {
		t.Errorf("learn list after the fault: %d %s", r.code, r.stderr)
		return lost
	}
	for name := range now {
		if !strings.Contains(r.stdout, strings.TrimSuffix(name, ".md")) {
			lost++
		}
	}
	return lost
}

// during returns a moment at which a run of lore with args is under way:
// a random point of the time one run takes (measured first), so that a
// fault injected then meets the command at work.
func during(t *testing.T, lore, dir string, uid int, rng *rand.Rand, args ...string) func() time.Duration {
	t.Helper()
	r := runLore(lore, dir, uid, args...)
	if r.code > 1 {
		t.Fatalf("lore %v: %d %s", args, r.code, r.stderr)
	}
	took := r.took
	return func() time.Duration { return time.Duration(float64(took) * (0.1 + 0.8*rng.Float64())) }
}

// asideCount counts stores moved aside.
func asideCount(dir string) int {
	ms, _ := filepath.Glob(filepath.Join(dir, ".lore", "db.broken-*"))
	return len(ms)
}

// checkEnd checks a command that ran into a fault: it ended within the
// bound, with 0 or 2, and said what failed on one line.
func checkEnd(t *testing.T, ty *tally, what string, r result) {
	t.Helper()
	ty.exit(r.code)
	switch {
	case r.hung:
		ty.fail(t, "%s: still running after %s", what, hangBound)
	case r.code != 0 && r.code != exitError:
		ty.fail(t, "%s: exit code %d: %s", what, r.code, r.stderr)
	case r.code == exitError && len(r.errorLines()) != 1:
		ty.fail(t, "%s: %d lines of error: %q", what, len(r.errorLines()), r.stderr)
	}
}

// TestFaultStoreRemoved removes .lore/db while a command writes to it:
// Badger then retries its memtable flush forever, which used to hang the
// process. It must end within the bound, and the next command rebuild.
func TestFaultStoreRemoved(t *testing.T) {
	lore := loreBinary(t)
	dir := faultRepo(t, lore, 0)
	ty := &tally{name: ".lore/db removed mid-command"}
	rng := rand.New(rand.NewPCG(27, 1))
	cmds := [][]string{{"index", "--force"}, {"verify"}, {"learn", "add", "--title", "added while removed"}}
	var at []func() time.Duration
	for _, args := range cmds {
		at = append(at, during(t, lore, dir, 0, rng, args...))
	}
	for i := range faultTrials(9) {
		ty.trials++
		before := learningFiles(t, dir)
		args := cmds[i%len(cmds)]
		cmd := loreCmd(lore, dir, 0, args...)
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(at[i%len(cmds)]())
		os.RemoveAll(filepath.Join(dir, ".lore", "db"))
		r := finish(cmd, start)
		checkEnd(t, ty, fmt.Sprintf("trial %d, lore %v", i, args), r)
		if r.code == 0 && args[0] == "learn" {
			// Saved: it is one more learning, not a loss.
			before = learningFiles(t, dir)
		}
		ty.lost += lostLearnings(t, lore, dir, 0, before)
	}
	ty.report(t)
}

// TestFaultStoreUnwritable makes .lore/db read-only while a command writes
// to it (as a user other than root, whom permissions do not stop): the
// command ends within the bound with one line, the store is not moved
// aside, and once writable again everything works.
func TestFaultStoreUnwritable(t *testing.T) {
	uid := 0
	if os.Geteuid() == 0 {
		uid = 65534 // nobody: root ignores permissions
	}
	lore := loreBinary(t)
	if uid != 0 {
		lore = sharedCopy(t, lore)
	}
	dir := faultRepo(t, lore, uid)
	db := filepath.Join(dir, ".lore", "db")
	ty := &tally{name: ".lore/db read-only mid-command"}
	rng := rand.New(rand.NewPCG(27, 2))
	at := during(t, lore, dir, uid, rng, "index", "--force")
	aside := 0
	for i := range faultTrials(6) {
		ty.trials++
		before := learningFiles(t, dir)
		cmd := loreCmd(lore, dir, uid, "index", "--force")
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(at())
		os.Chmod(db, 0o555)
		r := finish(cmd, start)
		checkEnd(t, ty, fmt.Sprintf("trial %d", i), r)
		// While it stays read-only: one line, nothing moved aside.
		if r := runLore(lore, dir, uid, "learn", "add", "--title", "refused"); r.code != exitError || len(r.errorLines()) != 1 || !strings.Contains(r.stderr, "permission denied") {
			ty.fail(t, "trial %d: learn add on a read-only store: %d %q", i, r.code, r.stderr)
		}
		if n := asideCount(dir); n > aside {
			aside = n
			ty.fail(t, "trial %d: a read-only store was moved aside", i)
		}
		os.Chmod(db, 0o755)
		ty.lost += lostLearnings(t, lore, dir, uid, before)
	}
	ty.report(t)
}

// TestFaultDiskFull fills a small disk: commands that must write fail with
// one line (they used to die of SIGBUS, or move the store aside), readers
// go on, nothing is moved aside, and after space is freed all works.
func TestFaultDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	lore := loreBinary(t)
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", "-l", mnt).Run()
	src := faultRepo(t, lore, 0)
	dir := filepath.Join(mnt, "repo")
	if out, err := exec.Command("cp", "-a", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	ty := &tally{name: "disk full (tmpfs)"}
	before := learningFiles(t, dir)
	for _, left := range []int{0, 4 << 10, 1 << 20} {
		fill := filepath.Join(mnt, "fill")
		os.Remove(fill)
		var st syscall.Statfs_t
		syscall.Statfs(mnt, &st)
		free := int64(st.Bavail) * int64(st.Bsize)
		if err := os.WriteFile(fill, make([]byte, max(free-int64(left), 0)), 0o644); err != nil && !errors.Is(err, syscall.ENOSPC) {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "p0", "f0.go"), []byte("package p0\n\nfunc F0_0(x int) int {\n\treturn x\n}\n"), 0o644)
		for _, c := range []struct {
			args  []string
			write bool
		}{
			{[]string{"learn", "list"}, false},
			{[]string{"context", "p0/f0.go"}, false},
			{[]string{"learn", "add", "--title", "no room"}, true},
			{[]string{"index"}, true},
			{[]string{"verify"}, true},
		} {
			ty.trials++
			r := runLore(lore, dir, 0, c.args...)
			what := fmt.Sprintf("%d bytes left, lore %v", left, c.args)
			checkEnd(t, ty, what, r)
			if c.write && (r.code != exitError || !strings.Contains(r.stderr, "free space")) {
				ty.fail(t, "%s: want a one-line 'free space' error, got %d %q", what, r.code, r.stderr)
			}
			if !c.write && r.code != 0 {
				ty.fail(t, "%s: a reader failed: %d %q", what, r.code, r.stderr)
			}
		}
		if asideCount(dir) > 0 {
			ty.fail(t, "%d bytes left: the store was moved aside", left)
		}
		os.Remove(fill)
		if r := runLore(lore, dir, 0, "verify"); r.code > 1 {
			ty.fail(t, "after freeing space: verify %d %q", r.code, r.stderr)
		}
		ty.lost += lostLearnings(t, lore, dir, 0, before)
	}
	ty.report(t)
}

// TestFaultDamagedTables overwrites or truncates the store's tables: no
// command hangs, at most the first one fails (Badger can panic in a
// goroutine of its own while it opens a table whose end is damaged), and
// then the store is set aside and rebuilt, with no learning lost.
func TestFaultDamagedTables(t *testing.T) {
	lore := loreBinary(t)
	dir := faultRepo(t, lore, 0)
	ty := &tally{name: "damaged store tables"}
	for seed := range uint64(faultTrials(8)) {
		ty.trials++
		before := learningFiles(t, dir)
		tables, _ := filepath.Glob(filepath.Join(dir, ".lore", "db", "*.sst"))
		if len(tables) == 0 {
			runLore(lore, dir, 0, "index")
			tables, _ = filepath.Glob(filepath.Join(dir, ".lore", "db", "*.sst"))
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		for _, p := range tables {
			b, _ := os.ReadFile(p)
			if len(b) == 0 {
				continue
			}
			if seed%2 == 1 {
				b = b[:len(b)/2]
			} else {
				for range 64 {
					b[rng.IntN(len(b))] = byte(rng.Uint32())
				}
			}
			os.WriteFile(p, b, 0o644)
		}
		failed := 0
		for _, args := range [][]string{{"learn", "list"}, {"verify"}, {"context", "p0/f0.go"}} {
			r := runLore(lore, dir, 0, args...)
			if r.hung {
				ty.fail(t, "seed %d, lore %v: hung", seed, args)
			}
			if r.code > 1 {
				failed++
			}
		}
		ty.exit(failed) // outcomes: how many of the three commands failed
		if failed > 1 {
			ty.fail(t, "seed %d: %d commands failed after the damage", seed, failed)
		}
		ty.lost += lostLearnings(t, lore, dir, 0, before)
		ms, _ := filepath.Glob(filepath.Join(dir, ".lore", "db.broken-*"))
		for _, m := range ms {
			os.RemoveAll(m)
		}
	}
	ty.report(t)
}

var titleLine = regexp.MustCompile(`(?m)^title: (.*)$`)

// titles are the titles of the learning files.
func titles(t *testing.T, dir string) map[string]bool {
	out := map[string]bool{}
	for _, text := range learningFiles(t, dir) {
		if m := titleLine.FindStringSubmatch(text); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

// TestFaultSignals interrupts lore learn add and lore relate with SIGINT
// or SIGTERM at random moments: a command that says it succeeded wrote its
// file, one that says it failed wrote nothing (a retry makes no
// duplicate). A kill -9 between the two writes of a bidirectional relate
// leaves both links or neither, once the next command ran.
func TestFaultSignals(t *testing.T) {
	lore := loreBinary(t)
	dir := faultRepo(t, lore, 0)
	ty := &tally{name: "SIGINT/SIGTERM/SIGKILL in a write"}
	var ids []string
	for n := range learningFiles(t, dir) {
		ids = append(ids, strings.TrimSuffix(n, ".md"))
	}
	rng := rand.New(rand.NewPCG(27, 4))
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGKILL}
	addAt := during(t, lore, dir, 0, rng, "learn", "add", "--title", "measured")
	relateAt := during(t, lore, dir, 0, rng, "relate", ids[0], ids[1], "--type", "measured", "--bidirectional")
	for i := range faultTrials(24) {
		ty.trials++
		sig := sigs[i%len(sigs)]
		var args []string
		title := fmt.Sprintf("signal trial %d", i)
		relType := fmt.Sprintf("t%d", i)
		if i%2 == 0 {
			args = []string{"learn", "add", "--title", title}
		} else {
			args = []string{"relate", ids[0], ids[1], "--type", relType, "--bidirectional"}
		}
		cmd := loreCmd(lore, dir, 0, args...)
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			time.Sleep(addAt())
		} else {
			time.Sleep(relateAt())
		}
		cmd.Process.Signal(sig)
		r := finish(cmd, start)
		ty.exit(r.code)
		if r.hung {
			ty.fail(t, "trial %d: hung after %v", i, sig)
			continue
		}
		// The next command completes what a kill interrupted.
		if r := runLore(lore, dir, 0, "learn", "list"); r.code != 0 {
			ty.fail(t, "trial %d: learn list after %v: %d %s", i, sig, r.code, r.stderr)
		}
		files := learningFiles(t, dir)
		var written bool
		if i%2 == 0 {
			written = titles(t, dir)[title]
		} else {
			a := strings.Contains(files[ids[0]+".md"], "type: "+relType+"\n")
			b := strings.Contains(files[ids[1]+".md"], "type: "+relType+"\n")
			if a != b {
				ty.fail(t, "trial %d (%v): one direction of a bidirectional relate", i, sig)
				ty.lost++
			}
			written = a && b
		}
		switch {
		case r.code == 0 && !written:
			ty.fail(t, "trial %d (%v, lore %v): success reported, nothing written", i, sig, args)
			ty.lost++
		case r.code > 0 && written:
			ty.fail(t, "trial %d (%v, lore %v): failure reported (%d), but written: %s", i, sig, args, r.code, r.stderr)
		}
	}
	ty.report(t)
}

// TestFaultConcurrentDrift runs 16 lore processes that add learnings and
// link them, beside a running lore serve that answers requests the while:
// every link in the files must be in the graph afterwards (a process that
// read the learnings directory before it held the store took learnings
// added meanwhile for deleted, and dropped the links to them).
func TestFaultConcurrentDrift(t *testing.T) {
	lore := loreBinary(t)
	dir := faultRepo(t, lore, 0)
	ty := &tally{name: "16 writers beside lore serve"}
	addr := startServe(t, lore, dir)
	ctx, stop := context.WithCancel(context.Background())
	var requests sync.WaitGroup
	requests.Add(1)
	go func() {
		defer requests.Done()
		for ctx.Err() == nil {
			if resp, err := http.Get(addr + "/verify"); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	}()
	for round := range faultTrials(2) {
		// A base learning per round: each round links 16 learnings to it
		// (a learning takes 256 links at most).
		r := runLore(lore, dir, 0, "learn", "add", "--title", fmt.Sprintf("base of round %d", round))
		if r.code != 0 {
			t.Fatalf("learn add: %d %s", r.code, r.stderr)
		}
		base := strings.TrimSpace(r.stdout)
		var wg sync.WaitGroup
		for p := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := runLore(lore, dir, 0, "--lock-timeout", "60s", "learn", "add", "--title", fmt.Sprintf("round %d writer %d", round, p))
				if r.code != 0 {
					ty.fail(t, "learn add: %d %s", r.code, r.stderr)
					return
				}
				id := strings.TrimSpace(r.stdout)
				for _, args := range [][]string{
					{"relate", base, id, "--type", "spawned"},
					{"relate", id, base, "--type", "spawned_by"},
					{"verify"},
				} {
					if r := runLore(lore, dir, 0, append([]string{"--lock-timeout", "60s"}, args...)...); r.code > 1 {
						ty.fail(t, "lore %v: %d %s", args, r.code, r.stderr)
					}
				}
			}()
		}
		wg.Wait()
		ty.trials++
		// Every link of every file must be an edge of the graph.
		r = runLore(lore, dir, 0, "graph", "export")
		var g struct {
			Edges []struct{ Type, From, To, Relation string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &g); err != nil {
			t.Fatalf("graph export: %v %s", err, r.stderr)
		}
		edges := map[string]bool{}
		for _, e := range g.Edges {
			if e.Type == "LINKS_TO" {
				edges[e.From+" "+e.Relation+" "+e.To] = true
			}
		}
		link := regexp.MustCompile(`(?m)^  - to: (\S+)\n    type: (\S+)`)
		links, missing := 0, 0
		for name, text := range learningFiles(t, dir) {
			for _, m := range link.FindAllStringSubmatch(text, -1) {
				links++
				if !edges["learning:"+strings.TrimSuffix(name, ".md")+" "+m[2]+" learning:"+m[1]] {
					missing++
				}
			}
		}
		t.Logf("round %d: %d links in the files, %d missing from the graph", round, links, missing)
		if missing > 0 {
			ty.fail(t, "round %d: %d of %d links missing from the graph", round, missing, links)
			ty.lost += missing
		}
	}
	stop()
	requests.Wait()
	ty.report(t)
}

// startServe starts lore serve on a free port for the test and returns its
// address.
func startServe(t *testing.T, lore, dir string) string {
	t.Helper()
	srv := loreCmd(lore, dir, 0, "serve", "--addr", "127.0.0.1:0")
	srvErr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	buf := make([]byte, 256)
	n, _ := srvErr.Read(buf)
	go io.Copy(io.Discard, srvErr)
	return strings.TrimSpace(strings.TrimPrefix(string(buf[:n]), "lore: serving on "))
}

// TestFaultServersRecover removes the store under lore serve and lore mcp
// while a request runs: that request succeeds or fails within the bound,
// and the next one works. (When the removal races Badger creating files,
// rm leaves part of the directory, and the next request may still meet
// that damage and fail once with one line: the one after works. The table
// counts those as "second try".)
func TestFaultServersRecover(t *testing.T) {
	lore := loreBinary(t)
	dir := faultRepo(t, lore, 0)
	db := filepath.Join(dir, ".lore", "db")
	ty := &tally{name: "lore serve: store removed"}
	addr := startServe(t, lore, dir)
	client := &http.Client{Timeout: hangBound}
	get := func(path string) (int, string) {
		resp, err := client.Get(addr + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for i := range faultTrials(4) {
		ty.trials++
		done := make(chan struct{})
		go func() {
			defer close(done)
			get("/verify")
		}()
		time.Sleep(time.Duration(i*15) * time.Millisecond)
		os.RemoveAll(db)
		<-done
		if code, body := get("/verify"); code != 200 {
			ty.exit(-code) // a second try, counted as a negative HTTP status
			if code, body2 := get("/verify"); code != 200 {
				ty.fail(t, "trial %d: /verify after the store was removed: %s, then %d %s", i, body, code, body2)
			}
		}
	}
	ty.report(t)

	// lore mcp, through the official client.
	ty = &tally{name: "lore mcp: store removed"}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client2 := mcp.NewClient(&mcp.Implementation{Name: "lore-test", Version: "v0"}, nil)
	server := loreCmd(lore, dir, 0, "mcp")
	var serverErr syncBuffer
	server.Stderr = &serverErr
	session, err := client2.Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	for i := range faultTrials(4) {
		ty.trials++
		done := make(chan struct{})
		go func() {
			defer close(done)
			session.CallTool(ctx, &mcp.CallToolParams{Name: "lore_learn", Arguments: map[string]any{"title": fmt.Sprintf("mcp trial %d", i)}})
		}()
		time.Sleep(time.Duration(i*10) * time.Millisecond)
		os.RemoveAll(db)
		select {
		case <-done:
		case <-time.After(hangBound):
			ty.fail(t, "trial %d: lore_learn hung after the store was removed", i)
			continue
		}
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "lore_verify", Arguments: map[string]any{}})
		if err == nil && res.IsError {
			ty.exit(-1) // a second try
			res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "lore_verify", Arguments: map[string]any{}})
		}
		if err != nil || res.IsError {
			var text string
			if res != nil && len(res.Content) > 0 {
				if tc, ok := res.Content[0].(*mcp.TextContent); ok {
					text = tc.Text
				}
			}
			ty.fail(t, "trial %d: lore_verify after the store was removed: %v %s; the server said: %s", i, err, text, serverErr.String())
		}
	}
	ty.report(t)
}

// syncBuffer is a buffer a process writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
