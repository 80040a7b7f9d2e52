// Command relocation replays RefactoringMiner's oracles of real
// refactorings through lore's relocation: for every validated Rename,
// Move, Move And Rename, Pull Up and Push Down of a method or a class, it
// anchors the old symbol at the commit's parent, verifies the anchor at
// the commit and checks that lore followed it to the symbol the oracle
// names. Symbols the commit left alone are verified beside them: any
// verdict but valid is a false alarm.
//
//	go run ./bench/relocation -oracle DIR -clones DIR [-sample dev|report|heldout|purity|kotlin|all] [-main FILE] [-projects a,b] [-commits sha,...] [-half lo|hi] [-v]
//
// -oracle is RefactoringMiner's src/test/resources/oracle (tse-dataset/,
// python-dataset/, javascript-dataset/, kotlin-dataset/, sampleResPurity.json
// and commits/, the snapshots of the changed files). -main is a sample of its main oracle (data.json; see
// ./windows), read only by -sample heldout. -clones holds clones (bare or not) named like the
// repositories (commons-io, dit, Chart.js); a commit whose repository has
// no clone is read from its snapshot, which lacks the unchanged files and
// so the rivals a real repository holds.
//
// The samples: relocation was developed on "dev" (ten projects of Liu et
// al.'s TSE 2025 dataset); "report" is what it is measured on (the other
// ten, the Python and the JavaScript datasets); "heldout" is a sample of
// the main oracle no one has looked at failures in; "purity" is the
// purity study's sample of the main oracle (sampleResPurity.json), its
// half hi held out; "kotlin" is the Kotlin dataset, replayed only by
// itself; "all" is dev and report.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// The projects of the TSE dataset relocation was developed on.
var devProjects = []string{"elasticsearch", "flink", "hadoop", "intellij-community", "junit5", "lucene-solr",
	"checkstyle", "hibernate-search", "commons-lang", "okhttp"}

// published holds RefactoringMiner's own precision and recall per
// dataset and type (documentation/accuracy.md, June and August 2026).
var published = map[string]map[string][2]float64{
	"main": {
		"Rename Method": {0.995, 0.955}, "Move Method": {0.992, 0.987}, "Move And Rename Method": {1, 0.970},
		"Pull Up Method": {1, 0.983}, "Push Down Method": {1, 1}, "Rename Class": {1, 0.966},
		"Move Class": {1, 0.996}, "Move And Rename Class": {1, 0.974},
	},
	"tse": {
		"Rename Method": {0.977, 0.984}, "Move Method": {0.996, 1}, "Move And Rename Method": {0.897, 1},
		"Pull Up Method": {1, 1}, "Push Down Method": {1, 1}, "Rename Class": {1, 0.996},
		"Move Class": {0.993, 0.993}, "Move And Rename Class": {1, 1},
	},
	"python": {
		"Rename Method": {1, 0.993}, "Move Method": {1, 1}, "Move And Rename Method": {1, 1},
		"Pull Up Method": {1, 1}, "Push Down Method": {1, 1}, "Rename Class": {1, 1},
		"Move Class": {1, 1}, "Move And Rename Class": {1, 1},
	},
	"javascript": {
		"Rename Method": {1, 1}, "Move Method": {1, 1}, "Move And Rename Method": {1, 1},
		"Rename Class": {1, 1}, "Move Class": {1, 1}, "Move And Rename Class": {1, 1},
	},
}

// publishedAs names the dataset whose published figures a dataset's
// rows are set beside: the purity sample is drawn from the main oracle.
func publishedAs(dataset string) string {
	if dataset == "purity" {
		return "main"
	}
	return dataset
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "relocation:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("relocation", flag.ContinueOnError)
	fl.SetOutput(stderr)
	oracle := fl.String("oracle", "", "RefactoringMiner's src/test/resources/oracle directory")
	clones := fl.String("clones", "", "directory of clones named like the repositories")
	snapshots := fl.String("snapshots", "", "the commit snapshots (default: ORACLE/commits)")
	snapshotOnly := fl.Bool("snapshot-only", false, "read every commit from its snapshot, even with a clone")
	sample := fl.String("sample", "all", "dev, report, heldout (the -main sample), purity (the purity study's sample of the main oracle), kotlin (the Kotlin dataset) or all (dev and report)")
	mainSample := fl.String("main", "", "samples of the main oracle, as ./windows writes them, comma-separated: replayed as one (default: ORACLE/main-dataset/data.json)")
	projects := fl.String("projects", "", "only these projects (comma-separated)")
	shas := fl.String("commits", "", "only these commits (comma-separated SHA prefixes)")
	half := fl.String("half", "", "lo or hi: only the commits whose SHA's second hex digit is 0-7 or 8-f (a split of one project into a half to develop on and one held out)")
	modes := fl.String("modes", "base", "comma-separated: base (the parent as Base, git's renames), sketch (no Base), norenames (Base, no rename map)")
	maxControls := fl.Int("controls", 20, "untouched symbols verified per commit, and as many deleted ones")
	threshold := fl.Float64("threshold", 0, "lowest confidence for following a relocation, as lore verify --threshold (default lore's)")
	verbose := fl.Bool("v", false, "list every instance not followed to its target")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *oracle == "" {
		return fmt.Errorf("give -oracle DIR (RefactoringMiner's src/test/resources/oracle)")
	}
	if *threshold < 0 || *threshold > 1 {
		return fmt.Errorf("-threshold: want a confidence in (0,1], or 0 for lore's default, not %v", *threshold)
	}
	if *snapshots == "" {
		*snapshots = *oracle + "/commits"
	}
	switch *sample {
	case "dev", "report", "heldout", "purity", "kotlin", "all":
	default:
		return fmt.Errorf("-sample: want dev, report, heldout, purity, kotlin or all, not %q", *sample)
	}
	mains := []string{filepath.Join(*oracle, "main-dataset", "data.json")}
	if *mainSample != "" {
		mains = strings.Split(*mainSample, ",")
		for _, m := range mains {
			if _, err := os.Stat(m); err != nil {
				return fmt.Errorf("-main: %w", err)
			}
		}
	}
	commits, err := loadOracle(*oracle, mains)
	if err != nil {
		return err
	}
	only := map[string]bool{}
	for _, p := range strings.Split(*projects, ",") {
		if p != "" {
			only[p] = true
		}
	}
	if *half != "" && *half != "lo" && *half != "hi" {
		return fmt.Errorf("-half: want lo or hi, not %q", *half)
	}
	var onlySHA []string
	for _, p := range strings.Split(*shas, ",") {
		if p != "" {
			onlySHA = append(onlySHA, p)
		}
	}
	dev := map[string]bool{}
	for _, p := range devProjects {
		dev[p] = true
	}
	var chosen []*commit
	for i := range commits {
		c := &commits[i]
		inDev := c.Dataset == "tse" && dev[c.Project]
		heldOut := c.Dataset == "main"
		kotlin := c.Dataset == "kotlin"
		purity := c.Dataset == "purity"
		switch {
		case len(only) > 0 && !only[c.Project], len(onlySHA) > 0 && !hasPrefix(c.SHA, onlySHA), *half != "" && inLowHalf(c.SHA) != (*half == "lo"):
			continue
		case heldOut != (*sample == "heldout"), kotlin != (*sample == "kotlin"), purity != (*sample == "purity"):
			continue
		case *sample == "dev" && !inDev, *sample == "report" && inDev:
			continue
		}
		if !hasRelocation(c) {
			continue
		}
		chosen = append(chosen, c)
	}
	if *sample == "heldout" && len(chosen) == 0 {
		return fmt.Errorf("-sample heldout: no commits in %s; write it with go run ./bench/relocation/windows (see bench/relocation/README.md)", strings.Join(mains, ", "))
	}
	for _, name := range strings.Split(*modes, ",") {
		m := mode{name: name, threshold: *threshold}
		switch name {
		case "base":
			m.base, m.renames = true, true
		case "sketch":
			m.renames = true
		case "norenames":
			m.base = true
		default:
			return fmt.Errorf("-modes: unknown mode %q", name)
		}
		start := time.Now()
		var runs []*commitRun
		for i, c := range chosen {
			fmt.Fprintf(stderr, "\r[%s] %d/%d %s %s        ", name, i+1, len(chosen), c.Project, shortSHA(c.SHA))
			t, err := openTrees(ctx, c, *clones, *snapshots, *snapshotOnly)
			if err != nil {
				fmt.Fprintf(stderr, "\n%s %s: %v\n", c.Project, shortSHA(c.SHA), err)
				continue
			}
			r, err := replay(ctx, c, t, m, *maxControls)
			if t.close != nil {
				t.close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "\n%s %s: %v\n", c.Project, shortSHA(c.SHA), err)
				continue
			}
			runs = append(runs, r)
		}
		fmt.Fprintln(stderr)
		label := name
		if *threshold != 0 {
			label = fmt.Sprintf("%s, threshold %.2f", name, *threshold)
		}
		report(stdout, label, *sample, runs, *verbose, time.Since(start))
	}
	return nil
}

// inLowHalf reports a SHA whose second hex digit is 0-7. The second, not
// the first: the JavaScript oracle's relocating commits all start with
// 0-7.
func inLowHalf(sha string) bool {
	return len(sha) > 1 && sha[1] >= '0' && sha[1] <= '7'
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func hasRelocation(c *commit) bool {
	for _, r := range c.Refs {
		if isRelocating(r.Type) && r.Valid {
			return true
		}
	}
	return false
}

type tally struct {
	n, skipped, right, wrong, suggested, missed int
	clear, clearRight                           int // see survival
}

func (t *tally) add(o outcome, clear bool) {
	if clear && o != skipped {
		t.clear++
		if o == right {
			t.clearRight++
		}
	}
	t.n++
	switch o {
	case skipped:
		t.skipped++
	case right:
		t.right++
	case wrong:
		t.wrong++
	case suggested:
		t.suggested++
	case missed:
		t.missed++
	}
}

func (t tally) precision() float64 {
	if t.right+t.wrong == 0 {
		return 1
	}
	return float64(t.right) / float64(t.right+t.wrong)
}

func (t tally) recall() float64 {
	if d := t.n - t.skipped; d > 0 {
		return float64(t.right) / float64(d)
	}
	return 1
}

// clearRecall is the recall over the clear instances (see survival).
func (t tally) clearRecall() float64 {
	if t.clear > 0 {
		return float64(t.clearRight) / float64(t.clear)
	}
	return 1
}

// offered is the share of instances followed or offered: the right target
// followed, or among the candidates (one lore anchor accept --to away).
func (t tally) offered() float64 {
	if d := t.n - t.skipped; d > 0 {
		return float64(t.right+t.suggested) / float64(d)
	}
	return 1
}

func report(w io.Writer, modeName, sample string, runs []*commitRun, verbose bool, took time.Duration) {
	type key struct{ dataset, typ string }
	tallies := map[key]*tally{}
	totals := map[string]*tally{}
	from := map[string]int{}
	controls, alarms := 0, 0
	gone, followed := 0, 0
	probes, probeWrong := map[string]int{}, map[string]int{}
	var lines []string
	skips := map[string]int{}
	held := map[string]int{}    // why lore did not follow, over suggested and missed
	wrongs, wrongListed := 0, 0 // followed elsewhere; of them, the right target listed
	for _, r := range runs {
		from[r.from]++
		controls += len(r.controls)
		alarms += len(r.alarms)
		for _, a := range r.alarms {
			lines = append(lines, fmt.Sprintf("ALARM %s %s %s", r.commit.Project, shortSHA(r.commit.SHA), a))
		}
		gone += len(r.gone)
		followed += len(r.followed)
		for _, f := range r.followed {
			lines = append(lines, fmt.Sprintf("FOLLOWED-DELETED %s %s %s", r.commit.Project, shortSHA(r.commit.SHA), f))
		}
		for _, in := range r.probes {
			if in.anchor < 0 {
				continue
			}
			probes[in.ref.Type]++
			if in.outcome == wrong {
				probeWrong[in.ref.Type]++
				lines = append(lines, fmt.Sprintf("RELOCATED %s %s %s | %s | %s | %s", r.commit.Project, shortSHA(r.commit.SHA), in.ref.Type, in.ref.Desc, in.spec, in.why))
			}
		}
		for _, in := range r.instances {
			if in.dup {
				continue
			}
			k := key{r.commit.Dataset, in.ref.Type}
			if tallies[k] == nil {
				tallies[k] = &tally{}
			}
			if totals[k.dataset] == nil {
				totals[k.dataset] = &tally{}
			}
			o := in.outcome
			if in.anchor < 0 && o != missed {
				o = skipped
				skips[skipReason(in.why)]++
			}
			if o == suggested || o == missed {
				held[heldBack(in.why)]++
			}
			if o == wrong {
				wrongs++
				if strings.HasSuffix(in.why, rightListed) {
					wrongListed++
				}
			}
			tallies[k].add(o, in.clear())
			totals[k.dataset].add(o, in.clear())
			if o != right && verbose {
				survived := fmt.Sprintf("kept %.2f", in.kept)
				if in.twin != "" {
					survived += ", twin " + in.twin
				}
				lines = append(lines, fmt.Sprintf("%-9s %s %s %s | %s | %s → %s | %s | %s", label(o), r.commit.Project, shortSHA(r.commit.SHA),
					in.ref.Type, in.ref.Desc, in.spec, in.after.spec(), survived, in.why))
			}
		}
	}
	var keys []key
	for k := range tallies {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].dataset != keys[j].dataset {
			return keys[i].dataset > keys[j].dataset
		}
		return typeOrder(keys[i].typ) < typeOrder(keys[j].typ)
	})
	fmt.Fprintf(w, "\nmode %s, sample %s: %d commits (%d from clones, %d from snapshots), %s\n", modeName, sample, len(runs), from["clone"], from["snapshot"], took.Round(time.Second))
	fmt.Fprintf(w, "%-11s %-23s %5s %5s %6s %6s %5s %5s %9s %7s %7s %11s | %s\n", "dataset", "type", "n", "skip", "right", "wrong", "sugg", "miss", "precision", "recall", "offered", "clear", "RefactoringMiner P / R")
	last := ""
	for _, k := range keys {
		if last != "" && last != k.dataset {
			row(w, last, "all", *totals[last], [2]float64{-1, -1})
		}
		last = k.dataset
		rm, ok := published[publishedAs(k.dataset)][k.typ]
		if !ok {
			rm = [2]float64{-1, -1}
		}
		row(w, k.dataset, k.typ, *tallies[k], rm)
	}
	if last != "" {
		row(w, last, "all", *totals[last], [2]float64{-1, -1})
	}
	fmt.Fprintf(w, "untouched symbols verified: %d, false alarms: %d\n", controls, alarms)
	fmt.Fprintf(w, "deleted symbols no refactoring names, followed somewhere: %d of %d\n", followed, gone)
	fmt.Fprintf(w, "methods extracted from, relocated away: %d of %d; methods inlined, relocated: %d of %d\n",
		probeWrong["Extract Method"], probes["Extract Method"], probeWrong["Inline Method"], probes["Inline Method"])
	if len(skips) > 0 {
		var ks []string
		for k, n := range skips {
			ks = append(ks, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(ks)
		fmt.Fprintf(w, "skipped (no lore symbol on one side): %s\n", strings.Join(ks, "; "))
	}
	if len(held) > 0 {
		ks := slices.Collect(maps.Keys(held))
		slices.SortFunc(ks, func(a, b string) int { return cmp.Or(held[b]-held[a], strings.Compare(a, b)) })
		for i, k := range ks {
			ks[i] = fmt.Sprintf("%s %d", k, held[k])
		}
		fmt.Fprintf(w, "not followed (suggested or missed), as lore's verdict says why: %s\n", strings.Join(ks, "; "))
	}
	if wrongs > 0 {
		fmt.Fprintf(w, "followed elsewhere, the right target among the candidates: %d of %d\n", wrongListed, wrongs)
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

func row(w io.Writer, dataset, typ string, t tally, rm [2]float64) {
	pub := "-"
	if rm[0] >= 0 {
		pub = fmt.Sprintf("%.3f / %.3f", rm[0], rm[1])
	}
	clear := fmt.Sprintf("%.3f (%d)", t.clearRecall(), t.clear)
	fmt.Fprintf(w, "%-11s %-23s %5d %5d %6d %6d %5d %5d %9.3f %7.3f %7.3f %11s | %s\n", dataset, typ, t.n, t.skipped, t.right, t.wrong, t.suggested, t.missed, t.precision(), t.recall(), t.offered(), clear, pub)
}

func typeOrder(t string) int {
	for i, r := range relocating {
		if r == t {
			return i
		}
	}
	return len(relocating)
}

func label(o outcome) string {
	return [...]string{"SKIP", "RIGHT", "WRONG", "SUGGESTED", "MISSED"}[o]
}

// skipReason buckets why an instance has no lore symbol.
func skipReason(why string) string {
	switch {
	case strings.Contains(why, "lore has no symbol"):
		return "not a lore symbol"
	case strings.Contains(why, "no file for the class"):
		return "no file for the class"
	case strings.Contains(why, "a whole module"):
		return "a whole module"
	case strings.Contains(why, "with these parameters"):
		return "overload not identified"
	case strings.Contains(why, "in 2 files"), strings.Contains(why, "files ("):
		return "class in several files"
	case strings.Contains(why, "not understood"):
		return "description not understood"
	}
	return "other"
}

// heldBack sorts the verdict of an instance lore did not follow by the
// doubt its reason states (see anchors' confidence): what holds recall
// back, counted without reading the instances.
func heldBack(why string) string {
	verdict, _, _ := strings.Cut(why, " || ")
	_, doubt, ok := strings.Cut(verdict, "none certain enough to follow")
	switch {
	case strings.Contains(verdict, "is now a declaration without its code"):
		return "kept in place" // on the declaration, where the code went listed
	case !ok && strings.HasPrefix(verdict, "invalid"):
		return "nothing like it among the change's symbols"
	case !ok:
		return "kept in place"
	case strings.Contains(doubt, "hold the same code"):
		return "copies"
	case strings.Contains(doubt, "pairing of files"):
		return "apart only by git's pairing of files"
	case strings.Contains(doubt, "pairing of lines"):
		return "apart only by git's pairing of lines"
	case strings.Contains(doubt, "split between"):
		return "split"
	case strings.Contains(doubt, "the old header to"):
		return "code and header apart"
	case strings.Contains(doubt, "another vanished symbol went"):
		return "each claimed by another"
	case strings.Contains(doubt, "many look alike"):
		return "too small to tell"
	case strings.Contains(doubt, "hierarchy"):
		return "hierarchy disagrees"
	case strings.Contains(doubt, "inlined into"):
		return "inlined"
	case strings.Contains(doubt, "siblings renamed"):
		return "sibling names disagree"
	case strings.Contains(doubt, "by its header only"):
		return "alike by the header only"
	case strings.Contains(doubt, "is nearly as like"):
		return "close rival"
	case strings.Contains(doubt, "not like the old code enough"):
		return "not like enough"
	}
	return "other"
}

// shortSHA is sha's first ten digits, as the progress and error lines
// name a commit.
func shortSHA(sha string) string {
	return sha[:min(len(sha), 10)]
}
