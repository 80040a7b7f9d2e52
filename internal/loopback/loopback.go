package loopback

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
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

// Guard answers 403 to requests that did not come from a local client, and
// passes the others to next:
//
//   - the Host header must name a loopback host (localhost, 127.0.0.1,
//     [::1]), unless allowRemote: a page whose name resolves to 127.0.0.1
//     (DNS rebinding) sends its own name;
//   - an Origin header, which browsers send with cross-site requests, must
//     be a loopback origin or, with allowRemote, the Host itself.
//
// Clients that are not browsers (agents, curl, SDKs) send no Origin.
func Guard(next http.Handler, allowRemote bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := Check(r, allowRemote); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Check is Guard's test of one request: nil when it may be served.
func Check(r *http.Request, allowRemote bool) error {
	host := hostname(r.Host)
	if !allowRemote && !IsLoopback(host) {
		return fmt.Errorf("host %q is not a loopback name: this server answers local clients only (use 127.0.0.1 or localhost)", r.Host)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("origin %q is not allowed: requests from web pages are refused", origin)
	}
	if IsLoopback(u.Hostname()) || (allowRemote && strings.EqualFold(u.Host, r.Host)) {
		return nil
	}
	return fmt.Errorf("origin %q is not allowed: requests from web pages of other sites are refused", origin)
}

// hostname is the host of a Host header, without port and brackets.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}
