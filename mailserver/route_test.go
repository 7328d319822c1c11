package mailserver

import (
	"strings"
	"testing"
)

// TestRoute: a router files a message for another account (which
// authenticates it as the SMTP session did), refuses one with its own
// SMTP reply, and answers a sender in its own INBOX.
func TestRoute(t *testing.T) {
	s := startServer(t, t.TempDir(), func(o *Options) {
		o.Accounts = append(o.Accounts, Account{User: "orders", Password: "o"}, Account{User: "orders+ypres", Password: "y"})
		o.Route = func(r RouteRequest) RouteDecision {
			if r.User != "orders" {
				return RouteDecision{}
			}
			body := string(r.Message)
			switch {
			case strings.Contains(body, "GAME ypres"):
				return RouteDecision{User: "orders+ypres"}
			case strings.Contains(body, "too much"):
				return RouteDecision{Refuse: &Refusal{TooBig: true, Message: "Message too big for game ypres"}}
			}
			return RouteDecision{Reply: []byte("From: orders@" + testDomain + "\r\nSubject: which game?\r\n\r\nName the game.\r\n")}
		}
	})
	to := "orders@" + testDomain
	from := "prussia@" + testDomain
	if err := sendWithGoMail(t, s, from, to, "orders", "GAME ypres\nEND\n", from, "fritz"); err != nil {
		t.Fatal(err)
	}
	if err := sendWithGoMail(t, s, from, to, "orders", "too much", from, "fritz"); err == nil || !strings.Contains(err.Error(), "too big for game ypres") {
		t.Errorf("a refused message: %v", err)
	}
	if err := sendWithGoMail(t, s, from, to, "orders", "hello", from, "fritz"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user, pass string
		want       int
	}{{"orders+ypres", "y", 1}, {"orders", "o", 1}, {"prussia", "fritz", 1}} {
		c := dialIMAP(t, s, tc.user+"@"+testDomain, tc.pass, nil)
		selectBox(t, c, "INBOX")
		if got := len(uidSearchAll(t, c)); got != tc.want {
			t.Errorf("%s's INBOX holds %d messages, want %d", tc.user, got, tc.want)
		}
	}
	// The routed message's arrival is the SMTP session's: sent by prussia.
	c := dialIMAP(t, s, "orders+ypres@"+testDomain, "y", nil)
	sel := selectBox(t, c, "INBOX")
	a, ok, err := s.ArrivalOf(t.Context(), "orders+ypres", "INBOX", sel.UIDValidity, 1)
	if err != nil || !ok || a.Via != ViaSMTP || !strings.EqualFold(a.User, from) {
		t.Errorf("the routed message's arrival: %+v %v %v", a, ok, err)
	}
}
