package main

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeProcess runs `lore serve` as a process, asks it something and
// stops it with SIGTERM: it must exit cleanly.
func TestServeProcess(t *testing.T) {
	lore := loreBinary(t)
	dir := gitRepo(t, serviceFiles, nil)
	if out, err := exec.Command(lore, "-C", dir, "init").CombinedOutput(); err != nil {
		t.Fatalf("lore init: %v\n%s", err, out)
	}
	cmd := exec.Command(lore, "-C", dir, "serve", "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("no address printed: %v", err)
	}
	base := strings.TrimSpace(strings.TrimPrefix(line, "lore: serving on "))
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("stderr: %q", line)
	}
	resp, err := http.Get(base + "/verify")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"summary"`) {
		t.Errorf("GET /verify: %d %s", resp.StatusCode, body)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("lore serve after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("lore serve did not stop after SIGTERM")
	}
}
