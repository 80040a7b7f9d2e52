package loopback

import (
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// Listen opens a TCP listener on addr. Unless allowRemote, addr must be a
// loopback address (127.0.0.1, ::1 or localhost): lore's servers have no
// authentication. what names the server in errors ("serve", "mcp").
func Listen(what, addr string, allowRemote bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%s: address %q: %v (write host:port, e.g. 127.0.0.1:7420)", what, addr, err)
	}
	if !allowRemote && !IsLoopback(host) {
		return nil, fmt.Errorf("%s: %s is not a loopback address; there is no authentication, so pass --allow-remote to listen there anyway", what, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return ln, nil
}

// IsLoopback reports whether host (a name or an IP, without port or
// brackets) is localhost or a loopback IP.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LoopbackNames are the names a server on a loopback address answers to.
func LoopbackNames() []string { return []string{"localhost", "127.0.0.1", "::1"} }

// Names are the names a server on ln answers to: the loopback names, and
// for another address that address (every interface's for an unspecified
// one) and the machine's name.
func Names(ln net.Listener) []string {
	names := LoopbackNames()
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return names
	}
	if tcp.IP.IsUnspecified() {
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					names = append(names, n.IP.String())
				}
			}
		}
	} else {
		names = append(names, tcp.IP.String())
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		names = append(names, h)
	}
	return names
}

// Refusal is why Check refused a request, with the HTTP status to answer.
type Refusal struct {
	Status int
	Err    error
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// Check returns nil when r may be served by a server whose names are
// hosts, else a *Refusal:
//
//   - 421 when the Host header's name (its port aside) is not one of hosts
//     ("*" accepts any): a page whose name resolves to the server's address
//     (DNS rebinding) sends its own name;
//   - 403 when an Origin header names a page that is not the server's own
//     (its Host) nor served from one of hosts, or the browser says the
//     fetch is cross-site;
//   - 415 for a POST whose body is not JSON: a form or text/plain body is a
//     request a page may send without asking the server first.
//
// Clients that are not browsers (agents, editors, curl) send no Origin.
func Check(r *http.Request, hosts []string) error {
	if !hostAllowed(r.Host, hosts) {
		return &Refusal{http.StatusMisdirectedRequest, fmt.Errorf("host %q is not this server's (it answers to %s): requests through another name are refused", r.Host, strings.Join(hosts, ", "))}
	}
	if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, r.Host, hosts) {
		return &Refusal{http.StatusForbidden, fmt.Errorf("origin %q may not use this server: requests from pages of other sites are refused", o)}
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return &Refusal{http.StatusForbidden, errors.New("cross-site requests are refused")}
	}
	if r.Method == http.MethodPost {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return &Refusal{http.StatusUnsupportedMediaType, errors.New("send the body as Content-Type: application/json")}
		}
	}
	return nil
}

// Guard serves with next the requests Check lets through and answers the
// others with Check's status and a line of text.
func Guard(next http.Handler, hosts []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ref *Refusal
		if err := Check(r, hosts); errors.As(err, &ref) {
			http.Error(w, ref.Error(), ref.Status)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether the name of hostport (a Host header, or an
// origin's host) is one of names.
func hostAllowed(hostport string, names []string) bool {
	host := hostname(hostport)
	if host == "" {
		return false
	}
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

// originAllowed reports whether an Origin header names a page of the
// server itself: the request's own host, or one of names ("*" aside: any
// host is not any site).
func originAllowed(origin, host string, names []string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // "null" (a sandboxed page or file://) included
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	named := make([]string, 0, len(names))
	for _, n := range names {
		if n != "*" {
			named = append(named, n)
		}
	}
	return hostAllowed(u.Host, named)
}

// hostname is the lower-case name of a Host header, without port,
// brackets or a final dot.
func hostname(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	return strings.TrimSuffix(strings.ToLower(host), ".")
}
