package main

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/term"
)

// progress returns a function that draws a one-line progress bar on
// stderr when stderr is a terminal: done of total, files/s and ETA.
// Calling it with done < 0 clears the line. Off a terminal it does nothing,
// so JSON on stdout never mixes with it.
func (a *app) progress(label string) func(done, total int) {
	f, ok := a.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func(int, int) {}
	}
	start := time.Now()
	var last time.Time
	drawn := false
	return func(done, total int) {
		if done < 0 {
			if drawn {
				fmt.Fprint(f, "\r\033[K")
			}
			return
		}
		now := time.Now()
		if now.Sub(last) < 100*time.Millisecond && done != total {
			return
		}
		last = now
		el := now.Sub(start).Seconds()
		rate := float64(done) / max(el, 1e-3)
		eta := ""
		if rate > 0 && total > done {
			eta = fmt.Sprintf(" ETA %s", (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second))
		}
		const width = 30
		fill := 0
		if total > 0 {
			fill = done * width / total
		}
		bar := make([]byte, width)
		for i := range bar {
			bar[i] = '.'
			if i < fill {
				bar[i] = '#'
			}
		}
		fmt.Fprintf(f, "\r\033[K%s [%s] %d/%d %.0f files/s%s", label, bar, done, total, rate, eta)
		drawn = true
	}
}
