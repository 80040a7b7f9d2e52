// Package roundtrip is lore's formatter round-trip suite: it anchors
// hundreds of functions, methods, classes and fields of real code, and
// every file whole, runs a
// real formatter over the files (gofmt and gofumpt, prettier, black,
// rustfmt, prettier's Java plugin and google-java-format, clang-format for
// C and C++, each with settings other than the code's own) and checks that
// every anchor still verifies, unchanged or reformatted. It holds tests
// only.
//
// The formatters and corpora come from the machine: .ci/run installs them
// (Debian's black, clang-format, librust-*-dev crates and a JDK's sources;
// prettier, its Java plugin, google-java-format's jar and npm packages
// that ship JavaScript and TypeScript sources; gofumpt from the Go module
// proxy) and names them in LORE_ROUNDTRIP_* variables; a test whose
// formatter or corpus is missing skips and says why. The C corpus is
// go-tree-sitter's, from the module cache; the C++ corpus is googletest's
// sources as Debian's googletest package installs them.
package roundtrip
