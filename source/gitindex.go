package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// indexEntry is what lore needs of one entry of git's index.
type indexEntry struct {
	name        string
	mode        uint32
	size        uint32 // as git recorded it: the low 32 bits of the file's size
	mtime       time.Time
	hash        [20]byte
	stage       int
	intentToAdd bool
}

// maxIndexEntries bounds the entry count a header may claim before any
// allocation: a corrupt or hostile index must not exhaust memory.
const maxIndexEntries = 1 << 24

var errSplitIndex = errors.New("split index (core.splitIndex) is not supported: run git update-index --no-split-index")

// parseIndex decodes git's index file, versions 2 to 4, as described in
// git's Documentation/gitformat-index.txt. go-git's decoder allocated per
// field and was most of the time of a pre-commit verification on a large
// repository; this one makes one string per path.
func parseIndex(data []byte) ([]indexEntry, error) {
	var entries []indexEntry
	err := eachIndexEntry(data, func(i, n uint32, fixed, name []byte) {
		if i == 0 {
			entries = make([]indexEntry, 0, n)
		}
		e := indexEntry{
			name:  string(name),
			mtime: time.Unix(int64(binary.BigEndian.Uint32(fixed[8:12])), int64(binary.BigEndian.Uint32(fixed[12:16]))),
			mode:  binary.BigEndian.Uint32(fixed[24:28]),
			size:  binary.BigEndian.Uint32(fixed[36:40]),
		}
		copy(e.hash[:], fixed[40:60])
		flags := binary.BigEndian.Uint16(fixed[60:62])
		e.stage = int(flags>>12) & 3
		// Skip-worktree entries still hold the staged content.
		e.intentToAdd = len(fixed) == 64 && binary.BigEndian.Uint16(fixed[62:64])&0x2000 != 0
		entries = append(entries, e)
	})
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// eachIndexEntry calls each with the fixed part (62 bytes, 64 with
// extended flags) and the path of every entry of git's index file data,
// in order; name is valid during the call only (version 4 builds it in a
// reused buffer). Extensions are skipped, except that a split index is
// refused: its entries live in another file.
func eachIndexEntry(data []byte, each func(i, n uint32, fixed, name []byte)) error {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return errors.New("not a git index file")
	}
	// Like git, which checks the trailing checksum only in fsck, do not
	// hash the whole file on every read: every length is bounds-checked.
	body := data[:len(data)-20]
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return fmt.Errorf("git index version %d is not supported", version)
	}
	n := binary.BigEndian.Uint32(data[8:12])
	if n > maxIndexEntries || uint64(n)*(62+2) > uint64(len(body)) {
		return fmt.Errorf("git index claims %d entries in %d bytes", n, len(body))
	}
	p := body[12:]
	var name []byte // version 4: the path, built on the previous one
	for i := uint32(0); i < n; i++ {
		if len(p) < 62 {
			return errTruncatedIndex
		}
		fixed := 62
		if binary.BigEndian.Uint16(p[60:62])&0x4000 != 0 { // extended flags
			if version < 3 || len(p) < 64 {
				return errTruncatedIndex
			}
			fixed = 64
		}
		rest := p[fixed:]
		if version == 4 {
			strip, w := indexVarint(rest)
			if w == 0 || strip > uint64(len(name)) {
				return errTruncatedIndex
			}
			rest = rest[w:]
			nul := bytes.IndexByte(rest, 0)
			if nul < 0 {
				return errTruncatedIndex
			}
			name = append(name[:len(name)-int(strip)], rest[:nul]...)
			each(i, n, p[:fixed], name)
			p = rest[nul+1:]
		} else {
			nul := bytes.IndexByte(rest, 0)
			if nul < 0 {
				return errTruncatedIndex
			}
			// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
			size := (fixed + nul + 8) &^ 7
			if size > len(p) {
				return errTruncatedIndex
			}
			each(i, n, p[:fixed], rest[:nul])
			p = p[size:]
		}
	}
	// Extensions: a four-byte signature and a length each.
	for len(p) >= 8 {
		sig, size := string(p[:4]), binary.BigEndian.Uint32(p[4:8])
		if uint64(size) > uint64(len(p)-8) {
			return errTruncatedIndex
		}
		if sig == "link" {
			return errSplitIndex
		}
		p = p[8+size:]
	}
	return nil
}

var errTruncatedIndex = errors.New("git index is truncated or damaged")

// indexVarint decodes the offset varint of version 4 paths (git's
// varint.c: each continuation adds one before shifting, so every value
// has a single encoding). It returns the value and the bytes read, 0 on
// bad input.
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		c = b[i]
		v = ((v + 1) << 7) | uint64(c&0x7f)
		i++
	}
	return v, i
}

// indexMode turns an index entry's mode into a file mode.
func indexMode(m uint32) fs.FileMode {
	switch m & 0o170000 {
	case 0o120000:
		return fs.ModeSymlink | 0o777
	}
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}
