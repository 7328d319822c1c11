package inbox

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzLimits keep each input cheap, so the fuzzer explores rather than
// grinds; the deadline is what the targets check.
var fuzzLimits = Limits{MaxRawBytes: 1 << 20, MaxTextBytes: 64 << 10, Deadline: 2 * time.Second}

func fuzzSeeds(f *testing.F) {
	f.Add(typicalMail())
	f.Add(orderMail("fritz@example.org"))
	f.Add(deepNesting(12, false))
	f.Add(deepNesting(40, true))
	f.Add(manyParts(120))
	f.Add(nestedAttachmentTxt(3))
	f.Add(unknownCharsetMany(3))
	f.Add(brokenQP(64))
	f.Add(brokenBase64(64))
	f.Add(foldedHeader(20))
	f.Add(htmlBomb(5))
	f.Add([]byte("From: a@b\r\nContent-Type: multipart/mixed; boundary=o\r\n\r\n--o\r\nContent-Type: message/rfc822\r\n" +
		"Content-Transfer-Encoding: base64\r\n\r\nRnJvbTogYUBiDQoNCkdBTUUgc3l3DQo=\r\n--o--\r\n"))
	f.Add([]byte("From: a@b\r\nContent-Type: text/html\r\n\r\n<p class=MsoNormal><o:p>&nbsp;</o:p></p><div><br></div><pre>a\n b</pre>"))
	f.Add([]byte("From: a@b\r\nContent-Type: text/plain; format=flowed; delsp=yes\r\n\r\n> a \r\n>b\r\n-- \r\n"))
	f.Add([]byte("From: a@b\r\nContent-Type: multipart/mixed; boundary=\"\"\r\n\r\n--\r\n\r\n----\r\n"))
	f.Add([]byte("\r\n\r\n"))
	f.Add([]byte{})
}

// FuzzExtract: Extract never panics (a panic recovered inside it counts as
// a failure here: it is a bug to fix), returns within its deadline, and
// keeps its promises about what it returns.
func FuzzExtract(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		start := time.Now()
		ex, err := Extract(raw, fuzzLimits)
		if d := time.Since(start); d > fuzzLimits.Deadline+500*time.Millisecond {
			t.Fatalf("Extract took %v, deadline %v", d, fuzzLimits.Deadline)
		}
		if errors.Is(err, ErrUnreadable) {
			t.Fatalf("recovered panic: %v", err)
		}
		var le *LimitError
		if err != nil && !errors.As(err, &le) {
			t.Fatalf("error %v is not a *LimitError", err)
		}
		if err == nil && ex == nil {
			t.Fatal("nil result without an error")
		}
		if ex == nil {
			return
		}
		if len(ex.Text) > fuzzLimits.MaxTextBytes {
			t.Fatalf("text of %d bytes over the limit", len(ex.Text))
		}
		total := 0
		for _, tx := range ex.Texts {
			total += len(tx.Text)
			if !utf8.ValidString(tx.Text) {
				t.Fatalf("text from %s is not valid UTF-8", tx.Source)
			}
			if strings.Contains(tx.Text, "\r") {
				t.Fatalf("text from %s keeps a CR", tx.Source)
			}
		}
		if total > fuzzLimits.MaxTextBytes {
			t.Fatalf("texts of %d bytes over the limit", total)
		}
		if ex.From != "" && (ex.FromHeaders != 1 || len(ex.FromAddresses) != 1 || ex.From != strings.ToLower(ex.From)) {
			t.Fatalf("From %q with %d headers and addresses %v", ex.From, ex.FromHeaders, ex.FromAddresses)
		}
		if ex.Parts > DefaultMaxParts || ex.Depth > DefaultMaxDepth {
			t.Fatalf("%d parts, depth %d: over the limits", ex.Parts, ex.Depth)
		}
		ex.IsAutomatic()
	})
}

// FuzzAuthenticate: whatever the mail and the server's record of its
// arrival, Authenticate does not panic, and it authenticates only a mail
// with exactly one From header holding exactly one registered address; with
// DKIM required, only with an aligned pass; with a submission required,
// only a mail the record says came by SMTP logged in as the From address,
// whatever its Authentication-Results say.
func FuzzAuthenticate(f *testing.F) {
	k := newDKIMKeys(f, "example.org")
	fuzzSeeds(f)
	signed := k.sign(f, orderMail("fritz@example.org"), "example.org")
	f.Add(signed)
	f.Add(append([]byte("From: mallory@evil.example\r\n"), signed...))
	f.Add(withHeader(orderMail("fritz@example.org"), "Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org"))
	f.Add(withHeader(orderMail("fritz@example.org"), "Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org (; ) ; spf=\""))
	f.Add(withHeader(orderMail("fritz@example.org"), "Authentication-Results: mx.pbem.example; auth=pass smtp.auth=fritz@example.org"))
	policy := testPolicy(k)
	policy.RequireDKIM = true
	arrivals := []string{"", "smtp auth=fritz@example.org remote=127.0.0.1", "smtp auth=none", "imap-append user=fritz@example.org",
		"imap-copy user=orders@pbem.example", "smtp auth=FRITZ@example.org", "local", "smtp auth=fritz@example.org.", "smtp user=fritz@example.org"}
	f.Fuzz(func(t *testing.T, raw []byte) {
		start := time.Now()
		ex, _ := Extract(raw, fuzzLimits)
		r := Authenticate(ex, raw, "", policy)
		if d := time.Since(start); d > fuzzLimits.Deadline+2*time.Second {
			t.Fatalf("took %v", d)
		}
		// A required submission: the server's record alone decides, on top
		// of the sender being registered.
		plain, sub := policy, policy
		plain.RequireDKIM = false
		sub.RequireDKIM, sub.RequireSubmission = false, true
		registered := Authenticate(ex, raw, "", plain).OK()
		for _, a := range arrivals {
			got := Authenticate(ex, raw, a, sub).OK()
			want := registered && (a == "smtp auth="+ex.From+" remote=127.0.0.1" || strings.EqualFold(a, "smtp auth="+ex.From))
			if got != want {
				t.Fatalf("arrival %q, From %q: authenticated %v", a, ex.From, got)
			}
		}
		if !r.OK() {
			return
		}
		if ex == nil || ex.FromHeaders != 1 || len(ex.FromAddresses) != 1 {
			t.Fatalf("authenticated a mail without exactly one From address: %+v", ex)
		}
		if len(r.Nations) == 0 && !r.Referee {
			t.Fatal("authenticated an unregistered sender")
		}

		if !r.DKIM.Pass || !aligned(r.DKIM.Domain, "example.org", false) {
			t.Fatalf("authenticated without an aligned DKIM pass: %+v", r.DKIM)
		}
		if r.DKIM.Via == "signature" && !bytes.Contains(bytes.ToLower(raw), []byte("dkim-signature")) {
			t.Fatal("a signature pass without a signature")
		}
	})
}

// FuzzMaskedCopy: whatever the mail, MaskedCopy does not panic and gives a
// mail that Extract reads, with the X-Pbem-Masked field, and in which the
// masked word ("sesame", the tests' password) is nowhere — not in its
// bytes, not in any text it decodes to — even when the mail hid it in an
// encoded Subject, a base64 part or an attachment pbem did not read.
func FuzzMaskedCopy(f *testing.F) {
	fuzzSeeds(f)
	f.Add([]byte("Subject: =?utf-8?b?c2VzYW1l?=\r\nFrom: a@b\r\n\r\nPASSWORD sesame\r\n"))
	f.Add([]byte("From: a@b\r\nContent-Type: multipart/mixed; boundary=m\r\n\r\n--m\r\nContent-Type: text/plain\r\n\r\nx\r\n" +
		"--m\r\nContent-Type: application/octet-stream; name=a.bin\r\nContent-Transfer-Encoding: base64\r\n\r\nc2VzYW1l\r\n--m--\r\n"))
	mask := func(s string) string { return strings.ReplaceAll(s, "sesame", "****") }
	f.Fuzz(func(t *testing.T, raw []byte) {
		ex, _ := Extract(raw, fuzzLimits)
		c := MaskedCopy(raw, ex, mask, "a note")
		cex, err := Extract(c, Limits{})
		if err != nil {
			t.Fatalf("the copy cannot be read: %v\n%q", err, c)
		}
		if !bytes.Contains(c, []byte("\r\nX-Pbem-Masked: sha256=")) && !bytes.HasPrefix(c, []byte("X-Pbem-Masked: sha256=")) {
			t.Fatalf("no X-Pbem-Masked field:\n%q", c)
		}
		texts := []string{string(c), cex.Subject, cex.FromName}
		for _, x := range cex.Texts {
			texts = append(texts, x.Text)
		}
		for _, x := range texts {
			if strings.Contains(x, "sesame") {
				t.Fatalf("the masked word is in the copy:\n%q\nof\n%q", c, raw)
			}
		}
	})
}
