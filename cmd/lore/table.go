package main

import (
	"strings"
	"unicode/utf8"

	"github.com/lorehq/lore/learnfile"
)

// appendLearningTable lays out learnings as text/tabwriter would with
// padding 2 (ID, title, tags; a row without tags ends at its title), for a
// fraction of tabwriter's cost: `learn list` runs on every editor refresh
// and prints a row per learning.
func appendLearningTable(b []byte, ls []learnfile.Summary) []byte {
	const pad = 2
	idw := 0
	for _, l := range ls {
		idw = max(idw, utf8.RuneCountInString(l.ID))
	}
	for i := 0; i < len(ls); {
		if len(ls[i].Tags) == 0 {
			b = appendCell(b, ls[i].ID, idw+pad)
			b = append(b, ls[i].Title...)
			b = append(b, '\n')
			i++
			continue
		}
		// Titles of consecutive rows with tags form one tabwriter column.
		j, tw := i, 0
		for ; j < len(ls) && len(ls[j].Tags) > 0; j++ {
			tw = max(tw, utf8.RuneCountInString(ls[j].Title))
		}
		for ; i < j; i++ {
			b = appendCell(b, ls[i].ID, idw+pad)
			b = appendCell(b, ls[i].Title, tw+pad)
			b = append(b, strings.Join(ls[i].Tags, ",")...)
			b = append(b, '\n')
		}
	}
	return b
}

func appendCell(b []byte, s string, width int) []byte {
	b = append(b, s...)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b = append(b, ' ')
	}
	return b
}
