package ruleset

// CaptureRules are the rules' "Capturing and Controlling Cities".
type CaptureRules struct {
	// CaptureFigures: "enter it a force of 100 or more infantry or cavalry".
	CaptureFigures int
	// Garrison: "you need 10 infantry or cavalry figures as a garrison until
	// the province becomes loyal … below … the townsfolk kill off the
	// remaining men."
	Garrison int
}
