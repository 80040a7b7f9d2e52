// Package udiff writes the unified diff of two texts, as `diff -u` and
// `git diff` print it, so that `git apply` or `patch -p1` can apply it:
// lore prints the learning-file changes `verify --fix` would make as such
// a patch, for a reviewer to apply as a suggestion.
package udiff
