// Package anchors ties learnings to code. It owns anchor specs (symbol, line
// range, whole file, glob), their baselines (the fingerprints recorded when
// an anchor is created or accepted), the verifier that says whether an
// anchor still holds against a source (working tree, git index or a
// commit's tree), and the relocation of symbols and text that moved.
package anchors
