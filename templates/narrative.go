package templates

import "embed"

// Narrative holds the battle narrative's templates (narrative/*.tmpl), for
// reports/narrative: each file defines numbered variants of one part of a
// battle's telling ("opening.0", "opening.1" …), chosen by the battle's
// seed.
//
//go:embed narrative/*.tmpl
var Narrative embed.FS
