package doctor

import "syscall"

// clockSynchronised asks the kernel (adjtimex, read only) whether the
// clock is synchronised: TIME_ERROR (5) means it is not.
func clockSynchronised() (synced, known bool) {
	var tx syscall.Timex
	state, err := syscall.Adjtimex(&tx)
	if err != nil {
		return false, false
	}
	return state != 5, true
}
