//go:build linux

// Command faults measures what memory costs the first time a process
// touches it on this machine: a minor page fault on fresh anonymous memory,
// the same memory populated by one madvise call, transparent huge pages,
// and read faults on a file already in the page cache, written either with
// one write or through a shared mapping (as Badger writes its tables: the
// page cache then holds it in 4 KiB folios, mapped 16 pages a fault). On
// the machine of BENCHMARKS.md a fault costs 10-20 µs, most of the time of
// a short lore command; these figures let a reader scale that command's
// timings to another machine.
//
//	go run ./bench/faults [-mib 16] [-runs 7]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const page = 4 << 10

func main() {
	mib := flag.Int("mib", 16, "MiB touched per measurement")
	runs := flag.Int("runs", 7, "measurements per case (the median is printed)")
	flag.Parse()
	if err := run(*mib<<20, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		os.Exit(1)
	}
}

// a case maps size bytes, prepares them (advice) and touches one byte per
// page; it returns the advice's time and the touch's.
type measure func(size int) (advise, touch time.Duration, faults int64, err error)

func run(size, runs int) error {
	written, err := pageCachedFile(size, false)
	if err != nil {
		return err
	}
	defer removeTemp(written)
	mapped, err := pageCachedFile(size, true)
	if err != nil {
		return err
	}
	defer removeTemp(mapped)
	cases := []struct {
		name string
		m    measure
	}{
		{"anonymous, 4 KiB faults", anon(nil)},
		{"anonymous, MADV_POPULATE_WRITE first", anon([]int{unix.MADV_POPULATE_WRITE})},
		{"anonymous, MADV_HUGEPAGE", anon([]int{unix.MADV_HUGEPAGE})},
		{"anonymous, MADV_HUGEPAGE + POPULATE_WRITE", anon([]int{unix.MADV_HUGEPAGE, unix.MADV_POPULATE_WRITE})},
		{"file written with one write, read faults", mappedRead(written)},
		{"file written through a mapping, read faults", mappedRead(mapped)},
	}
	fmt.Printf("%d MiB per measurement, median of %d; times per 4 KiB page touched\n", size>>20, runs)
	for _, c := range cases {
		var per, adv []float64
		var faults int64
		for range runs {
			a, t, f, err := c.m(size)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			pages := float64(size / page)
			per = append(per, float64((a+t).Nanoseconds())/pages/1e3)
			adv = append(adv, float64(a.Microseconds())/1e3)
			faults = f
		}
		slices.Sort(per)
		slices.Sort(adv)
		fmt.Printf("%-44s %7.2f µs/page  (advice %.2f ms, %d faults)\n", c.name, per[len(per)/2], adv[len(adv)/2], faults)
	}
	return nil
}

// removeTemp removes a temporary file. Best effort: it is not a
// measurement.
func removeTemp(name string) { _ = os.Remove(name) }

// unmap unmaps b, for a deferred call: a failure fails the measurement
// (*err) unless it failed already.
func unmap(b []byte, err *error) {
	if uerr := unix.Munmap(b); *err == nil && uerr != nil {
		*err = fmt.Errorf("munmap: %w", uerr)
	}
}

func anon(advice []int) measure {
	return func(size int) (_, _ time.Duration, _ int64, err error) {
		b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		if err != nil {
			return 0, 0, 0, err
		}
		defer unmap(b, &err)
		f0 := minorFaults()
		t0 := time.Now()
		for _, a := range advice {
			if err := unix.Madvise(b, a); err != nil {
				return 0, 0, 0, fmt.Errorf("madvise %d: %w", a, err)
			}
		}
		t1 := time.Now()
		for i := 0; i < len(b); i += page {
			b[i] = 1
		}
		return t1.Sub(t0), time.Since(t1), minorFaults() - f0, nil
	}
}

func mappedRead(name string) measure {
	return func(size int) (_, _ time.Duration, _ int64, err error) {
		f, err := os.Open(name)
		if err != nil {
			return 0, 0, 0, err
		}
		defer func() { _ = f.Close() }() // only read
		b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			return 0, 0, 0, err
		}
		defer unmap(b, &err)
		f0 := minorFaults()
		t0 := time.Now()
		var sum byte
		for i := 0; i < len(b); i += page {
			sum += b[i]
		}
		d, n := time.Since(t0), minorFaults()-f0
		if sum == 1 && n < 0 { // keeps the reads: sum is used
			return 0, 0, 0, fmt.Errorf("impossible fault count")
		}
		return 0, d, n, nil
	}
}

// pageCachedFile writes size bytes to a temporary file, in one write or
// through a shared mapping (as Badger writes its tables), so that they are
// in the page cache in the folios that way of writing leaves.
func pageCachedFile(size int, throughMapping bool) (string, error) {
	f, err := os.CreateTemp("", "faults-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	buf := make([]byte, size)
	for i := range buf {
		buf[i] = byte(i)
	}
	if throughMapping {
		err = writeMapped(f, buf)
	} else {
		_, err = f.Write(buf)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		removeTemp(name)
		return "", err
	}
	return name, nil
}

func writeMapped(f *os.File, buf []byte) error {
	if err := f.Truncate(int64(len(buf))); err != nil {
		return err
	}
	m, err := unix.Mmap(int(f.Fd()), 0, len(buf), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	copy(m, buf)
	if err := unix.Msync(m, unix.MS_SYNC); err != nil {
		return errors.Join(err, unix.Munmap(m))
	}
	return unix.Munmap(m)
}

func minorFaults() int64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		panic(fmt.Sprintf("getrusage: %v", err)) // cannot fail for RUSAGE_SELF
	}
	return r.Minflt
}
