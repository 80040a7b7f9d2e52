package anchors

import (
	"context"
	"path"
)

// Files swapped in one change: a file's content went to a new file while
// the file took another's (dit's npdist.py became npscalardist.py and
// npjdist.py became npdist.py). Git without -B reads the first as
// modified and the second as deleted; a reviewer reads two renames.

// rewrittenTo returns the file added since Base that now holds what file
// p held, when p is still there but holds another file's content: at
// least half of p's old lines there (as git -M pairs files), clearly
// more than in any other added file and than p keeps, and p's content
// now at least half that of another file of Base, more than its own old
// content. "" otherwise. Cached for the run.
func (v *Verifier) rewrittenTo(ctx context.Context, p string) string {
	if v.opts.Base == nil || p == "" {
		return ""
	}
	key := "\x00rewritten\x00" + p
	if x, ok := v.pairs.Load(key); ok {
		return x.(string)
	}
	q := v.findRewritten(ctx, p)
	v.pairs.Store(key, q)
	return q
}

func (v *Verifier) findRewritten(ctx context.Context, p string) string {
	bf, err1 := v.opts.Base.File(ctx, p)
	cf, err2 := v.files.File(ctx, p)
	if err1 != nil || err2 != nil || bf.Hash == cf.Hash || bf.Skipped == "binary" || cf.Skipped == "binary" {
		return ""
	}
	now, err1 := v.files.Paths(ctx)
	before, err2 := v.opts.Base.Paths(ctx)
	if err1 != nil || err2 != nil {
		return ""
	}
	existed := make(map[string]bool, len(before))
	for _, x := range before {
		existed[x] = true
	}
	old, cur := lineCounts(bf.Src), lineCounts(cf.Src)
	stay := commonLines(old, cur)
	// Where its old content went: an added file of its directory.
	var added []string
	for _, q := range now {
		if !existed[q] && path.Dir(q) == path.Dir(p) {
			added = append(added, q)
		}
	}
	best, second, at := v.closestFile(ctx, old, added)
	if best < minRenameSimilarity || best-second < 0.1 || best < stay+0.25 {
		return ""
	}
	// Whose content it holds now: a file of Base gone from its directory.
	there := make(map[string]bool, len(now))
	for _, x := range now {
		there[x] = true
	}
	for _, d := range before {
		if there[d] || path.Dir(d) != path.Dir(p) {
			continue
		}
		df, err := v.opts.Base.File(ctx, d)
		if err != nil || df.Skipped == "binary" {
			continue
		}
		if sim := commonLines(lineCounts(df.Src), cur); sim >= minRenameSimilarity && sim > stay {
			return at
		}
	}
	return ""
}

// tookOver returns the file of Base file p's directory that, still
// there, now holds p's content while its own went to an added file (see
// rewrittenTo): where deleted file p went. "" when none, or more than
// one, does.
func (v *Verifier) tookOver(ctx context.Context, p string) string {
	if v.opts.Base == nil {
		return ""
	}
	old, now, ok := v.linesAndPaths(ctx, p)
	if !ok {
		return ""
	}
	at := ""
	for _, q := range now {
		if q == p || path.Dir(q) != path.Dir(p) || path.Ext(q) != path.Ext(p) {
			continue
		}
		if _, err := v.opts.Base.File(ctx, q); err != nil {
			continue // added: git's pairing, or renamedTo's, covers it
		}
		f, err := v.files.File(ctx, q)
		if err != nil || commonLines(old, lineCounts(f.Src)) < minRenameSimilarity || v.rewrittenTo(ctx, q) == "" {
			continue
		}
		if at != "" {
			return ""
		}
		at = q
	}
	return at
}
