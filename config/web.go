package config

import (
	"os"
	"strings"
)

// Web configures the referee's console: the web page "pbem run" serves
// (package console, docs/console.md).
type Web struct {
	// Listen is the host:port the console listens on. A loopback address
	// (127.0.0.1, ::1, localhost) serves plain HTTP to this machine only;
	// any other address needs TLSCert and TLSKey, or pbem refuses to start.
	// "off" serves no console. Default "127.0.0.1:8026".
	Listen string `yaml:"listen"`

	// TLSCert and TLSKey are the PEM files of the console's certificate
	// (with its chain) and private key; relative paths are resolved against
	// the config file's directory. Required when Listen is not loopback.
	// Default none.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`

	// SessionHours is how long a login to the console lasts; an idle
	// session ends after a quarter of it (at least 30 minutes). 1–168.
	// Default 12.
	SessionHours int `yaml:"session_hours"`
}

// WebOff is the value of web.listen that serves no console.
const WebOff = "off"

// ConsoleOn reports whether "pbem run" serves the console.
func (w Web) ConsoleOn() bool { return w.Listen != "" && w.Listen != WebOff }

// ConsoleTLS reports whether the console is served over TLS: a
// certificate and key are configured.
func (w Web) ConsoleTLS() bool { return w.TLSCert != "" || w.TLSKey != "" }

// WebLoopback reports whether web.listen is a loopback address.
func (c *Config) WebLoopback() bool {
	host, _, err := splitHostPort(c.Web.Listen)
	return err == nil && host != "" && isLoopback(host)
}

func (v *validator) web() {
	w := v.c.Web
	if !w.ConsoleOn() {
		return
	}
	host, _, err := splitHostPort(w.Listen)
	if err != nil {
		v.add("web.listen", "%q is not host:port: %v; write it like 127.0.0.1:8026, or off for no console", w.Listen, err)
		return
	}
	if (w.TLSCert == "") != (w.TLSKey == "") {
		v.add("web.tls_cert", "give both web.tls_cert and web.tls_key, or neither")
	}
	for _, f := range []struct{ key, path string }{{"web.tls_cert", w.TLSCert}, {"web.tls_key", w.TLSKey}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(v.c.Path(f.path)); err != nil {
			v.add(f.key, "cannot be read: %v", err)
		}
	}
	if (host == "" || !isLoopback(host)) && !w.ConsoleTLS() {
		shown := host
		if strings.TrimSpace(shown) == "" {
			shown = "every address"
		}
		v.add("web.listen", "%q listens on %s, beyond this machine: the console then needs TLS (web.tls_cert and web.tls_key), "+
			"or listen on 127.0.0.1 and reach it through an SSH tunnel", w.Listen, shown)
	}
	if w.SessionHours < 1 || w.SessionHours > 168 {
		v.add("web.session_hours", "%d is out of range; give 1 to 168 hours", w.SessionHours)
	}
}
