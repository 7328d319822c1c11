//go:build unix

package host

import (
	"context"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/imaptest"
)

// A host whose one order address is at an external provider, end to end
// on the suite's test provider (Dovecot behind an authenticated submission
// server delivering over LMTP): the host files the shared INBOX into a
// folder per game, each game reads its folder, and answers go out through
// the provider from the shared address.

// extUsers are the provider's accounts: the host's, the referee's, each
// nation's of the default scenario, and a stranger's.
var extUsers = func() map[string]string {
	m := map[string]string{}
	for _, u := range []string{"orders", "referee", "eisenmark", "morgronskia", "unterreich", "fromande", "hispardia", "stranger"} {
		m[u+"@provider.test"] = "pw-" + u
	}
	return m
}()

// newExtHost makes a host folder whose address is orders@provider.test at
// p, with the games.
func newExtHost(t *testing.T, p *imaptest.Provider, games ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Mail.Address = "orders@provider.test"
	s.Mail.External = &ExternalMail{IMAPHost: "127.0.0.1", IMAPPort: p.IMAPPort(), IMAPSecurity: "none",
		SMTPHost: "127.0.0.1", SMTPPort: p.SMTPPort(), SMTPSecurity: "none",
		PasswordFile: "secrets/provider.txt", AuthServID: p.Domain()}
	if err := WriteSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets", "provider.txt"), []byte("pw-orders\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	scen, err := filepath.Abs("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if _, err := AddGame(dir, g, AddOptions{Scenario: scen, Referee: "referee@provider.test"}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// extSend submits a mail through the provider, logged in as from, to the
// host's address (with the To header given); it returns the Message-ID.
func extSend(t *testing.T, p *imaptest.Provider, from, to, subject, body string) string {
	t.Helper()
	id := fmt.Sprintf("%d.%d@client.test", time.Now().UnixNano(), msgSeq.Add(1))
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, to, subject, id, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	if err := p.Send(from, []string{"orders@provider.test"}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	return id
}

// folder lists a folder of the shared account ("" when it does not exist).
func folder(t *testing.T, p *imaptest.Provider, name string) []string {
	t.Helper()
	msgs, err := imaptest.Messages(p.IMAPAddr(), "orders@provider.test", "pw-orders", name)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range msgs {
		out = append(out, string(m))
	}
	return out
}

// decodedBody is a message's body, quoted-printable decoded.
func decodedBody(raw string) string {
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return raw
	}
	b, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		return raw
	}
	return string(b)
}

func TestExternalHostRoutesOneProviderMailbox(t *testing.T) {
	t.Parallel()
	p := imaptest.StartProvider(t, imaptest.ProviderOptions{Users: extUsers})
	dir := newExtHost(t, p, "alpha", "bravo")
	s, err := ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Games["alpha"].Limits.MaxMailKB = 4
	if err := WriteSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, dir, &testClock{}, nil)
	waitUntil(t, "both games running", func() bool {
		_, a := h.Game("alpha")
		_, b := h.Game("bravo")
		return a && b
	})
	sheet := func(game, nation string) string {
		return fmt.Sprintf("GAME %s\nNATION %s\nPASSWORD %s\nTURN 1\nEND\n", game, nation, nationPassword(t, GameDir(dir, game), nation))
	}

	// By the GAME line: the answer comes from the shared address, through
	// the provider, the game named in its subject; the game believed the
	// provider's stamp (the sheet was checked, not refused as unknown).
	idA := extSend(t, p, "eisenmark@provider.test", "orders@provider.test", "orders", sheet("alpha", "eisenmark"))
	ans := waitMail(t, p.IMAPAddr(), "eisenmark@provider.test", "pw-eisenmark", answers(idA))
	if from := header(ans, "From"); !strings.Contains(from, "orders@provider.test") {
		t.Errorf("the answer comes from %q, want the shared address", from)
	}
	if subj := header(ans, "Subject"); !strings.Contains(strings.ToLower(subj), "alpha") {
		t.Errorf("the answer's subject %q does not name the game", subj)
	}
	if strings.Contains(ans, "not registered") || strings.Contains(ans, "unknown sender") {
		t.Errorf("the routed sheet was not authenticated:\n%s", ans)
	}

	// By the plus-address, with no GAME line: a note from the referee.
	idB := extSend(t, p, "eisenmark@provider.test", "orders+bravo@provider.test", "orders", sheet("bravo", "eisenmark"))
	waitMail(t, p.IMAPAddr(), "eisenmark@provider.test", "pw-eisenmark", answers(idB))

	// A plus-address of no game (a typo): routed by the GAME line.
	idT := extSend(t, p, "eisenmark@provider.test", "orders+alhpa@provider.test", "orders", sheet("alpha", "eisenmark"))
	waitMail(t, p.IMAPAddr(), "eisenmark@provider.test", "pw-eisenmark", answers(idT))

	// For no game: the sender is answered with the games they play in.
	idC := extSend(t, p, "stranger@provider.test", "orders@provider.test", "orders", "GAME vier\nNATION eisenmark\nPASSWORD x\nTURN 1\nEND\n")
	reply := decodedBody(waitMail(t, p.IMAPAddr(), "stranger@provider.test", "pw-stranger", answers(idC)))
	if !strings.Contains(reply, "no such game") {
		t.Errorf("the answer for no game does not say why:\n%s", reply)
	}
	idD := extSend(t, p, "eisenmark@provider.test", "orders@provider.test", "orders", "a note with no GAME line")
	reply = decodedBody(waitMail(t, p.IMAPAddr(), "eisenmark@provider.test", "pw-eisenmark", answers(idD)))
	for _, want := range []string{"more than one game", "alpha", "orders+alpha@provider.test", "bravo", "GAME alpha"} {
		if !strings.Contains(reply, want) {
			t.Errorf("the which-game answer lacks %q:\n%s", want, reply)
		}
	}

	// Over a game's limit: not passed to the game, the sender told why.
	idE := extSend(t, p, "eisenmark@provider.test", "orders@provider.test", "orders", sheet("alpha", "eisenmark")+strings.Repeat("padding line\n", 400))
	reply = decodedBody(waitMail(t, p.IMAPAddr(), "eisenmark@provider.test", "pw-eisenmark", answers(idE)))
	if !strings.Contains(reply, "too big for game alpha: it takes mail up to 4 KiB") {
		t.Errorf("the answer to a mail over the limit does not name it:\n%s", reply)
	}

	// An automatic mail (a vacation reply) for no game is filed, not
	// answered: answering could loop.
	idV := extSend(t, p, "stranger@provider.test", "orders@provider.test", "Auto: away\r\nAuto-Submitted: auto-replied", "I am away until Monday.")
	waitUntil(t, "the vacation reply filed", func() bool {
		for _, m := range folder(t, p, UnroutedFolder) {
			if strings.Contains(m, idV) {
				return true
			}
		}
		return false
	})

	// Each mail is in one folder, once; the INBOX is empty.
	waitUntil(t, "the INBOX filed", func() bool { return len(folder(t, p, "INBOX")) == 0 })
	msgs, err := imaptest.Messages(p.IMAPAddr(), "stranger@provider.test", "pw-stranger", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if strings.Contains(header(string(m), "In-Reply-To"), idV) {
			t.Errorf("the vacation reply was answered:\n%s", m)
		}
	}
	folders := []string{GameFolder("alpha"), DoneFolder("alpha"), GameFolder("bravo"), DoneFolder("bravo"), UnroutedFolder, RefusedFolder}
	filed := map[string][]string{}
	for _, f := range folders {
		filed[f] = folder(t, p, f)
	}
	count := func(id string) (n int, where []string) {
		for _, f := range folders {
			for _, m := range filed[f] {
				if strings.Contains(m, id) && strings.Contains(header(m, "Message-ID"), id) {
					n++
					where = append(where, f)
				}
			}
		}
		return n, where
	}
	for id, want := range map[string]string{idA: DoneFolder("alpha"), idT: DoneFolder("alpha"), idB: DoneFolder("bravo"), idC: UnroutedFolder, idD: UnroutedFolder, idE: RefusedFolder, idV: UnroutedFolder} {
		if n, where := count(id); n != 1 || where[0] != want {
			t.Errorf("mail %s is in %v, want once in %s", id, where, want)
		}
	}
}

// A router stopped between deciding and moving (a kill) leaves the mail in
// the INBOX; the next run files it, once; a run after that changes
// nothing.
func TestExternalRouterFilesOnceAcrossAKill(t *testing.T) {
	t.Parallel()
	p := imaptest.StartProvider(t, imaptest.ProviderOptions{Users: extUsers})
	for i := 0; i < 3; i++ {
		extSend(t, p, "eisenmark@provider.test", "orders@provider.test", fmt.Sprintf("sheet %d", i), "GAME alpha\n")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := p.WaitDelivered(ctx); err != nil {
		t.Fatal(err)
	}
	opts := &inbox.Options{Addr: p.IMAPAddr(), Security: "none", Username: "orders@provider.test", Password: "pw-orders", Logger: testLogger()}
	decided := 0
	killed := inbox.NewFiler(opts, func(ctx context.Context, raw []byte, _ bool) (string, error) {
		decided++
		if decided == 2 {
			return "", fmt.Errorf("killed") // the process died before the MOVE
		}
		return GameFolder("alpha"), nil
	})
	if err := killed.PollOnce(ctx); err == nil {
		t.Fatal("the killed pass reported no failure")
	}
	if got := len(folder(t, p, "INBOX")); got != 2 {
		t.Fatalf("after the kill %d mails are in the INBOX, want 2 (one filed before it)", got)
	}
	again := inbox.NewFiler(opts, func(context.Context, []byte, bool) (string, error) { return GameFolder("alpha"), nil })
	for run := 0; run < 2; run++ {
		if err := again.PollOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if in, filed := len(folder(t, p, "INBOX")), len(folder(t, p, GameFolder("alpha"))); in != 0 || filed != 3 {
			t.Fatalf("run %d: %d in the INBOX, %d filed; want 0 and 3 (each once)", run, in, filed)
		}
	}
}

// A wrong password for the provider stops the host's start, saying what to
// check.
func TestExternalHostWithAWrongPasswordDoesNotStart(t *testing.T) {
	t.Parallel()
	p := imaptest.StartProvider(t, imaptest.ProviderOptions{Users: extUsers})
	dir := newExtHost(t, p)
	if err := os.WriteFile(filepath.Join(dir, "secrets", "provider.txt"), []byte("wrong\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := Open(dir, &Options{Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	err = h.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "refused the login") || !strings.Contains(err.Error(), "password_file") {
		t.Fatalf("the start with a wrong password: %v", err)
	}
}
