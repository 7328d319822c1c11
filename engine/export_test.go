package engine

// Every test of the package (and of engine_test, in the same binary) has
// Resolve check the place index against the forces after every step.
func init() { checkPlaceIndex = true }
