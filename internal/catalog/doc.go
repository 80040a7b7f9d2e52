// Package catalog keeps lore's store in step with the learning files: the
// store's cache of .lore/learnings/.
//
// Every command syncs first (Learnings.Sync): the learnings directory is
// listed, each file's stat is compared with the record the last sync
// stored (size and mtime, then the content hash when they differ), and
// only files that changed are parsed. A record is two values: a header
// that every sync reads (stat, hash, id, title, tags, created) and the
// encoded learning, read the first time an operation uses a learning, a
// few one by one and then all in one scan. Both use a compact binary form
// of this package (record.go), which knows only the learning file format.
// The graph gets each learning's node and authored edges (ANCHORED_TO,
// LINKS_TO, DERIVED_FROM), and SIMILAR_TO edges are recomputed for the
// learnings whose words changed.
//
// Learning files are written so that a reader, or a crash, sees the old
// file or the new one: through a synced temporary file renamed into place
// (WriteFile), a hard link for a new file that must not overwrite another
// (CreateFile), and a journal of renames when several files change as one
// (WriteLearnings), which the next sync completes if a crash stopped it.
package catalog
