package main
import (
 _ "github.com/emersion/go-imap/v2"
 _ "github.com/emersion/go-imap/v2/imapclient"
 _ "github.com/emersion/go-imap/v2/imapserver"
 _ "github.com/emersion/go-message"
 _ "github.com/emersion/go-message/charset"
 _ "github.com/wneessen/go-mail"
 _ "github.com/emersion/go-smtp"
 _ "codeberg.org/go-pdf/fpdf"
 _ "go.yaml.in/yaml/v3"
 _ "modernc.org/sqlite"
 _ "github.com/emersion/go-msgauth/dkim"
)
func main(){}
