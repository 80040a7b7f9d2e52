package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lorehq/lore/anchors"
)

// RefactoringMiner's Kotlin names resolve to the symbols lore indexes:
// a class declared in a file of another name, a file's top level
// (File.module, FileKt), an unnamed companion's functions, extension
// functions under their receiver, overloads by their parameters, a
// property's accessors as the property, the method of an enum entry's
// body under the entry.
func TestResolveKotlin(t *testing.T) {
	dir := "app/src/main/java/a/b/"
	fsys := fstest.MapFS{
		dir + "Util.kt": {Data: []byte(`package a.b

fun Fragment.getVmFactory(): Factory = Factory(this)

fun <T> List<T>.second(): T = this[1]

internal fun top(n: Int = 2) = n

class Helper {
    fun go(x: Int) {}

    fun go(@Named("s") x: String?, f: (Int) -> Unit = {}) {}

    private fun Input.build(x: Int): Int = x

    val context: Context
        get() = view.context

    var isEnabled: Boolean = true
        private set

    companion object {
        fun make(n: Int) = Helper()
    }
}
`)},
		dir + "Old.java": {Data: []byte(`package a.b;

class Old {
    void go(int n) {}

    void go(String s) {}
}
`)},
		dir + "Outer.kt": {Data: []byte(`package a.b

class Outer {
    class Inner {
        fun f() {}
    }
}

enum class Mode {
    FAST {
        override fun speed(n: Int) = n * 2
    };

    abstract fun speed(n: Int): Int
}
`)},
	}
	src, err := anchors.NewSource(fsys, anchors.SourceOptions{MaxFileSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	paths, err := src.Paths(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	c := commit{Lang: "kotlin", SHA: "aaaa"}
	for _, d := range []struct{ typ, desc string }{
		{"Rename Method", "public Fragment.getVmFactory() : Factory renamed to public Fragment.getViewModelFactory() : Factory in class a.b.Util.module"},
		{"Move Class", "a.b.Helper moved to a.b.c.Helper"},
		{"Rename Method", "public go(x String, f (Int) -> Unit) renamed to public run(x String, f (Int) -> Unit) in class a.b.Helper"},
		{"Rename Method", "public make(n Int) : Helper renamed to public create(n Int) : Helper in class a.b.Helper.Companion"},
		{"Rename Method", "private Input.build(x Int) : Int renamed to private Input.make(x Int) : Int in class a.b.Helper"},
		{"Rename Method", "public List<T>.second() : T renamed to public List<T>.two() : T in class a.b.UtilKt"},
		{"Rename Method", "internal top(n Int) : Int renamed to internal bottom(n Int) : Int in class a.b.Util.module"},
		{"Move Class", "a.b.Outer.Inner moved to a.b.Inner"},
		{"Rename Class", "a.b.Util.module renamed to a.b.Utils.module"},
		{"Move Class", "a.b.Helper.Companion moved to a.b.Outer.Companion"},
		{"Rename Method", "package go(s String) : void renamed to package run(s String) : void in class a.b.Old"},
		{"Move Method", "public getContext() from class a.b.Helper to public getContext() from class a.b.Outer"},
		{"Move Method", "public setEnabled(value Boolean) from class a.b.Helper to public setEnabled(value Boolean) from class a.b.Outer"},
		{"Rename Method", "public speed(n Int) : Int renamed to public pace(n Int) : Int in class a.b.Mode.FAST"},
	} {
		c.add(d.typ, d.desc, true)
	}
	want := []string{
		dir + "Util.kt::Fragment::getVmFactory",
		dir + "Util.kt::Helper",
		dir + "Util.kt::Helper::go(@Named(\"s\") x: String?, f: (Int) -> Unit)",
		dir + "Util.kt::Helper::make",
		dir + "Util.kt::Helper::Input::build",
		dir + "Util.kt::List::second",
		dir + "Util.kt::top",
		dir + "Outer.kt::Outer::Inner",
		dir + "Util.kt",
		"error: lore has no symbol for an unnamed companion object",
		dir + "Old.java::Old::go(String)",
		dir + "Util.kt::Helper::context",
		dir + "Util.kt::Helper::isEnabled",
		dir + "Outer.kt::Mode::FAST::speed",
	}
	for i, r := range c.Refs {
		got, err := resolve(t.Context(), src, paths, "kotlin", r.Before, nil)
		spec := got.spec()
		if got.Overloaded {
			spec += "(" + strings.Join(got.Params, ", ") + ")"
		}
		if err != nil {
			spec = "error: " + err.Error()
		}
		if !strings.HasSuffix(spec, strings.TrimPrefix(want[i], "error: ")) && spec != want[i] {
			t.Errorf("%s %s: resolved to %s, want %s", r.Type, r.Desc, spec, want[i])
			continue
		}
		if err != nil {
			continue
		}
		// lore takes the spec, the overload's selector included.
		a, err := anchors.ParseSpec(spec)
		if err == nil {
			_, err = anchors.Baseline(t.Context(), src, a)
		}
		if err != nil {
			t.Errorf("%s: lore does not anchor it: %v", spec, err)
		}
	}
}

// A method the oracle names under its class's new name is looked for
// under the old one, when the commit renamed or moved the class.
func TestRenamedClass(t *testing.T) {
	c := commit{Lang: "kotlin"}
	c.add("Rename Class", "leakcanary.internal.ReachabilityTest renamed to leakcanary.internal.LeakStatusTest", true)
	c.add("Move Class", "a.Gone moved to b.Gone", false)
	for _, x := range []struct {
		class  string
		before bool
		want   string
	}{
		{"leakcanary.internal.LeakStatusTest", true, "leakcanary.internal.ReachabilityTest"},
		{"leakcanary.internal.LeakStatusTest.Inner", true, "leakcanary.internal.ReachabilityTest.Inner"},
		{"leakcanary.internal.ReachabilityTest", false, "leakcanary.internal.LeakStatusTest"},
		{"leakcanary.internal.LeakStatusTestX", true, ""},
		{"b.Gone", true, ""}, // not validated
	} {
		got, _ := renamedClass(&c, x.class, x.before)
		if got != x.want {
			t.Errorf("renamedClass(%s, before=%v) = %q, want %q", x.class, x.before, got, x.want)
		}
	}
}

// A Kotlin operation keeps its receiver in the name and reads function
// types whole.
func TestKotlinOperation(t *testing.T) {
	e, ok := operation("private FindLeakInput.buildPath(path ShortestPath, visit (Node) -> Unit, m Map<K, V>) : List<Ref>", "shark.HeapAnalyzer", "kotlin")
	if !ok || e.Method != "FindLeakInput.buildPath" || strings.Join(e.Params, "|") != "path ShortestPath|visit (Node) -> Unit|m Map<K, V>" {
		t.Errorf("read %+v, %v", e, ok)
	}
	if got := kotlinMethod("List<Map<K, V>>.forEachOf"); strings.Join(got, "::") != "List::forEachOf" {
		t.Errorf("kotlinMethod: %v", got)
	}
	if !sameParams([]string{"@A vararg m: Map<String, Int>?", "f: (Int) -> Unit"}, []string{"m Map<String,Int>", "f (Int) -> Unit"}, "kotlin") {
		t.Error("the same parameters differ")
	}
	if !sameParams([]string{"value: Int"}, []string{"value Inferred"}, "kotlin") {
		t.Error("an inferred type matches no type")
	}
	if sameParams([]string{"x: Int"}, []string{"x String"}, "kotlin") {
		t.Error("Int is String")
	}
}

// The Kotlin dataset is loaded as "kotlin" and only -sample kotlin
// replays it.
func TestKotlinSample(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "kotlin-dataset"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := `[{"repository": "https://github.com/acme/kite.git", "sha1": "abcdef0123", "refactorings": [
  {"type": "Rename Method", "description": "Rename Method internal Fragment.vm() : Vm renamed to internal Fragment.viewModel() : Vm in class a.b.FragmentExt.module", "validation": "TP"}]}]`
	if err := os.WriteFile(filepath.Join(dir, "kotlin-dataset", "data.json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	commits, err := loadOracle(dir, nil)
	if err != nil || len(commits) != 1 {
		t.Fatalf("loaded %d commits (%v), want 1", len(commits), err)
	}
	c := commits[0]
	if c.Dataset != "kotlin" || c.Lang != "kotlin" || len(c.Refs) != 1 {
		t.Fatalf("loaded %+v", c)
	}
	if r := c.Refs[0]; r.Before.String() != "a.b.FragmentExt.module.Fragment.vm()" || r.After.Method != "Fragment.viewModel" {
		t.Errorf("read %s → %s", r.Before, r.After)
	}
	// With neither clone nor snapshot, a chosen commit is reported on
	// stderr by its project.
	for _, sample := range []string{"dev", "report", "heldout", "all", "kotlin"} {
		var out, log strings.Builder
		err := run(t.Context(), []string{"-oracle", dir, "-clones", dir, "-sample", sample}, &out, &log)
		if chosen := strings.Contains(log.String(), "kite abcdef0123"); chosen != (sample == "kotlin") {
			t.Errorf("-sample %s: Kotlin commit chosen %v (%v):\n%s", sample, chosen, err, log.String())
		}
	}
}
