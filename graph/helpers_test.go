package graph

import "github.com/dgraph-io/badger/v4"

func badgerPrefix(p byte) badger.IteratorOptions { return badger.IteratorOptions{Prefix: []byte{p}} }
