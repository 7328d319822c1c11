package inbox

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"net"
	"reflect"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

// dkimKeys is a fake DNS: selector._domainkey.domain → TXT, with a key per
// signing domain, so the tests run offline.
type dkimKeys struct {
	keys map[string]ed25519.PrivateKey // by domain
	txt  map[string]string
}

func newDKIMKeys(t testing.TB, domains ...string) *dkimKeys {
	t.Helper()
	k := &dkimKeys{keys: map[string]ed25519.PrivateKey{}, txt: map[string]string{}}
	for _, d := range domains {
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		k.keys[d] = priv
		k.txt["sel._domainkey."+d] = "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	}
	return k
}

func (k *dkimKeys) lookup(name string) ([]string, error) {
	if name == "sel._domainkey.tempfail.example" {
		return nil, &net.DNSError{Err: "timeout", Name: name, IsTemporary: true, IsTimeout: true}
	}
	if v, ok := k.txt[name]; ok {
		return []string{v}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// sign signs raw with the key of domain (d=domain).
func (k *dkimKeys) sign(t testing.TB, raw []byte, domain string) []byte {
	t.Helper()
	var out bytes.Buffer
	err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{
		Domain: domain, Selector: "sel", Signer: k.keys[domain],
		HeaderKeys: []string{"From", "To", "Subject", "Date", "Message-ID"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func orderMail(from string) []byte {
	return crlf("From: " + from + "\nTo: orders@pbem.example\nSubject: orders\nDate: Mon, 3 Mar 1757 10:00:00 +0100\nMessage-ID: <x@example.org>\n\n" + sheet)
}

func testPolicy(k *dkimKeys) AuthPolicy {
	return AuthPolicy{
		Nations: map[string][]string{
			"prussia": {"Fritz@Example.org"},
			"austria": {"maria@wien.example", "kaunitz@wien.example"},
			"saxony":  {"twin@example.net"},
			"poland":  {"twin@example.net"},
		},
		Referee:    "referee@pbem.example",
		AuthServID: "mx.pbem.example",
		LookupTXT:  k.lookup,
	}
}

func authenticate(t *testing.T, raw []byte, p AuthPolicy) AuthResult {
	t.Helper()
	ex, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return Authenticate(ex, raw, "", p)
}

func TestAuthenticateRegisteredSenders(t *testing.T) {
	t.Parallel()
	p := testPolicy(newDKIMKeys(t))
	cases := []struct {
		from    string
		verdict Verdict
		nations string
		referee bool
	}{
		{"Friedrich <fritz@example.org>", Authenticated, "prussia", false},
		{"FRITZ@EXAMPLE.ORG", Authenticated, "prussia", false},
		{"kaunitz@wien.example", Authenticated, "austria", false},
		{"twin@example.net", Authenticated, "poland,saxony", false},
		{"Referee <referee@pbem.example>", Authenticated, "", true},
		{"fritz@example.org.evil.example", UnknownSender, "", false},
		{"\"fritz@example.org\" <spoof@evil.example>", UnknownSender, "", false},
		{"nobody@example.org", UnknownSender, "", false},
	}
	for _, c := range cases {
		r := authenticate(t, orderMail(c.from), p)
		if r.Verdict != c.verdict || strings.Join(r.Nations, ",") != c.nations || r.Referee != c.referee {
			t.Errorf("From %s: %+v, want %s %q referee=%v", c.from, r, c.verdict, c.nations, c.referee)
		}
		if r.Reason == "" {
			t.Errorf("From %s: no reason", c.from)
		}
	}
}

// TestAuthenticateSpoofing is reliability test 7's mail-level half: each of
// these is refused whatever password the sheet holds.
func TestAuthenticateSpoofing(t *testing.T) {
	t.Parallel()
	k := newDKIMKeys(t, "example.org", "evil.example", "mail.example.org", "org")
	p := testPolicy(k)
	dk := p
	dk.RequireDKIM = true
	strict := dk
	strict.StrictDKIM = true

	signed := k.sign(t, orderMail("fritz@example.org"), "example.org")
	tampered := bytes.Replace(signed, []byte("A1 MOVE TO 0412"), []byte("A1 MOVE TO 0999"), 1)
	cases := []struct {
		name    string
		raw     []byte
		policy  AuthPolicy
		verdict Verdict
		via     string
	}{
		{"unregistered address", orderMail("mallory@evil.example"), p, UnknownSender, ""},
		{"two From headers", append([]byte("From: fritz@example.org\r\n"), orderMail("mallory@evil.example")...), p, MultipleFrom, ""},
		{"two From headers, second one DKIM-signed", append([]byte("From: mallory@evil.example\r\n"), signed...), dk, MultipleFrom, ""},
		{"two addresses in From", orderMail("fritz@example.org, mallory@evil.example"), p, MultipleFrom, ""},
		{"no From", crlf("To: orders@pbem.example\n\n" + sheet), p, NoFrom, ""},
		{"unreadable From", crlf("From: fritz@@example..org <<\n\n" + sheet), p, NoFrom, ""},
		{"DKIM required, none", orderMail("fritz@example.org"), dk, DKIMMissing, ""},
		{"DKIM required, valid and aligned", signed, dk, Authenticated, "signature"},
		{"DKIM required, signed by another domain", k.sign(t, orderMail("fritz@example.org"), "evil.example"), dk, DKIMMisaligned, ""},
		{"DKIM required, body changed after signing", tampered, dk, DKIMFailed, ""},
		{"DKIM required, key lookup times out", signWithDomain(t, k, "tempfail.example"), withNation(dk, "fritz@tempfail.example"), DKIMTempError, ""},
		{"DKIM relaxed: parent domain signs for a subdomain", k.sign(t, orderMail("fritz@mail.example.org"), "example.org"), withNation(dk, "fritz@mail.example.org"), Authenticated, "signature"},
		{"DKIM strict: parent domain is not enough", k.sign(t, orderMail("fritz@mail.example.org"), "example.org"), withNation(strict, "fritz@mail.example.org"), DKIMMisaligned, ""},
		{"DKIM: a top-level domain never aligns", k.sign(t, orderMail("fritz@example.org"), "org"), dk, DKIMMisaligned, ""},
		{"forged Authentication-Results from another server", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.evil.example; dkim=pass header.d=example.org"), dk, DKIMMissing, ""},
		{"forged Authentication-Results with our id below ours", withHeader(withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org"),
			"Authentication-Results: mx.pbem.example; dkim=none; spf=fail smtp.mailfrom=evil.example"), dk, DKIMMissing, ""},
		{"forged Authentication-Results with our id below another server's", withHeader(withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org"),
			"Authentication-Results: mx6.pbem.example; dkim=none"), dk, DKIMMissing, ""},
		{"trusted Authentication-Results in Gmail's form (header.i)", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example;\r\n       dkim=pass header.i=@example.org header.s=20230601 header.b=AbCd;\r\n       spf=pass (domain of fritz@example.org designates 2001:db8::1 as permitted sender) smtp.mailfrom=fritz@example.org;\r\n       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org"), dk, Authenticated, "authentication-results"},
		{"trusted Authentication-Results: one of two signatures passes", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=fail header.d=example.org; dkim=pass header.d=example.org"), dk, Authenticated, "authentication-results"},
		{"trusted Authentication-Results: dkim=pass, aligned", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org"), dk, Authenticated, "authentication-results"},
		{"trusted Authentication-Results: dkim=pass for another domain", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=pass header.d=evil.example"), dk, DKIMMisaligned, ""},
		{"trusted Authentication-Results: dkim=fail", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=fail header.d=example.org"), dk, DKIMFailed, ""},
		{"Authentication-Results trusted from nobody", withHeader(orderMail("fritz@example.org"),
			"Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org"), withServID(dk, ""), DKIMMissing, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := authenticate(t, c.raw, c.policy)
			if r.Verdict != c.verdict {
				t.Fatalf("verdict %s (%s), want %s", r.Verdict, r.Reason, c.verdict)
			}
			if r.OK() != (c.verdict == Authenticated) {
				t.Errorf("OK() = %v", r.OK())
			}
			if c.via != "" && r.DKIM.Via != c.via {
				t.Errorf("DKIM via %q, want %q", r.DKIM.Via, c.via)
			}
			t.Logf("%s: %s", r.Verdict, r.Reason)
		})
	}
}

func TestAuthenticateServerResults(t *testing.T) {
	t.Parallel()
	// The receiving server's header on top; a forged one below it.
	raw := withHeader(withHeader(orderMail("fritz@example.org"),
		"Authentication-Results: mx.evil.example; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org"),
		"Authentication-Results: mx.pbem.example; dkim=fail header.d=example.org; spf=softfail smtp.mailfrom=example.org; dmarc=fail header.from=example.org")
	r := authenticate(t, raw, testPolicy(newDKIMKeys(t)))
	want := ServerResults{Found: true, DKIM: "fail", SPF: "softfail", DMARC: "fail"}
	if !reflect.DeepEqual(r.Server, want) {
		t.Errorf("Server = %+v, want %+v", r.Server, want)
	}
	if r.Verdict != Authenticated {
		t.Errorf("without require_dkim the server's results only inform: %s", r.Verdict)
	}
}

func TestAuthenticateUnreadableMail(t *testing.T) {
	t.Parallel()
	if r := Authenticate(nil, nil, "", AuthPolicy{}); r.Verdict != NoFrom || r.OK() {
		t.Errorf("nil Extracted: %+v", r)
	}
}

func signWithDomain(t *testing.T, k *dkimKeys, domain string) []byte {
	// A signature claiming a domain whose key cannot be looked up now.
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	k.keys[domain] = priv
	return k.sign(t, orderMail("fritz@"+domain), domain)
}

func withNation(p AuthPolicy, addr string) AuthPolicy {
	n := map[string][]string{}
	for k, v := range p.Nations {
		n[k] = v
	}
	n["bavaria"] = []string{addr}
	p.Nations = n
	return p
}

func withServID(p AuthPolicy, id string) AuthPolicy { p.AuthServID = id; return p }

// withHeader puts a header field on top, as a receiving server does.
func withHeader(raw []byte, field string) []byte {
	return append([]byte(field+"\r\n"), raw...)
}
