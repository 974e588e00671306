//go:build race

package compile

// raceEnabled: the race detector slows the corpus sweeps tenfold.
const raceEnabled = true
