package demo

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

// TestParseMailPDF: a report mail with a text body and an application/pdf
// attachment, as the outbox composes one, gives the text and the PDF bytes
// (the demo then writes <nation>.pdf); a text-only mail gives no PDF.
func TestParseMailPDF(t *testing.T) {
	pdf := []byte("%PDF-1.4\n% a tiny test file\n%%EOF\n")
	var b strings.Builder
	b.WriteString("From: SYW <orders@pbem.localhost>\r\nTo: eisenmark@pbem.localhost\r\n" +
		"Subject: [syw] Turn 1 resolved\r\nMessage-ID: <syw.t1.eisenmark.report.abc@pbem.localhost>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XYZ\r\n\r\n" +
		"--XYZ\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"Your report is attached. A=3Db\r\n" +
		"--XYZ\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"eisenmark-t1.pdf\"\r\n" +
		"Content-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString(pdf) + "\r\n--XYZ--\r\n")
	m, err := parseMail([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.PDF, pdf) || m.PDFName != "eisenmark-t1.pdf" {
		t.Errorf("PDF %q (%s), want the attachment's bytes", m.PDF, m.PDFName)
	}
	if !strings.Contains(m.Text, "A=b") {
		t.Errorf("text %q, want the decoded body", m.Text)
	}
	if k, n, turn := idParts(m.MessageID); k != "report" || n != "eisenmark" || turn != 1 {
		t.Errorf("idParts = %s %s %d", k, n, turn)
	}
	plain, err := parseMail([]byte("From: a@b\r\nSubject: x\r\nContent-Type: text/plain\r\n\r\nhello\r\n"))
	if err != nil || plain.PDF != nil || !strings.Contains(plain.Text, "hello") {
		t.Errorf("a text mail: %+v %v", plain, err)
	}
}
