package anchors

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

func TestSupertypes(t *testing.T) {
	tests := []struct {
		path, src, typ string
		want           []string
	}{
		{"A.java", "class A<T> extends b.B<T> implements C, D {\n  void f() {}\n}\n", "A", []string{"B", "C", "D"}},
		{"a.ts", "export class A extends B implements C {\n  f() {}\n}\n", "A", []string{"B", "C"}},
		{"a.py", "class A(b.B, C):\n    def f(self):\n        pass\n", "A", []string{"B", "C"}},
		{"a.rb", "class A < Base::B\n  def f\n  end\nend\n", "A", []string{"B"}},
		{"a.rb", "class A\n  def f\n  end\nend\n", "A", nil},
		// The primary constructor's parameters, type parameters' bounds,
		// a delegate and a where clause are not supertypes.
		{"A.kt", "internal open class A<T : Any> @JvmOverloads constructor(private val f: (Int) -> Unit, m: Map<String, Int> = emptyMap()) : B<T>(f), C by impl, d.E where T : Comparable<T> {\n    fun g() = 1\n}\n", "A", []string{"B", "C", "E"}},
		{"A.kt", "object A : B<Int>() {\n    fun g() = 2\n}\n", "A", []string{"B"}},
		{"A.kt", "interface A : B, C\n", "A", []string{"B", "C"}},
		{"A.kt", "class A(val x: Int) {\n    fun g() = x\n}\n", "A", nil},
		{"A.cs", "namespace N {\npublic class A<T> : B<T>, IC where T : new() {\n  public void G() {}\n}\n}\n", "A", []string{"B", "IC"}},
		{"A.swift", "class A: B, C {\n  func g() {}\n}\n", "A", []string{"B", "C"}},
		{"A.swift", "struct A: Codable {}\n", "A", []string{"Codable"}},
		{"a.cpp", "class A : public B<int>, private ns::C, virtual D {\n public:\n  void g() {}\n};\n", "A", []string{"B", "C", "D"}},
	}
	p := analyzer.NewParser(nil)
	defer p.Close()
	for _, tt := range tests {
		pf, err := p.Parse(tt.path, []byte(tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		f := &File{Path: tt.path, Lang: pf.Lang, Src: []byte(tt.src), Symbols: pf.Symbols}
		got := slices.Sorted(maps.Keys(supertypes(f, tt.path+"::"+tt.typ)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("supertypes of %s in %s = %v, want %v", tt.typ, strings.SplitN(tt.src, "\n", 2)[0], got, tt.want)
		}
	}
}
