package outbox_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net/mail"
	"time"

	"github.com/syw-pbem/pbem/outbox"
)

// A report's Message-ID depends only on what it is about, so composing it
// again after a crash gives the same id.
func ExampleMessageID() {
	fmt.Println(outbox.MessageID("pbem.localhost", "syw", 12, "prussia", "report", ""))
	// Output: <syw.t12.prussia.report.391460278619f0af@pbem.localhost>
}

// Compose an acknowledgment that answers a player's order mail, and print
// its header.
func ExampleCompose() {
	raw, err := outbox.Compose(outbox.Message{
		Game: "syw", Turn: 12, Nation: "prussia", Kind: "ack", Key: "<CAF+x1@mail.gmail.com>",
		From:      mail.Address{Name: "SYW Campaign", Address: "orders@pbem.localhost"},
		To:        []mail.Address{{Name: "Friedrich", Address: "fritz@example.org"}},
		Subject:   "Re: Orders for turn 12 – übermittelt",
		Date:      time.Date(1757, time.May, 6, 9, 30, 0, 0, time.UTC),
		InReplyTo: "<CAF+x1@mail.gmail.com>",
		Text:      "Your orders for turn 12 were read: 3 orders, no errors.\n",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() && sc.Text() != "" {
		fmt.Println(sc.Text())
	}
	// Output:
	// From: "SYW Campaign" <orders@pbem.localhost>
	// To: "Friedrich" <fritz@example.org>
	// Subject: =?utf-8?q?Re:_Orders_for_turn_12_=E2=80=93_=C3=BCbermittelt?=
	// Date: Fri, 06 May 1757 09:30:00 +0000
	// Message-ID: <syw.t12.prussia.ack.-caf-x1-mail-gmail-com-.662bc8d9142cf45b@pbem.localhost>
	// In-Reply-To: <CAF+x1@mail.gmail.com>
	// References: <CAF+x1@mail.gmail.com>
	// Auto-Submitted: auto-replied
	// Precedence: bulk
	// X-Auto-Response-Suppress: All
	// X-Loop: orders@pbem.localhost
	// MIME-Version: 1.0
	// Content-Type: text/plain; charset=utf-8
	// Content-Transfer-Encoding: quoted-printable
}
