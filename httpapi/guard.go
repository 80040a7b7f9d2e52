package httpapi

import (
	"errors"
	"net"
	"net/http"
	"sync"

	"github.com/lorehq/lore/internal/loopback"
)

// guard answers the requests loopback.Check refuses with its status and
// a JSON error, and passes the others to next.
func guard(hosts []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ref *loopback.Refusal
		if err := loopback.Check(r, hosts); errors.As(err, &ref) {
			writeError(w, ref.Status, ref.Err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitListener accepts at most n connections at a time; the next one
// waits in the kernel's backlog until one closes.
type limitListener struct {
	net.Listener
	slots chan struct{}
}

func limit(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n)}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
