package inbox

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Generators of hostile mail. Each returns wire-form bytes.

// deepNesting nests multipart/mixed levels deep, the sheet at the bottom.
// sameBoundary uses one boundary for every level (as the published 20,000
// level bomb does); otherwise each level has its own.
func deepNesting(levels int, sameBoundary bool) []byte {
	var b bytes.Buffer
	bnd := func(i int) string {
		if sameBoundary {
			return "b"
		}
		return fmt.Sprintf("b%d", i)
	}
	b.WriteString("From: bomb@example.org\r\nSubject: deep\r\n")
	for i := range levels {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=%s\r\n\r\n--%s\r\n", bnd(i), bnd(i))
	}
	b.WriteString("Content-Type: text/plain\r\n\r\n" + strings.ReplaceAll(sheet, "\n", "\r\n"))
	for i := levels - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "\r\n--%s--\r\n", bnd(i))
	}
	return b.Bytes()
}

// manyParts makes a multipart/mixed with n small text parts.
func manyParts(n int) []byte {
	var b bytes.Buffer
	b.WriteString("From: bomb@example.org\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n")
	for i := range n {
		fmt.Fprintf(&b, "--p\r\nContent-Type: text/plain\r\n\r\npart %d\r\n", i)
	}
	b.WriteString("--p--\r\n")
	return b.Bytes()
}

func hugeHeaderLine(n int) []byte {
	return []byte("From: bomb@example.org\r\nX-Junk: " + strings.Repeat("x", n) + "\r\n\r\nA1 MOVE\r\n")
}

func manyHeaderFields(n int) []byte {
	var b bytes.Buffer
	b.WriteString("From: bomb@example.org\r\n")
	for i := range n {
		fmt.Fprintf(&b, "X-F%d: v\r\n", i)
	}
	b.WriteString("\r\nA1 MOVE\r\n")
	return b.Bytes()
}

func hugePartHeader(n int) []byte {
	return []byte("From: bomb@example.org\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n--p\r\nX-Junk: " +
		strings.Repeat("y", n) + "\r\nContent-Type: text/plain\r\n\r\nA1 MOVE\r\n--p--\r\n")
}

func foldedHeader(n int) []byte {
	return []byte("From: bomb@example.org\r\nSubject: a\r\n" + strings.Repeat(" b\r\n", n) + "\r\nA1 MOVE\r\n")
}

func brokenBase64(n int) []byte {
	junk := bytes.Repeat([]byte("QUEx!*TU9WRQ==\r\n"), n/16)
	return append([]byte("From: bomb@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n"), junk...)
}

func brokenQP(n int) []byte {
	return []byte("From: bomb@example.org\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + strings.Repeat("=Z=\r=", n/4))
}

func longText(n int) []byte {
	return []byte("From: bomb@example.org\r\n\r\n" + strings.Repeat("A1 MOVE TO 0412\r\n", n/17))
}

func encodedWords(n int) []byte {
	return []byte("From: bomb@example.org\r\nSubject: " + strings.Repeat("=?x-unknown?q?abc?= =?utf-8?b?w7w=?= ", n) + "\r\n\r\nA1\r\n")
}

func manyFromAddresses(n int) []byte {
	return []byte("From: " + strings.Repeat("a@example.org, ", n) + "b@example.org\r\n\r\nA1\r\n")
}

func htmlBomb(n int) []byte {
	return []byte("From: bomb@example.org\r\nContent-Type: text/html\r\n\r\n" + strings.Repeat("<div><p><a href='x'>&amp;&#0;&#xFFFFFFFF;", n) + strings.Repeat("<script>", 1000))
}

func unknownCharsetMany(n int) []byte {
	var b bytes.Buffer
	b.WriteString("From: bomb@example.org\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n")
	for i := range n {
		fmt.Fprintf(&b, "--p\r\nContent-Type: text/plain; charset=x-bogus-%d\r\nContent-Transfer-Encoding: x-bogus\r\n\r\n\xff\xfe part %d\r\n", i, i)
	}
	b.WriteString("--p--\r\n")
	return b.Bytes()
}

func nestedAttachmentTxt(levels int) []byte {
	var b bytes.Buffer
	b.WriteString("From: a@example.org\r\n")
	for i := range levels {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=n%d\r\n\r\n--n%d\r\n", i, i)
	}
	b.WriteString("Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=orders.txt\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	b.WriteString(base64.StdEncoding.EncodeToString([]byte(sheet)))
	for i := levels - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "\r\n--n%d--\r\n", i)
	}
	return b.Bytes()
}

// hostileCases are the bad inputs tried, by kind. want is the error (nil:
// read, perhaps with warnings).
var hostileCases = []struct {
	name string
	raw  func() []byte
	want error
}{
	// With one boundary for every level the levels read as siblings.
	{"deep nesting 20000 levels, one boundary", func() []byte { return deepNesting(20000, true) }, ErrTooManyParts},
	{"deep nesting 20000 levels, own boundaries", func() []byte { return deepNesting(20000, false) }, ErrTooDeep},
	{"nesting at the limit (10 levels)", func() []byte { return deepNesting(10, false) }, nil},
	{"thousands of parts (5000)", func() []byte { return manyParts(5000) }, ErrTooManyParts},
	{"parts at the limit (100)", func() []byte { return manyParts(100) }, nil},
	{"huge header line (2 MB)", func() []byte { return hugeHeaderLine(2 << 20) }, ErrHeaderTooLarge},
	{"100000 header fields", func() []byte { return manyHeaderFields(100000) }, ErrHeaderTooLarge},
	{"huge part header (1 MB)", func() []byte { return hugePartHeader(1 << 20) }, ErrHeaderTooLarge},
	{"header folded 60000 times", func() []byte { return foldedHeader(60000) }, nil},
	{"raw over the limit (11 MB)", func() []byte { return longText(11 << 20) }, ErrTooLarge},
	{"long text (5 MB)", func() []byte { return longText(5 << 20) }, nil},
	{"broken base64 (4 MB)", func() []byte { return brokenBase64(4 << 20) }, nil},
	{"broken quoted-printable (4 MB)", func() []byte { return brokenQP(4 << 20) }, nil},
	{"5000 encoded words, unknown charset", func() []byte { return encodedWords(5000) }, nil},
	{"From with 10000 addresses", func() []byte { return manyFromAddresses(10000) }, nil},
	{"HTML tag soup (3 MB)", func() []byte { return htmlBomb(70000) }, nil},
	{"90 parts in unknown charsets and encodings", func() []byte { return unknownCharsetMany(90) }, nil},
	{".txt attachment 9 levels down", func() []byte { return nestedAttachmentTxt(9) }, nil},
}

// TestHostileMailBounded reads or refuses each hostile mail within its
// deadline, with memory bounded by a small multiple of its size.
func TestHostileMailBounded(t *testing.T) {
	// Not parallel: it measures the memory the process allocates.
	if raceDetector {
		t.Skip("the race detector slows parsing and allocates several times over: the bounds are checked by the ordinary run")
	}
	lim := Limits{}.withDefaults()
	for _, c := range hostileCases {
		t.Run(c.name, func(t *testing.T) {
			raw := c.raw()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			ex, err := Extract(raw, lim)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes: %v, %.1f MB allocated, err=%v", len(raw), elapsed.Round(time.Microsecond), float64(alloc)/(1<<20), err)
			if c.want == nil && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if elapsed > lim.Deadline {
				t.Errorf("took %v, deadline %v", elapsed, lim.Deadline)
			}
			if bound := uint64(8*len(raw) + 16<<20); alloc > bound {
				t.Errorf("allocated %d bytes for a %d-byte mail (bound %d)", alloc, len(raw), bound)
			}
			if err == nil && ex == nil {
				t.Fatal("nil Extracted without an error")
			}
			if ex != nil && len(ex.Text) > lim.MaxTextBytes {
				t.Errorf("text of %d bytes over the limit", len(ex.Text))
			}
		})
	}
}

func TestHostileNestingReadsTheSheetWithinLimits(t *testing.T) {
	t.Parallel()
	ex, err := Extract(deepNesting(10, false), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Text != sheet || ex.Depth != 10 {
		t.Errorf("Text %q, Depth %d", ex.Text, ex.Depth)
	}
	ex, err = Extract(nestedAttachmentTxt(9), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Texts) != 1 || ex.Texts[0].Text != sheet || ex.Texts[0].Name != "orders.txt" {
		t.Errorf("Texts = %+v", ex.Texts)
	}
}

// TestExtractAllocsPerRun pins the cost of a typical mail.
func TestExtractAllocsPerRun(t *testing.T) {
	raw := typicalMail()
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := Extract(raw, Limits{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("typical mail (%d bytes): %.0f allocations per Extract", len(raw), allocs)
	if allocs > 1000 {
		t.Errorf("%.0f allocations for a typical mail", allocs)
	}
	deep := deepNesting(20000, true)
	allocs = testing.AllocsPerRun(5, func() { Extract(deep, Limits{}) })
	t.Logf("20,000-level bomb (%d bytes): %.0f allocations per Extract", len(deep), allocs)
	if allocs > 1000 {
		t.Errorf("%.0f allocations to refuse a nesting bomb", allocs)
	}
}

// typicalMail is a multipart/alternative order mail from a webmail client.
func typicalMail() []byte {
	return crlf(`Return-Path: <fritz@example.org>
Received: from mx.example.org by mx.pbem.example; Mon, 3 Mar 1757 10:00:01 +0100
Authentication-Results: mx.pbem.example; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org
From: Friedrich <fritz@example.org>
To: orders@pbem.example
Subject: Re: Turn 3 orders
Date: Mon, 3 Mar 1757 10:00:00 +0100
Message-ID: <turn3.prussia@example.org>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="000000000000abcdef"

--000000000000abcdef
Content-Type: text/plain; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

` + strings.Repeat("A1 MOVE TO 0412 THEN 0413 =E2=80=93 FORCED MARCH\n", 40) + `
--000000000000abcdef
Content-Type: text/html; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

<div dir=3D"ltr">` + strings.Repeat("<div>A1 MOVE TO 0412</div>", 40) + `</div>
--000000000000abcdef--
`)
}
