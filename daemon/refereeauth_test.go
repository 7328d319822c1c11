package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/password"
)

// TestRefereePasswordAsHash: a referee password given in the config as a
// bcrypt hash is used as the hash: the password it hashes is accepted on a
// command mail, the hash itself is not.
func TestRefereePasswordAsHash(t *testing.T) {
	t.Parallel()
	h, err := password.Hash("kaunitz-1756")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := startGame(t, t.TempDir(), func(s string) string {
		return strings.Replace(s, "referee_password: {password: demo-referee-orders}", "referee_password: {password: '"+h+"'}", 1)
	})
	defer d.Close()
	g, ctx := d.Game, context.Background()
	at := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	mail := func(uid uint32, pw string) string {
		m := storeMail(t, g, uid, "referee@pbem.localhost", "From: referee@pbem.localhost\nTo: orders@pbem.localhost\nSubject: r\n"+
			"Message-ID: <r"+pw[:3]+"@x>\n\nPASSWORD "+pw+"\nDEADLINE EXTEND 1d\n", at)
		if err := g.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
		return mailRow(t, g, m.ID).Classification
	}
	if c := mail(1, h); c != ClassRefused {
		t.Errorf("the hash itself as the password: classified %q, want %q", c, ClassRefused)
	}
	if c := mail(2, "kaunitz-1756"); c != ClassReferee {
		t.Errorf("the password: classified %q, want %q", c, ClassReferee)
	}
}
