package mailserver_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/syw-pbem/pbem/mailserver"
)

// A player's order mail goes in by SMTP (logged in, as from any mail
// client) and comes out over IMAP, as pbem's intake reads it.
func Example() {
	dir, err := os.MkdirTemp("", "pbem-mail-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	srv, err := mailserver.New(&mailserver.Options{
		Dir:      dir,
		Domain:   "syw.test",
		IMAPAddr: "127.0.0.1:0", // any free port
		SMTPAddr: "127.0.0.1:0",
		Accounts: []mailserver.Account{{User: "referee", Password: "secret"}, {User: "fritz", Password: "sanssouci"}},
		Logger:   slog.New(slog.DiscardHandler),
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := srv.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	orders := "From: Frederick <fritz@syw.test>\r\nTo: referee@syw.test\r\nSubject: Orders Prussia 1757 spring\r\n\r\nARMY A1 MOVE 1203\r\n"
	// Mail from one of the server's own accounts needs its login.
	login := &mailserver.Login{User: "fritz@syw.test", Password: "sanssouci"}
	if err := mailserver.SendAs(ctx, srv.SMTPAddr(), login, "fritz@syw.test", []string{"referee@syw.test"}, []byte(orders)); err != nil {
		log.Fatal(err)
	}

	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("referee", "secret").Wait(); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		log.Fatal(err)
	}
	msgs, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msgs[0].UID, msgs[0].Envelope.Subject)
	// Output: 1 Orders Prussia 1757 spring
}
