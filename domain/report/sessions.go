package report

import (
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

// ActivityKind is what a player's activity was.
type ActivityKind string

// The activity kinds a session report reads.
const (
	Stake         ActivityKind = "STAKE"  // a stake left the wallet
	Return        ActivityKind = "RETURN" // a payout or refund reached it
	Deposit       ActivityKind = "DEPOSIT"
	Withdrawal    ActivityKind = "WITHDRAWAL"
	TimeOut       ActivityKind = "TIME_OUT"       // the player took a time-out
	SelfExclusion ActivityKind = "SELF_EXCLUSION" // the player excluded themselves
)

// Activity is one of a player's movements, in time order: its amount, and
// the wallet's balance after it (money kinds only).
type Activity struct {
	At           time.Time
	Kind         ActivityKind
	Amount       money.Amount
	BalanceAfter money.Amount
}

// SessionEnd says why a session ended.
type SessionEnd string

// The ends of a session.
const (
	// EndIdle: no stake for SessionGap after the last play.
	EndIdle SessionEnd = "IDLE"
	// EndOpen: the session may still go on (its last play is within
	// SessionGap of now).
	EndOpen SessionEnd = "OPEN"
	// EndTimeOut, EndSelfExclusion: the player stopped it.
	EndTimeOut       SessionEnd = "TIME_OUT"
	EndSelfExclusion SessionEnd = "SELF_EXCLUSION"
)

// SessionGap is how long without play ends a session: a stake after it
// starts a new one. It is the reality checks' rule, kept in one place
// (protection.SessionIdle).
const SessionGap = protection.SessionIdle

// Session is one session of play as GLI-19 2.13 asks a report of it: when
// it started and ended, what was wagered and won (payouts and refunds),
// deposited and withdrawn during it, the wallet's balance at its start and
// end, and why it ended.
type Session struct {
	Start, End               time.Time
	Bets                     int
	Wagered, Won             money.Amount
	Deposited, Withdrawn     money.Amount
	StartBalance, EndBalance money.Amount
	EndReason                SessionEnd
}

// Sessions cuts a player's activities (in time order) into sessions. A
// session starts with a stake when none is open, goes on while stakes and
// returns follow within SessionGap of the last play, and ends at the last
// play; a return that comes later (a long draw settling) is still counted
// in the session it belongs to. Deposits and withdrawals made from a
// session's start to SessionGap after its end count in it; a time-out or
// self-exclusion then ends it with that reason.
func Sessions(acts []Activity, now time.Time) []Session {
	var out []Session
	var cur *Session
	for _, a := range acts {
		if cur != nil && a.At.Sub(cur.End) > SessionGap && a.Kind == Stake {
			cur = nil
		}
		switch a.Kind {
		case Stake:
			if cur == nil {
				out = append(out, Session{Start: a.At, End: a.At, StartBalance: a.BalanceAfter + a.Amount, EndReason: EndIdle})
				cur = &out[len(out)-1]
			}
			cur.Bets++
			cur.Wagered += a.Amount
			cur.End, cur.EndBalance = a.At, a.BalanceAfter
		case Return:
			if cur == nil {
				continue // a return of a stake before the period
			}
			cur.Won += a.Amount
			cur.EndBalance = a.BalanceAfter
			if a.At.Sub(cur.End) <= SessionGap {
				cur.End = a.At
			}
		case Deposit, Withdrawal:
			if cur == nil || a.At.Sub(cur.End) > SessionGap {
				continue
			}
			if a.Kind == Deposit {
				cur.Deposited += a.Amount
			} else {
				cur.Withdrawn += a.Amount
			}
			cur.EndBalance = a.BalanceAfter
		case TimeOut, SelfExclusion:
			if cur != nil && a.At.Sub(cur.End) <= SessionGap {
				cur.EndReason = SessionEnd(a.Kind)
				cur = nil
			}
		}
	}
	for i := range out {
		if out[i].EndReason == EndIdle && now.Sub(out[i].End) < SessionGap {
			out[i].EndReason = EndOpen
		}
	}
	return out
}
