package anchors_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lorehq/lore/anchors"
)

// cppJSON is modelled on nlohmann/json's basic_json: element access that
// is overloaded on const, a call operator, a conversion operator and
// free functions overloaded on their parameters' types.
const cppJSON = `
-- json.hpp --
#include <map>
#include <string>

namespace nl {
struct less {
  bool operator()(const std::string& a, const std::string& b) const { return a < b; }
};

class json {
 public:
  json& operator[](std::size_t idx) { return items_[idx]; }
  const json& operator[](std::size_t idx) const { return items_.at(idx); }
  json& operator[](const std::string& key) { return fields_[key]; }
  explicit operator bool() const { return !items_.empty(); }
  int value(const std::map<std::string, int>& m, int fallback = 0) const & { return fallback; }
  int value(const std::map<std::string, int>& m, int fallback = 0) && { return fallback; }

 private:
  std::map<std::string, json, less> fields_;
  std::vector<json> items_;
};

int parse(const char* text, int flags) { return flags; }
int parse(const std::string& text) { return parse(text.c_str(), 0); }
}  // namespace nl
`

// C++ symbols are anchored by name where it is unique, operators
// included, and by their parameters' types and qualifiers where not.
func TestCppSelectors(t *testing.T) {
	ctx := context.Background()
	src := sourceOf(cppJSON)
	defer src.Close()
	for _, c := range []struct{ spec, want string }{
		{"json.hpp::nl::less::operator()", "json.hpp::nl::less::operator()"},
		{"json.hpp::nl::json::operator bool", "json.hpp::nl::json::operator bool"},
		{"json.hpp::nl::json::operator[](std::size_t)", "json.hpp::nl::json::operator[](std::size_t)"},
		{"json.hpp::nl::json::operator[](std::size_t) const", "json.hpp::nl::json::operator[](std::size_t)const"},
		{"json.hpp::nl::json::operator[](const std::string &)", "json.hpp::nl::json::operator[](const std::string&)"},
		{"json.hpp::nl::json::value(const std::map<std::string, int>&, int) const&", "json.hpp::nl::json::value(const std::map<std::string,int>&,int)const&"},
		{"json.hpp::nl::json::value(const std::map<std::string,int>&,int)&&", "json.hpp::nl::json::value(const std::map<std::string,int>&,int)&&"},
		{"json.hpp::nl::parse(const char*, int)", "json.hpp::nl::parse(const char*,int)"},
		// Written before C++ selectors read types: the names kept.
		{"json.hpp::nl::parse(const std::string& text)", "json.hpp::nl::parse(const std::string&)"},
	} {
		spec, err := anchors.ParseSpec(c.spec)
		if err != nil {
			t.Errorf("ParseSpec(%s): %v", c.spec, err)
			continue
		}
		a, err := anchors.Baseline(ctx, src, spec)
		if err != nil {
			t.Errorf("Baseline(%s): %v", c.spec, err)
			continue
		}
		if a.Symbol != c.want {
			t.Errorf("Baseline(%s) = %s, want %s", c.spec, a.Symbol, c.want)
		}
	}
	for _, c := range []struct {
		spec string
		want error
	}{
		{"json.hpp::nl::json::operator[]", anchors.ErrAmbiguous},
		{"json.hpp::nl::json::value", anchors.ErrAmbiguous},
		{"json.hpp::nl::json::operator[](int)", anchors.ErrNoTarget},
	} {
		spec, err := anchors.ParseSpec(c.spec)
		if err == nil {
			_, err = anchors.Baseline(ctx, src, spec)
		}
		if !errors.Is(err, c.want) {
			t.Errorf("Baseline(%s): %v, want %v", c.spec, err, c.want)
		}
	}
}

// An anchor recorded before C++ selectors read types names its overload
// with the parameters' names; it still finds its symbol.
func TestCppSelectorWithNames(t *testing.T) {
	ctx := context.Background()
	src := sourceOf(cppJSON)
	defer src.Close()
	spec, _ := anchors.ParseSpec("json.hpp::nl::parse(const std::string&)")
	a, err := anchors.Baseline(ctx, src, spec)
	if err != nil {
		t.Fatal(err)
	}
	a.Symbol = "json.hpp::nl::parse(const std::string&text)"
	v, err := anchors.NewVerifier(src, anchors.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := v.VerifyLearnings(ctx, []anchors.Learning{{ID: "k3v9q2x7mf", Anchors: []anchors.Anchor{a}}})[0]
	if r.Status != anchors.Valid || r.Change != anchors.ChangeNone {
		t.Errorf("got %s %s (%s), want valid, unchanged", r.Status, r.Change, r.Reason)
	}
}
