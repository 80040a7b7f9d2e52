//go:build !unix

package graph

// markOpening marks nothing where lore cannot lock a file the unix way:
// a store that makes Badger panic while opening is then not detected.
func markOpening(string) func() { return func() {} }

// markLoading marks nothing either: a load killed halfway into an empty
// store is not detected.
func markLoading(string) func(bool) { return func(bool) {} }

func diedOpening(string) string { return "" }

func loadingElsewhere(string) string { return "" }
