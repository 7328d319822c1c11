package inbox

import (
	"encoding/base64"
	"strings"
	"testing"
)

func benchExtract(b *testing.B, raw []byte) {
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		Extract(raw, Limits{})
	}
}

// Typical mail: what a player's client sends.
func BenchmarkExtractTypical(b *testing.B) { benchExtract(b, typicalMail()) }

func BenchmarkExtractPlain(b *testing.B) { benchExtract(b, orderMail("fritz@example.org")) }

func BenchmarkExtractHTMLOnly(b *testing.B) {
	benchExtract(b, crlf("From: a@example.org\nContent-Type: text/html; charset=utf-8\n\n<html><body>"+
		strings.Repeat("<div>A1&nbsp;MOVE TO 0412</div>", 200)+"</body></html>"))
}

func BenchmarkExtractTxtAttachment(b *testing.B) {
	benchExtract(b, crlf("From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nsee attached\n--b\n"+
		"Content-Type: text/plain; name=orders.txt\nContent-Disposition: attachment; filename=orders.txt\nContent-Transfer-Encoding: base64\n\n"+
		base64.StdEncoding.EncodeToString([]byte(strings.Repeat(sheet, 20)))+"\n--b--\n"))
}

// Hostile mail: refused or read in bounded time.
func BenchmarkExtractNestingBomb20000(b *testing.B)  { benchExtract(b, deepNesting(20000, false)) }
func BenchmarkExtractFiveThousandParts(b *testing.B) { benchExtract(b, manyParts(5000)) }
func BenchmarkExtractHugeHeader(b *testing.B)        { benchExtract(b, hugeHeaderLine(2<<20)) }
func BenchmarkExtractLongText5MB(b *testing.B)       { benchExtract(b, longText(5<<20)) }
func BenchmarkExtractBrokenBase64(b *testing.B)      { benchExtract(b, brokenBase64(4<<20)) }
func BenchmarkExtractHTMLTagSoup(b *testing.B)       { benchExtract(b, htmlBomb(70000)) }

func BenchmarkAuthenticateDKIM(b *testing.B) {
	k := newDKIMKeys(b, "example.org")
	raw := k.sign(b, orderMail("fritz@example.org"), "example.org")
	p := testPolicy(k)
	p.RequireDKIM = true
	ex, err := Extract(raw, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if r := Authenticate(ex, raw, "", p); !r.OK() {
			b.Fatal(r.Reason)
		}
	}
}
