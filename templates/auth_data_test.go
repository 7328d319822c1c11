package templates

// authTemplateData is the test data of the templates about who sent a mail
// (referee authentication, replays), for TestEveryTemplateRenders.
var authTemplateData = map[string]any{
	"referee-refused":         map[string]any{"Why": "the mail has no PASSWORD line", "Game": "syw"},
	"referee-commands-notice": map[string]any{"From": "a@b", "Password": true},
	"replay-notice":           map[string]any{"MessageID": "<a@b>"},
}
