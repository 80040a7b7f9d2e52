//go:build !unix

package source

import "errors"

// appendFileNoFollow has no fast path here: dirFS resolves the file first.
func appendFileNoFollow(dst []byte, _ string) ([]byte, error) {
	return dst, errors.ErrUnsupported
}
