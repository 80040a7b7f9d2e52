// Package graph is lore's store: a Badger database holding the knowledge
// graph (typed nodes and weighted, typed edges between learnings, files,
// symbols, commits, tasks and runs) and the derived data of lore's other
// packages, kept in namespaces of a small key-value space.
//
// graph owns the database's lifecycle. Open waits a bounded time for another
// lore process that holds the database, recovers after a crash (Badger
// replays its write-ahead log), keeps Badger quiet on stderr, and rebuilds
// the store when its schema version differs from the caller's. An existing
// database is opened read-only (a shared lock, no files created) and
// reopened for writing on the first write, so that short read-only runs pay
// almost nothing to open and close it; a writer compacts level 0 on close
// only once short writers have left several tables there. Badger keeps
// every file it wrote mapped while its handle is open; a bulk writer calls
// Reopen between batches to release those pages, and Fill and LoadFrom
// reopen the store between the parts they stream. Nothing of
// Badger leaks out: callers see Store, Tx, Batch and domain types, and every
// byte slice they get is their own copy.
//
// # Failures
//
// No call waits on Badger without bound: when Badger reports an error (it
// retries a failed flush forever) or the store's directory goes away, the
// Store fails, calls under way give up after a grace period and later ones
// fail at once. Data that cannot be read, a Badger panic on a damaged table
// and a process that died while opening the store are ErrCorrupt: the
// store's content is damaged and, being derived, may be set aside and
// rebuilt; the operating system's errors (permission, full disk, I/O) are
// returned as such, with what to do. A writer starts only with room on the
// disk for Badger's mapped files, and entries or transactions Badger cannot
// take are ErrTooBig.
//
// # Graph
//
// Node ids are typed strings (learning:ID, file:PATH, symbol:PATH::FQNAME,
// task:ID, run:ID, commit:SHA). Edges have one of eight fixed types, a
// weight in 0..1, JSON metadata, times, a version and a mention count, and
// are unique on (type, from, relation, to); only LINKS_TO carries a
// relation. Writing an edge again updates it (UpsertEdge); edges can be
// soft-deleted with a reason and restored (InvalidateEdge, RestoreEdge) or
// removed, and removing a node removes its edges in the same transaction.
// Recent edge changes are kept in a bounded history (Tx.History).
//
// CO_CHANGES_WITH and SIMILAR_TO are undirected: an edge of these types is
// stored once, with its ends in id order, and is an out-edge and an in-edge
// of both ends, so it is followed whatever Direction a query asks for.
//
// Writes go through Store.Update (one transaction, *Tx), Store.Batch (bulk
// operations committed in chunks, *Batch), Store.Load and Store.LoadFrom
// (rebuilds and imports: keys sorted in bounded runs, spilled to temporary
// files and merged, then written in order; an empty store's tables are built
// directly) or Store.Fill (a store that holds little, such as before a first
// index, filled with entries, nodes and edges at once, its tables built
// directly, atomically). Reads go through Store.View or
// the Store's wrappers: Node, Edge, Edges, Traverse (best-first, scored by
// the product of weights along the best path), Neighborhood, Path and Stats.
// Export and Import speak lore's graph JSON (ReadJSON, or ScanJSON one node
// or edge at a time); Export also draws Graphviz DOT and Mermaid.
//
// # Storage
//
// Node ids are interned to integers, so an edge costs two short keys (four
// for an undirected one); a node's out-edges and in-edges are each one
// prefix scan over keys with 9-byte values (flags and weight). See the
// comment on the key layout in encode.go.
//
// graph imports nothing of lore.
package graph
