package tote

import (
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

// BatchSnapshot is what a BatchPlacer read, inside the batch's transaction
// and under its locks, for PlanBatch: the share-locked draw and its table
// (the draw's odds, result and beacons may be left out: no check reads
// them), the players (when the work has a Judge), and for each player of the
// batch the wallet (locked), the protection state (read after the wallet's
// lock), the counters of the periods holding Now and the session of play
// (locked after the wallet).
type BatchSnapshot struct {
	Draw    Draw
	Table   Table
	Players map[ids.UserID]Player
	// BetIDs are the ids the store drew for the bets, one per request.
	BetIDs []int64
	// Taken reports a (player, key) already stored before the batch (nil:
	// the store did not look; its unique index refuses a taken key then).
	Taken func(user ids.UserID, key string) bool
	// Wallets holds the balance of each player's wallet that exists.
	Wallets  map[ids.UserID]money.Amount
	States   map[ids.UserID]protection.State
	Counters map[ids.UserID]protection.Counters
	Sessions map[ids.UserID]protection.Session
	// Now is the store's clock: the periods of the counters and the
	// session of play.
	Now time.Time
}

// PlannedStake is a stake PlanBatch admitted: the request it answers, its
// transfer (a player's wallet to an escrow) and the wallet's balance after
// it.
type PlannedStake struct {
	Request  int
	Transfer ledger.Transfer
	Balance  money.Amount
}

// PlannedPlayer is a player whose stakes the plan admitted, as the store
// must leave them: the wallet's balance, the counters of the periods
// holding Now and the session of play.
type PlannedPlayer struct {
	User     ids.UserID
	Balance  money.Amount
	Counters protection.Counters
	Session  protection.Session
}

// BatchPlan is what PlanBatch decided: one result per request (the bet,
// with the id the snapshot gave it, and the balance; or the error), the
// admitted stakes in request order, and the players they touch, by id.
type BatchPlan struct {
	Results []BatchResult
	Stakes  []PlannedStake
	Players []PlannedPlayer
}

// PlanBatch is the bet batch's state machine: it applies the
// requests of w to the snapshot s in request order, exactly as single
// posts one after another would, and decides each one: the stake gate
// (a refusal the intake got before the batch, or w.Judge on the players
// of the snapshot), the domain's checks of the bet (CheckBet: the draw and
// round, the table, the stake's range, the selection), the key
// (DUPLICATE_BET when taken before or earlier in the batch), the
// transfer's Validate, the player's exclusion (protection.Excluded, so an
// excluded player hears so before a short wallet), the funds
// (ledger.Apply) and the limits, counters and session (protection.Admit)
// as the earlier stakes of the batch left them. A request repeating a key
// whose first use in the batch failed gets that failure
// (InheritFirstFailures). A refused request moves nothing. The bets are
// dated, and checked, at w.Clock's time, read once here (after the
// store's locks). Every store (the Postgres fast path, SQLite, the twin)
// reads the snapshot, calls PlanBatch and writes the plan; none decides
// anything of its own. It is pure but for that one clock reading.
func PlanBatch(w BatchWork, s BatchSnapshot) (BatchPlan, error) {
	n := len(w.Requests)
	if len(s.BetIDs) != n {
		return BatchPlan{}, errs.E(errs.Internal, "tote: %d bet ids for %d bets", len(s.BetIDs), n)
	}
	if w.Clock == nil {
		return BatchPlan{}, errs.E(errs.Internal, "tote: a bet batch without a clock")
	}
	now := w.Clock.Now()
	plan := BatchPlan{Results: make([]BatchResult, n)}
	balance := map[ids.UserID]money.Amount{}
	counters := map[ids.UserID]protection.Counters{}
	sessions := map[ids.UserID]protection.Session{}
	seen := map[BetKey]bool{}
	keys := make([]BetKey, n)
	took := make([]bool, n)
	for i, q := range w.Requests {
		r := &plan.Results[i]
		keys[i] = BetKey{q.UserID, q.Key}
		if r.Err = q.Refused; r.Err != nil {
			continue
		}
		if w.Judge != nil {
			if r.Err = judge(w.Judge, s.Players, q.UserID, now); r.Err != nil {
				r.GateRefused = true
				continue
			}
		}
		if r.Err = CheckBet(s.Draw, s.Table, q.Stake, q.Selection, now); r.Err != nil {
			continue
		}
		k := keys[i]
		if seen[k] || (s.Taken != nil && s.Taken(k.User, k.Key)) {
			r.Err = errs.R(errs.Conflict, ReasonDuplicateBet, "a bet with key %q exists", q.Key)
			continue
		}
		seen[k], took[i] = true, true
		bet := Bet{
			ID: s.BetIDs[i], DrawID: s.Draw.ID, TableID: s.Draw.TableID, UserID: q.UserID, Round: s.Draw.OpenRound(), Selection: q.Selection,
			Stake: q.Stake, Status: BetAccepted, IdempotencyKey: q.Key, PlacedAt: now,
		}
		tr := StakeTransfer(s.Draw, bet)
		if r.Err = tr.Validate(); r.Err != nil {
			continue
		}
		flow, wallet, err := stakeFlow(tr, bet.UserID)
		if err != nil {
			return BatchPlan{}, err
		}
		u := bet.UserID
		if _, ok := balance[u]; !ok {
			balance[u], counters[u], sessions[u] = s.Wallets[u], s.Counters[u], s.Sessions[u]
			if sessions[u].UserID == 0 {
				ses := sessions[u]
				ses.UserID = int64(u)
				sessions[u] = ses
			}
		}
		st := s.States[u]
		if r.Err = protection.Excluded(flow, st, s.Now); r.Err != nil {
			continue
		}
		// The wallet as read (a player without one holds zero); the
		// escrows' balances are not part of the snapshot (their rows are
		// locked only by the write), so Apply's figures for them are unused.
		moved := ledger.Balances{wallet: balance[u]}
		if _, r.Err = ledger.Apply(tr, moved); r.Err != nil {
			continue
		}
		a, err := protection.Admit(flow, st, counters[u], sessions[u], s.Now)
		if r.Err = err; err != nil {
			continue
		}
		balance[u], counters[u], sessions[u] = moved[wallet], a.Counters, a.Session
		r.Bet, r.Balance = bet, moved[wallet]
		plan.Stakes = append(plan.Stakes, PlannedStake{Request: i, Transfer: tr, Balance: moved[wallet]})
	}
	errOf := make([]*error, n)
	for i := range plan.Results {
		errOf[i] = &plan.Results[i].Err
	}
	InheritFirstFailures(keys, took, errOf)
	users := make([]ids.UserID, len(plan.Stakes))
	for i, st := range plan.Stakes {
		users[i] = plan.Results[st.Request].Bet.UserID
	}
	slices.Sort(users)
	for _, u := range slices.Compact(users) {
		plan.Players = append(plan.Players, PlannedPlayer{User: u, Balance: balance[u], Counters: counters[u], Session: sessions[u]})
	}
	return plan, nil
}

// InheritFirstFailures is the one home of the rule that a request repeating
// a key which an earlier request of the same batch took, and then failed
// with (its funds, a limit), gets that failure, as it would have had it
// waited for the first: keys[i] is request i's key, took[i] says request i
// took its key in this batch (it passed the checks and the key was free),
// and *errOf[i] is its answer; a DUPLICATE_BET of such a key becomes the
// failure of the request that took it. A repeat of a key taken before the
// batch, or taken by a request that succeeded, stays DUPLICATE_BET (the
// intake answers it with the stored bet). PlanBatch and the intake's
// reference path (placeBatchInTx) both apply it.
func InheritFirstFailures(keys []BetKey, took []bool, errOf []*error) {
	first := map[BetKey]int{}
	for i, k := range keys {
		if took[i] {
			if _, ok := first[k]; !ok {
				first[k] = i
			}
		}
	}
	for i, k := range keys {
		if errs.ReasonOf(*errOf[i]) != ReasonDuplicateBet {
			continue
		}
		if f, ok := first[k]; ok && f != i && *errOf[f] != nil {
			*errOf[i] = *errOf[f]
		}
	}
}

// judge is the stake gate's verdict on player u from the rows the store
// read (BatchSnapshot.Players).
func judge(j StakeJudge, players map[ids.UserID]Player, u ids.UserID, now time.Time) error {
	p, ok := players[u]
	switch {
	case !ok:
		return errs.E(errs.Internal, "tote: the store did not read player %d", u)
	case p.Err != nil:
		return p.Err
	}
	return j.CanStake(p.User, p.Verification, now)
}

// stakeFlow checks that tr is a stake a bet batch can post (player u's
// wallet debited, escrows credited) and returns the player's flow and
// wallet.
func stakeFlow(tr ledger.Transfer, u ids.UserID) (protection.Flow, ledger.AccountRef, error) {
	wallet := ledger.UserWallet(u)
	for _, e := range tr.Entries {
		switch {
		case e.Account == wallet && e.Amount < 0:
		case e.Account.Kind == ledger.Escrow && e.Amount > 0:
		default:
			return protection.Flow{}, wallet, errs.E(errs.Internal, "tote: a bet batch posts stakes from the player's wallet to escrows only, not %s", tr.IdempotencyKey)
		}
	}
	flows, err := protection.Classify(tr)
	if err != nil {
		return protection.Flow{}, wallet, err
	}
	if len(flows) != 1 || flows[0].Kind != protection.FlowStake || flows[0].UserID != int64(u) {
		return protection.Flow{}, wallet, errs.E(errs.Internal, "tote: transfer %s is not one player's stake", tr.IdempotencyKey)
	}
	return flows[0], wallet, nil
}
