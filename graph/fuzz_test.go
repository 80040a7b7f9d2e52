package graph

import (
	"bytes"
	"context"
	"maps"
	"testing"

	segjson "github.com/segmentio/encoding/json"
)

// The graph's JSON import and its stored records are formats of our own:
// none may panic on arbitrary bytes, and an accepted import round-trips.
func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"nodes":[{"id":"file:a.go"}],"edges":[{"type":"IMPORTS","from":"file:a.go","to":"file:b.go"}]}`))
	f.Add([]byte(`{"edges":[{"type":"LINKS_TO","from":"learning:ab","to":"learning:cd","relation":"x","weight":0.5,"metadata":{"k":[1]}}]}`))
	f.Add([]byte(`{"nodes":[],"edges":[{"type":"NOPE"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sub, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		s, err := Open("", Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var buf bytes.Buffer
		if err := sub.Write(&buf, JSON); err != nil {
			return
		}
		if err := s.Import(context.Background(), bytes.NewReader(buf.Bytes())); err != nil {
			return // refused by the rules: fine
		}
	})
}

func FuzzDecodeStored(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3})
	f.Add(bytes.Repeat([]byte{0xff}, 20))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeRecord(b)
		decodeNode(b)
		decodeMetadata(b)
		parseAdjKey(b)
		var a adj
		parseAdjValue(b, &a)
	})
}

// quickEdge reads what it accepts as the general decoder does.
func FuzzQuickEdge(f *testing.F) {
	f.Add([]byte(`{"type":"IMPORTS","from":"file:a.go","to":"file:b.go","weight":1.0}`))
	f.Add([]byte(` { "to" : "x", "relation":"r" , "weight":-0.5e-3,"type":"LINKS_TO"} `))
	f.Add([]byte(`{"type":"IMPORTS","from":"a\"b","weight":01}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var quick jsonEdge
		if !quickEdge(b, &quick) {
			return
		}
		var general jsonEdge
		if err := segjson.Unmarshal(b, &general); err != nil {
			t.Fatalf("%q: quickEdge accepted what the decoder refuses: %v", b, err)
		}
		if quick.Type != general.Type || quick.From != general.From || quick.To != general.To || quick.Relation != general.Relation ||
			(quick.Weight == nil) != (general.Weight == nil) || quick.Weight != nil && *quick.Weight != *general.Weight {
			t.Fatalf("%q: quickEdge read %+v, the decoder %+v", b, quick, general)
		}
	})
}

// quickNode reads what it accepts as the general decoder does.
func FuzzQuickNode(f *testing.F) {
	f.Add([]byte(`{"id":"file:a.go","attrs":{"lang":"go"}}`))
	f.Add([]byte(` {"attrs" : {}, "id":"x" , "attrs":{"a":"b","a":"c"}} `))
	f.Add([]byte(`{"id":"a\"b","attrs":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var quick jsonNode
		if !quickNode(b, &quick) {
			return
		}
		var general jsonNode
		if err := segjson.Unmarshal(b, &general); err != nil {
			t.Fatalf("%q: quickNode accepted what the decoder refuses: %v", b, err)
		}
		if quick.ID != general.ID || !maps.Equal(quick.Attrs, general.Attrs) || (quick.Attrs == nil) != (general.Attrs == nil) {
			t.Fatalf("%q: quickNode read %+v, the decoder %+v", b, quick, general)
		}
	})
}
