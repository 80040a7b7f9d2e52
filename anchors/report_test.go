package anchors_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorehq/lore/anchors"
)

var update = flag.Bool("update", false, "rewrite golden files")

// reportResults verifies a small repository where one anchor of each
// kind of outcome appears, one of them invalid with candidates.
func reportResults(t *testing.T) []anchors.Result {
	before := srcOf(t, `
-- auth.go --
package auth

func Check(t string) bool {
	return len(t) > 3
}

func Sign(k, t string) string {
	return k + t
}

func Old() int {
	return 1
}
-- calc.go --
package auth

func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
-- docs/auth.md --
# Auth
-- gen/a.go --
package gen
`)
	after := srcOf(t, `
-- auth.go --
package auth

func Validate(t string) bool {
	return len(t) > 3
}

func Sign(k, t string) string {
	return t + k
}
-- calc.go --
package auth

func SumPositive(xs []int) int {
	t := 0
	for _, x := range xs {
		if x > 0 {
			t += x
		}
	}
	return t
}

func SumNegative(xs []int) int {
	t := 0
	for _, x := range xs {
		if x < 0 {
			t += x
		}
	}
	return t
}
-- docs/auth.md --
# Auth
`)
	ctx := context.Background()
	var as []anchors.Anchor
	for _, spec := range []string{"auth.go::Check", "auth.go::Sign", "auth.go::Old", "calc.go::Sum", "docs/auth.md", "glob:gen/**/*.go"} {
		as = append(as, baseline(t, before, spec))
	}
	v, err := anchors.NewVerifier(after, anchors.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return v.VerifyLearnings(ctx, []anchors.Learning{
		{ID: "k3v9q2x7mf", Anchors: as[:4]},
		{ID: "p8d2w1c4zz", Anchors: as[4:]},
	})
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "testdata", "anchors", "report", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./anchors -run Report -update)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s (-want +got):\n%s", name, diffLines(string(want), string(got)))
	}
}

func TestReportWriters(t *testing.T) {
	rs := reportResults(t)
	titles := map[string]string{"k3v9q2x7mf": "tokens are checked before signing", "p8d2w1c4zz": "auth docs"}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"text.golden", func(b *bytes.Buffer) error { return anchors.WriteText(b, rs, anchors.TextOptions{Titles: titles}) }},
		{"text-color.golden", func(b *bytes.Buffer) error {
			return anchors.WriteText(b, rs, anchors.TextOptions{Color: true, HideValid: true})
		}},
		{"report.json.golden", func(b *bytes.Buffer) error { return anchors.WriteJSON(b, rs) }},
		{"report.sarif.golden", func(b *bytes.Buffer) error {
			return anchors.WriteSARIF(b, rs, anchors.SARIFOptions{ToolVersion: "0.0.0-test", Titles: titles})
		}},
		{"github.golden", func(b *bytes.Buffer) error { return anchors.WriteGitHub(b, rs, anchors.GitHubOptions{Titles: titles}) }},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		golden(t, tc.name, b.Bytes())
	}
}

// TestJSONFields pins the JSON field names that tools rely on (DESIGN.md §5).
func TestJSONFields(t *testing.T) {
	var b bytes.Buffer
	if err := anchors.WriteJSON(&b, reportResults(t)); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Summary map[string]int               `json:"summary"`
		Results []map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"valid", "drifted", "invalid"} {
		if _, ok := rep.Summary[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	for _, r := range rep.Results {
		for _, k := range []string{"learning", "anchor", "spec", "status", "change", "confidence", "from", "reason"} {
			if _, ok := r[k]; !ok {
				t.Errorf("result lacks %q: %v", k, r)
			}
		}
		var from map[string]any
		json.Unmarshal(r["from"], &from)
		for _, k := range []string{"path", "fqname", "lines"} {
			if _, ok := from[k]; !ok {
				t.Errorf("from lacks %q", k)
			}
		}
	}
}

// TestSARIFShape checks what GitHub code scanning requires of a SARIF
// 2.1.0 log: version, driver name and rules with unique ids, results whose
// ruleId and ruleIndex agree, a message, and a location with a region.
func TestSARIFShape(t *testing.T) {
	var b bytes.Buffer
	if err := anchors.WriteSARIF(&b, reportResults(t), anchors.SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
							EndLine   int `json:"endLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("header: %q %q runs=%d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "lore" {
		t.Errorf("driver name %q", run.Tool.Driver.Name)
	}
	ids := map[string]int{}
	for i, r := range run.Tool.Driver.Rules {
		if _, dup := ids[r.ID]; dup || r.ID == "" || r.ShortDescription.Text == "" {
			t.Errorf("rule %d: %+v", i, r)
		}
		ids[r.ID] = i
	}
	if len(run.Results) != 4 { // drifted Sign, invalid Old, Sum and glob
		t.Errorf("%d results, want 4", len(run.Results))
	}
	for _, r := range run.Results {
		if i, ok := ids[r.RuleID]; !ok || i != r.RuleIndex {
			t.Errorf("result rule %q index %d", r.RuleID, r.RuleIndex)
		}
		if r.Level != "warning" && r.Level != "error" || r.Message.Text == "" || len(r.Locations) != 1 {
			t.Errorf("result %+v", r)
		}
		l := r.Locations[0].PhysicalLocation
		if l.ArtifactLocation.URI == "" || strings.Contains(l.ArtifactLocation.URI, "*") || l.Region.StartLine < 1 || l.Region.EndLine < l.Region.StartLine {
			t.Errorf("location %+v", l)
		}
	}
}
