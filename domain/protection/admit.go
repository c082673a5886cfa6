package protection

import "time"

// Admission is what Admit makes of a player's standing: their counters of
// the periods holding the instant and their session of play, after the
// flow.
type Admission struct {
	Counters Counters
	Session  Session
	// Played is true when the session changed (a stake, or a return within
	// a session still going); a store writes the session only then.
	Played bool
}

// Admit is the one home of the player-protection rules a flow of money
// meets: every store (the twin, the ledger's guard on SQLite and
// Postgres, the Postgres bet batch, the Postgres count of returns) reads the
// player's state, counters and session, calls Admit, and writes what it
// returns; none encodes a rule of its own.
//
// For a deposit or a stake it applies Decide (the register, the player's
// exclusion, then each limit by name, against the counters as they stand
// before f; missing counters count as zero) and refuses with Decide's
// error, the standing unchanged. An admitted flow moves the counter of each
// period (deposits, stakes or returns by f.Amount) and the session of play
// (Session.Play). Returns are never refused. c is not modified.
func Admit(f Flow, s State, c Counters, ses Session, now time.Time) (Admission, error) {
	if err := Decide(f, s, c, now); err != nil {
		return Admission{Counters: c, Session: ses}, err
	}
	next := make(Counters, len(Periods))
	for _, p := range Periods {
		cnt := c[p]
		cnt.Period = p
		switch f.Kind {
		case FlowDeposit:
			cnt.Deposits += f.Amount
		case FlowStake:
			cnt.Stakes += f.Amount
		case FlowReturn:
			cnt.Returns += f.Amount
		}
		next[p] = cnt
	}
	played, ok := ses.Play(f, now)
	return Admission{Counters: next, Session: played, Played: ok}, nil
}
