// Package anchors ties learnings to code. It owns anchor specs (symbol, line
// range, whole file, glob), their baselines (the fingerprints recorded when
// an anchor is created or accepted), the verifier that says whether an
// anchor still holds against a source (working tree, git index or a
// commit's tree), and the relocation of symbols and text that moved.
//
// # Flow
//
// A driver reads code through Files; Source is the implementation over an
// io/fs.FS (source.Dir, source.GitIndex, source.GitTree, source.Overlay),
// parsing with the analyzer and, when given the analyzer's index, reusing
// the symbols of every file whose indexed content hash matches.
//
//	files, _ := anchors.NewSource(fsys, anchors.SourceOptions{Index: store, Renames: renames})
//	defer files.Close()
//	a, err := anchors.Baseline(ctx, files, spec)          // lore anchor add
//	v, _ := anchors.NewVerifier(files, anchors.Options{Base: head})
//	results := v.VerifyLearnings(ctx, learnings)          // lore verify
//	fixed, ok := anchors.Fix(results[i])                  // --fix
//	accepted, ok := anchors.Accept(results[i])            // lore anchor accept
//	anchors.WriteJSON(w, results)                         // or WriteText, WriteSARIF, WriteGitHub
//
// # Baselines
//
// A symbol anchor records the symbol's kind, lines, hash (its text up to
// line endings and trailing blanks), shape (its tokens without comments
// and layout), sig (the tokens of its header) and sketch (a 4-bit MinHash
// of its runs of three tokens, its own and outer names read as
// placeholders: "m1:" and 64 hex digits, see sketch.go). Lines anchors
// record hash, shape and sketch, file anchors hash and shape. Globs record nothing. Baseline refuses a spec
// that names nothing or, for symbols, more than one symbol: overloads and
// accessors of one name take a selector (overload.go); what none tells
// apart (two Go init functions) is anchored by lines.
//
// # Verification
//
// Verify follows DESIGN.md §2. A symbol found under its name is valid
// when its hash or shape is unchanged (formatting and comments never
// count), else drifted with signature-changed or body-changed. When its
// name came to be shared (a field beside a method, a second constructor),
// it is the one of the baseline's kind and, among those, of its
// signature, then the nearest to its old lines. A symbol
// missing from its file is looked for elsewhere: by name across the
// source (moved), by body among symbols of the same kind (renamed: equal
// tokens once the new name is read as the old one; else token similarity
// when the old body is known), both, and in renamed files. A relocation
// carries a confidence; rivals of the same quality, tiny bodies and
// kind changes lower it, and below Options.Threshold the result is invalid
// with Candidates instead of a silent move. With history, the candidates
// also name what is new in the change under a name like the old one
// (queryNodeInstanceLogs, queryLogs), for code rewritten past any
// likeness: a hint a person may take, never followed. A relocated body
// that changed is drift, never fixed automatically.
//
// Options.Base is an older source, such as HEAD or the merge base, where
// the anchored code may still be found with its baseline hash. When it is,
// relocation compares token similarity with the old body (renamed and
// edited, lines moved and edited) and ignores symbols that already existed
// there. Without it, an anchor's sketch stands in for the old body: a
// symbol renamed and edited is recognised by the estimated similarity of
// its tokens to the sketch (the same file, the files the rename map and
// the name point at, then the rest of the source within a budget), and
// tiny identical bodies are followed into files of the same directory;
// edited lines are looked for as the window most similar to the sketch.
// With history and the list of files the change touched (Options.Changed,
// which lore's verify reads from git), a method renamed while its body was
// rewritten is followed where the change's lines that used its old name
// now use the new one and nothing else on them changed: in its place, up
// or down its type's hierarchy, or (a call r.a(p) become p.b()) into the
// type of one of its parameters.
// Anchors without a sketch (recorded by older versions) follow moves,
// renames with an unchanged body, reformatting and, in their own file, a
// symbol with the same header and about the same length. Fix and Accept
// record a fresh sketch.
//
// Verifying all anchors of a run in one VerifyLearnings or VerifyAll call
// is better than one Verify each: two anchors never relocate to the same
// symbol, and a symbol renamed in the run explains bodies that only call
// it by its new name.
//
// Results are data: an unreadable or unparseable file is a finding in the
// result, and no function of the package returns an error for a finding.
package anchors
