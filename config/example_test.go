package config_test

import (
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/config"
)

// A typo is reported with its line and the key it probably meant.
func ExampleParse() {
	data := []byte(`
game:
  nations:
    eisenmark:
      addresses: [eisenmark@pbem.localhost]
      pasword: demo
`)
	_, err := config.Parse(data, "config.yaml")
	fmt.Println(err)
	// Output:
	// config.yaml:6: game.nations.eisenmark.pasword: unknown key; did you mean "password"?
}

// Validate reports every problem at once, each with its line.
func ExampleConfig_Validate() {
	data := []byte(`
log_level: chatty
game:
  ruleset: syw-1763
  nations:
    eisenmark: {addresses: [eisenmark@pbem.localhost], password: demo}
mail:
  embedded:
    accounts: [{user: orders@pbem.localhost, password: demo}]
`)
	c, err := config.Parse(data, "config.yaml")
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Validate())
	// Output:
	// config.yaml:2: log_level: "chatty" is not a log level; use one of debug, info, warn, error
	// config.yaml:4: game.ruleset: "syw-1763" is not a ruleset pbem knows; use one of syw-1752, syw-v4, trossian
}

// Passwords print as asterisks; Reveal gives the text where it is needed.
func ExamplePassword() {
	pw := config.Password("hunter2")
	fmt.Println(pw, fmt.Sprintf("%q %#v", pw, pw))
	fmt.Println(pw.Reveal())
	// Output:
	// ******** "********" config.Password("********")
	// hunter2
}

// A fixed first deadline, then one every four weeks at 18:00 London time.
func ExampleDeadline_Next() {
	london, _ := time.LoadLocation("Europe/London")
	d := config.Deadline{Time: "18:00", Dates: []string{"2026-03-06"}, EveryDays: 28}
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, london) // the game starts
	for range 3 {
		t, _ = d.Next(t, london)
		fmt.Println(t.Format("Mon 2 Jan 2006 15:04 MST"))
	}
	// Output:
	// Fri 6 Mar 2026 18:00 GMT
	// Fri 3 Apr 2026 18:00 BST
	// Fri 1 May 2026 18:00 BST
}
