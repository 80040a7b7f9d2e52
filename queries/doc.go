// Package queries owns lore's tree-sitter query files, one directory per
// language (queries/<lang>/*.scm), embedded into the binary. It knows
// nothing of lore: it hands out the files and a version string per
// language so that an index built with other queries can be told apart.
package queries
