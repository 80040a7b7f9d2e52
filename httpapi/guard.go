package httpapi

import (
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// loopbackNames are the host names a loopback server answers to when
// Options.Hosts is empty.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// hostAllowed reports whether the Host header's name (its port aside) is
// one of names: a page of another site that reaches the server through DNS
// rebinding sends its own name.
func hostAllowed(hostport string, names []string) bool {
	if hostport == "" {
		return false
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, n := range names {
		if n == "*" || strings.EqualFold(n, host) {
			return true
		}
	}
	// 127.0.0.0/8 is loopback as a whole.
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		for _, n := range names {
			if nip := net.ParseIP(n); nip != nil && nip.IsLoopback() {
				return true
			}
		}
	}
	return false
}

// guard refuses what a browser beside the server could send on a page's
// behalf: a Host that is not the server's (DNS rebinding: 421), an Origin
// of another site or a cross-site fetch (403), and a POST whose body is
// not JSON (415: a form or text/plain body is a "simple" request a page may
// send without asking the server first).
func guard(hosts []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, hosts) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Errorf("host %q is not this server's (it answers to %s): requests through another name are refused", r.Host, strings.Join(hosts, ", ")))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, hosts) {
			writeError(w, http.StatusForbidden, fmt.Errorf("origin %q may not use this API: only pages of the server itself may", o))
			return
		}
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			writeError(w, http.StatusForbidden, errors.New("cross-site requests are refused"))
			return
		}
		if r.Method == http.MethodPost {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, errors.New("send the body as Content-Type: application/json"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// originAllowed reports whether an Origin header names a page served from
// one of the server's own names.
func originAllowed(origin string, hosts []string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // "null" (a sandboxed page or file://) included
	}
	return hostAllowed(u.Host, hosts)
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
