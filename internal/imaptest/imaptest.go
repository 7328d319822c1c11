// Package imaptest is what pbem's integration tests use to look into a
// mailbox as a player's mail client would: log in over plain IMAP on
// loopback and read every message without marking it seen.
package imaptest

import (
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Messages returns the raw messages of a mailbox, oldest first, fetched with
// BODY.PEEK[] so that nothing is marked seen. An empty mailbox gives nil.
// The error is the dial, login, select or fetch failure; a test that polls a
// server that is still starting may retry on it.
func Messages(addr, user, pass, mailbox string) ([][]byte, error) {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		return nil, err
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, err
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, m := range msgs {
		for _, b := range m.BodySection {
			out = append(out, b.Bytes)
		}
	}
	return out, nil
}
