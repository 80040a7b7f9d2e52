package anchors

import (
	"slices"
	"strings"
	"testing"
)

// normalize hides the symbol's own name where it is the symbol's, so a
// rename does not count against its body, and keeps it where it is a
// member of another object spelled alike.
func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ name, outer, toks, want string }{
		// Java: the declaration and a call on this are its own; Log.d is Log's.
		{"d", "Logger", "void d ( String m ) { Log . d ( m ) ; this . d ( m ) ; }", "void S ( String m ) { Log . d ( m ) ; this . S ( m ) ; }"},
		// A call through the type's own name is its own.
		{"d", "Logger", "void d ( ) { Logger . d ( ) ; }", "void S ( ) { O . S ( ) ; }"},
		// Go: a call on the receiver the header names is its own; on a field, not.
		{"Close", "Conn", "func ( c * Conn ) Close ( ) { c . Close ( ) ; c . raw . Close ( ) }", "func ( c * O ) S ( ) { c . S ( ) ; c . raw . Close ( ) }"},
		// Python: self and cls.
		{"close", "Pool", "def close ( self ) : self . close ( ) ; self . conn . close ( )", "def S ( self ) : self . S ( ) ; self . conn . close ( )"},
		// Rust: Self.
		{"new", "Pool", "fn new ( n : usize ) -> Self { Self :: new ( n ) ; Vec :: new ( ) }", "fn S ( n : usize ) -> Self { Self :: S ( n ) ; Vec :: new ( ) }"},
		// PHP and C++ qualifiers.
		{"run", "Job", "function run ( ) { $this -> run ( ) ; $q -> run ( ) ; self :: run ( ) ; }", "function S ( ) { $this -> S ( ) ; $q -> run ( ) ; self :: S ( ) ; }"},
	} {
		got := normalize(strings.Fields(tc.toks), tc.name, tc.outer)
		for i, g := range got {
			got[i] = strings.NewReplacer("\x01self", "S", "\x01outer", "O").Replace(g)
		}
		if want := strings.Fields(tc.want); !slices.Equal(got, want) {
			t.Errorf("normalize(%q, %s):\n got %v\nwant %v", tc.toks, tc.name, got, want)
		}
	}
}
