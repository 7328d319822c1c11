package doctor

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/syw-pbem/pbem/config"
)

// providerHosts are the servers of the providers "pbem init" has presets
// for (docs/config.md): these names are right, so when they cannot be
// resolved it is the network or its DNS that fails, not the config.
var providerHosts = map[string]string{
	"imap.gmail.com":    "Gmail",
	"smtp.gmail.com":    "Gmail",
	"imap.fastmail.com": "Fastmail",
	"smtp.fastmail.com": "Fastmail",
}

// controlHosts are looked up when a configured host cannot be found, to
// tell a misspelt name (the others resolve) from a machine whose DNS
// answers nothing (none resolves).
var controlHosts = []string{"imap.gmail.com", "imap.fastmail.com"}

// lookupHost resolves a host name with Options.LookupHost or the system's
// resolver.
func (o Options) lookupHost(ctx context.Context, host string) ([]string, error) {
	if o.LookupHost != nil {
		return o.LookupHost(ctx, host)
	}
	return net.DefaultResolver.LookupHost(ctx, host)
}

// dnsWorks reports whether any control host resolves.
func (o Options) dnsWorks(ctx context.Context) bool {
	for _, h := range controlHosts {
		if addrs, err := o.lookupHost(ctx, h); err == nil && len(addrs) > 0 {
			return true
		}
	}
	return false
}

// dnsProblem is connectProblem for a host name that could not be resolved:
// a configuration fix (exit 3) only when the name itself is wrong — not a
// provider preset's, not found while other names resolve; otherwise the
// network or its DNS fails (exit 4) and the host is left alone.
func dnsProblem(ctx context.Context, o Options, key string, ep config.Endpoint, dnsErr *net.DNSError) (string, string, int) {
	host := strings.ToLower(strings.TrimSuffix(ep.Host, "."))
	if provider, ok := providerHosts[host]; ok {
		return fmt.Sprintf("cannot resolve %s (%s's server, the right name): %v", ep.Host, provider, dnsErr),
			"A network or DNS problem on this machine, not in the config: check its network connection and DNS resolver (/etc/resolv.conf), then run pbem doctor again.",
			ClassRuntime
	}
	if !dnsErr.IsNotFound || !o.dnsWorks(ctx) {
		return fmt.Sprintf("cannot resolve %s, and no other name resolves either: %v", ep.Host, dnsErr),
			fmt.Sprintf("A network or DNS problem on this machine: check its network connection and DNS resolver (/etc/resolv.conf); if the network is fine, check %s.host.", key),
			ClassRuntime
	}
	return fmt.Sprintf("there is no host %s (other names resolve): %v", ep.Host, dnsErr),
		fmt.Sprintf("Check %s.host: the name is misspelt or not the provider's.", key), ClassConfig
}
