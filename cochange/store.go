package cochange

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/lorehq/lore/graph"
)

// ns is the store namespace of this package. Keys:
//
//	meta          state (JSON)
//	b/<block>     the change-sets of the commits with sequence numbers
//	              block*blockSize ... block*blockSize+blockSize-1
//	p/<chunk>     pathChunk interned paths, ids chunk*pathChunk...
//	r             the pairs of the last analysis
//	s             the symbol pairs of the last analysis, when it had symbols
const ns = "cc"

const (
	keyMeta     = "meta"
	keyResult   = "r"
	keySymbols  = "s"
	prefixBlock = "b/"
	blockSize   = 256
	prefixPaths = "p/"
	pathChunk   = 1024
	// formatVersion changes whenever the encoding does; a stored state of
	// another version is recomputed.
	formatVersion = 3
	// firstSeq is the sequence number of the first commit stored.
	firstSeq = 1
)

// state is what the store remembers of the last analysis.
type state struct {
	Version int       `json:"version"`
	Head    string    `json:"head"`
	RanAt   time.Time `json:"ran_at"`
	// Renames and ByDay say whether stored change-sets carry renames and
	// author days.
	Renames bool `json:"renames"`
	ByDay   bool `json:"by_day"`
	// Merges says whether merges were diffed.
	Merges bool `json:"merges,omitempty"`
	// Low and High are the lowest and highest sequence numbers of the
	// stored commits, Count how many there are (sequence numbers have
	// gaps where commits left the window). Sequence numbers say in which
	// run a commit was stored, not where it is in the walk.
	Low   uint64 `json:"low"`
	High  uint64 `json:"high"`
	Count int    `json:"count"`
	// Mode is the walk's mode (ModeNoMerges or ModeFirstParent).
	Mode  string `json:"mode"`
	Paths int    `json:"paths"`
	// Options of the last analysis and what it found.
	Since      time.Time `json:"since,omitzero"`
	MaxCommits int       `json:"max_commits,omitempty"`
	Filter     filterDoc `json:"filter"`
	Commits    int       `json:"commits"`
	Skipped    int       `json:"skipped"`
	Pairs      int       `json:"pairs"`
	Shallow    bool      `json:"shallow,omitempty"`
}

type filterDoc struct {
	MaxChangeset int     `json:"max_changeset"`
	MinRevs      int     `json:"min_revs"`
	MinShared    int     `json:"min_shared"`
	MinCoupling  float64 `json:"min_coupling"`
	Renames      bool    `json:"renames"`
	ByDay        bool    `json:"by_day"`
	Merges       bool    `json:"merges,omitempty"`
}

func blockKey(block uint64) string { return prefixBlock + fmt.Sprintf("%016x", block) }

// encodeBlock stores change-sets with their sequence numbers (ascending, all
// in one block).
func encodeBlock(sets []*changeSet, seqs []uint64) []byte {
	var b, buf []byte
	b = binary.AppendUvarint(b, uint64(len(sets)))
	for i, cs := range sets {
		buf = encodeChangeSet(buf[:0], cs)
		b = binary.AppendUvarint(b, seqs[i]%blockSize)
		b = binary.AppendUvarint(b, uint64(len(buf)))
		b = append(b, buf...)
	}
	return b
}

// decodeBlock calls fn for each change-set of a block.
func decodeBlock(block uint64, val []byte, npaths int, fn func(seq uint64, cs changeSet)) error {
	d := decoder{b: val}
	n := d.count()
	for range n {
		seq := block*blockSize + d.uvarint()
		raw := d.bytes(int(d.uvarint()))
		if d.err != nil {
			return d.err
		}
		cs, err := decodeChangeSet(raw, npaths)
		if err != nil {
			return err
		}
		fn(seq, cs)
	}
	if d.err == nil && len(d.b) != 0 {
		return errCorrupt
	}
	return d.err
}

func chunkKey(i int) string { return prefixPaths + fmt.Sprintf("%08x", i) }

// loadState returns the stored state, or nil when there is none or it is of
// another format.
func loadState(tx *graph.Tx) (*state, error) {
	b, err := tx.Get(ns, keyMeta)
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cochange: read state: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil || st.Version != formatVersion {
		return nil, nil
	}
	return &st, nil
}

// loadChain reads the stored paths and change-sets, with their sequence
// numbers.
func loadChain(tx *graph.Tx, st *state) (*pathTable, []changeSet, []uint64, error) {
	paths := &pathTable{ids: make(map[string]uint32, st.Paths), names: make([]string, 0, st.Paths)}
	err := scanLarge(tx, prefixPaths, func(key string, val []byte) error {
		names, err := decodePaths(val)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		i, err := strconv.ParseUint(key[len(prefixPaths):], 16, 32)
		if err != nil || int(i)*pathChunk != len(paths.names) {
			return nil // a chunk left over from an older table
		}
		for _, n := range names {
			if len(paths.names) >= st.Paths {
				break
			}
			paths.id(n)
		}
		return nil
	})
	if err == nil && len(paths.names) != st.Paths {
		err = fmt.Errorf("path table has %d of %d paths: %w", len(paths.names), st.Paths, errCorrupt)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cochange: read paths: %w", err)
	}
	sets := make([]changeSet, 0, st.Count)
	seqs := make([]uint64, 0, st.Count)
	err = scanLarge(tx, prefixBlock, func(key string, val []byte) error {
		block, err := strconv.ParseUint(key[len(prefixBlock):], 16, 64)
		if err != nil || block < st.Low/blockSize || block > st.High/blockSize {
			return nil
		}
		err = decodeBlock(block, val, len(paths.names), func(seq uint64, cs changeSet) {
			if seq >= st.Low && seq <= st.High {
				sets = append(sets, cs)
				seqs = append(seqs, seq)
			}
		})
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cochange: read change-sets: %w", err)
	}
	if len(sets) != st.Count {
		return nil, nil, nil, fmt.Errorf("cochange: read change-sets: %d of %d: %w", len(sets), st.Count, errCorrupt)
	}
	return paths, sets, seqs, nil
}
