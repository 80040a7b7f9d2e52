package cochange

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/lorehq/lore/graph"
)

// partSize bounds the values this package stores: the store's in-memory
// mode refuses values above its value threshold (4 KiB), and small values
// stay in Badger's LSM tree. A larger value is split into parts stored under
// <key>/<part>; part 0 starts with the number of parts, so parts left over
// from a longer earlier value are ignored.
const partSize = 3000

func partKey(key string, i int) string { return key + "/" + fmt.Sprintf("%04x", i) }

// setLarge stores val under key in parts.
func setLarge(bt *graph.Batch, key string, val []byte) error {
	n := max(1, (len(val)+partSize-1)/partSize)
	for i := range n {
		chunk := val[min(i*partSize, len(val)):min((i+1)*partSize, len(val))]
		if i == 0 {
			chunk = append(binary.AppendUvarint(nil, uint64(n)), chunk...)
		}
		if err := bt.Set(ns, partKey(key, i), chunk); err != nil {
			return err
		}
	}
	return nil
}

// deleteLarge removes every part of key.
func deleteLarge(s *graph.Store, key string) error {
	var keys []string
	if err := s.View(func(tx *graph.Tx) error {
		return tx.Keys(ns, key+"/", func(k string) error {
			keys = append(keys, k)
			return nil
		})
	}); err != nil {
		return err
	}
	return s.Batch(func(bt *graph.Batch) error {
		for _, k := range keys {
			if err := bt.Delete(ns, k); err != nil {
				return err
			}
		}
		return nil
	})
}

// getLarge reads the value stored under key, or graph.ErrNotFound.
func getLarge(tx *graph.Tx, key string) ([]byte, error) {
	var out []byte
	found := false
	err := scanLarge(tx, key+"/", func(k string, val []byte) error {
		if k == key {
			out, found = val, true
		}
		return nil
	})
	if err == nil && !found {
		err = graph.ErrNotFound
	}
	return out, err
}

// scanLarge calls fn with every complete value whose key starts with prefix,
// in key order. Parts without a part 0 are ignored.
func scanLarge(tx *graph.Tx, prefix string, fn func(key string, val []byte) error) error {
	var cur string
	var buf []byte
	want, have := 0, 0
	err := tx.Scan(ns, prefix, func(k string, val []byte) error {
		slash := strings.LastIndexByte(k, '/')
		if slash < 0 {
			return nil
		}
		key := k[:slash]
		i, err := strconv.ParseUint(k[slash+1:], 16, 32)
		if err != nil {
			return nil
		}
		if i == 0 {
			n, w := binary.Uvarint(val)
			if w <= 0 || n == 0 {
				return fmt.Errorf("%s: %w", k, errCorrupt)
			}
			cur, buf, want, have = key, append(buf[:0], val[w:]...), int(n), 1
		} else if key == cur && int(i) == have && have < want {
			buf = append(buf, val...)
			have++
		} else {
			return nil // left over from an earlier, longer value
		}
		if have == want && key == cur {
			want = 0
			return fn(key, buf)
		}
		return nil
	})
	if err == nil && want != 0 {
		err = fmt.Errorf("%s: %d of %d parts: %w", cur, have, want, errCorrupt)
	}
	return err
}
