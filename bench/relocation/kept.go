package main

import (
	"context"
	"maps"
	"slices"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
)

// Not every instance of the oracle can be followed by a note: a method
// the commit rewrote (commons-io's freeSpaceOS, 180 lines of shell
// parsing, became getFreeSpace, three lines of NIO) left no code for the
// note to describe, and a class copied to two places (lucene's codecs
// split into core and backward-codecs) has two honest answers, of which
// the oracle names one. The bench measures both apart from lore's
// scoring, so that the figures can say which instances they are:
//
//   - kept: the share of the old code's words (its names, keywords and
//     literals; not its punctuation) that the oracle's target holds: twice
//     the words the two share, as bags, over both counts;
//   - twin: a symbol of the same kind that the commit added in a file it
//     touched, not the target, at least as like the old code as the
//     target (within twinMargin), when the target kept at least half.
//
// An instance is clear when its target kept at least clearKept and has
// no twin. The column clear is lore's recall on those.

const (
	clearKept  = 0.5
	twinMargin = 0.02
)

// clear reports whether in is clear: its target kept at least
// clearKept of the old code and has no twin.
func (in *instance) clear() bool {
	return in.kept >= clearKept && in.twin == ""
}

// survival sets in.kept and in.twin.
func survival(ctx context.Context, parent, child *anchors.Source, changed map[string]bool, in *instance) {
	in.kept = 1
	old := targetWords(ctx, parent, in.before)
	now := targetWords(ctx, child, in.after)
	if old == nil || now == nil {
		return // a file or module, or unreadable: counted as clear
	}
	in.kept = bagLikeness(old, now)
	if in.kept < clearKept {
		return
	}
	for _, p := range slices.Sorted(maps.Keys(changed)) {
		cf, err := child.File(ctx, p)
		if err != nil {
			continue
		}
		had := map[string]bool{}
		if bf, err := parent.File(ctx, p); err == nil {
			for _, s := range bf.Symbols {
				had[s.FQName] = true
			}
		}
		for _, s := range cf.Symbols {
			if s.Kind != in.after.Kind || had[s.FQName] || s.FQName == in.after.FQName && s.StartLine == in.after.Start {
				continue
			}
			text, ok := analyzer.Lines(cf.Src, s.StartLine, s.EndLine)
			if !ok {
				continue
			}
			if bagLikeness(old, words(cf.Lang, text)) >= in.kept-twinMargin {
				in.twin = s.FQName
				return
			}
		}
	}
}

// targetWords returns the words (see words) of t's symbol in src, or nil
// for a file target or one that cannot be read.
func targetWords(ctx context.Context, src *anchors.Source, t target) []string {
	if t.FQName == "" || t.Start == 0 {
		return nil
	}
	f, err := src.File(ctx, t.Path)
	if err != nil {
		return nil
	}
	text, ok := analyzer.Lines(f.Src, t.Start, t.End)
	if !ok {
		return nil
	}
	return words(f.Lang, text)
}

// words returns the tokens of text that are not punctuation.
func words(lang string, text []byte) []string {
	var out []string
	for _, t := range analyzer.Tokens(lang, text) {
		if c := t[0]; c == '_' || c == '$' || c == '"' || c == '\'' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80 {
			out = append(out, t)
		}
	}
	return out
}

// bagLikeness is twice the tokens a and b share, as bags, over their
// total count.
func bagLikeness(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	count := map[string]int{}
	for _, t := range a {
		count[t]++
	}
	shared := 0
	for _, t := range b {
		if count[t] > 0 {
			count[t]--
			shared++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b))
}
