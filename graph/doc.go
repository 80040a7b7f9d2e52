// Package graph is lore's store: a Badger database holding the knowledge
// graph (typed nodes and weighted, typed edges between learnings, files,
// symbols, commits, tasks and runs) and the derived data of lore's other
// packages, kept in namespaces of a small key-value space.
//
// graph owns the database's lifecycle. Open waits a bounded time for another
// lore process that holds the database, recovers after a crash (Badger
// replays its write-ahead log), keeps Badger quiet on stderr, and rebuilds
// the store when its schema version differs from the caller's. Nothing of
// Badger leaks out: callers see Store, Tx, Batch and domain types, and every
// byte slice they get is their own copy.
//
// graph imports nothing of lore.
package graph
