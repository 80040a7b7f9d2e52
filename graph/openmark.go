package graph

// openMarkPrefix names the marker files of markOpening, loadMarkPrefix
// those of markLoading, markingPrefix those being made. Only unix systems
// make them (openmark_unix.go).
const (
	openMarkPrefix = "lore-opening-"
	loadMarkPrefix = "lore-loading-"
	markingPrefix  = "lore-marking-"
)
