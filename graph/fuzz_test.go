package graph

import (
	"bytes"
	"context"
	"testing"
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
