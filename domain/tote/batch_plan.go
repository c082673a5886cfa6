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
// and under its locks, for PlanBatch: the share-locked draw and its table,
// the players (when the work asked for them), and for each player of the
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
	Now      time.Time
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

// PlanBatch is the bet batch's state machine (issue 24): it applies the
// requests of w to the snapshot s in request order, exactly as single
// posts one after another would, and decides each one: the domain's checks
// of the bet (w.Check: the draw and round, the table, the stake's range,
// the stake gate), the key (DUPLICATE_BET when taken before or earlier in
// the batch), the transfer's Validate, the player's exclusion
// (protection.Excluded, so an excluded player hears so before a short
// wallet), the funds (ledger.Apply) and the limits, counters and session
// (protection.Admit) as the earlier stakes of the batch left them. A
// refused request moves nothing. The store only writes the plan. It is
// pure: the same snapshot and work give the same plan.
func PlanBatch(w BatchWork, s BatchSnapshot) (BatchPlan, error) {
	n := len(w.Users)
	if len(s.BetIDs) != n {
		return BatchPlan{}, errs.E(errs.Internal, "tote: %d bet ids for %d bets", len(s.BetIDs), n)
	}
	bets, checked := w.Check(s.Draw, s.Table, s.Players)
	plan := BatchPlan{Results: make([]BatchResult, n)}
	balance := map[ids.UserID]money.Amount{}
	counters := map[ids.UserID]protection.Counters{}
	sessions := map[ids.UserID]protection.Session{}
	seen := map[betKey]bool{}
	for i := range n {
		r := &plan.Results[i]
		if r.Err = checked[i]; r.Err != nil {
			continue
		}
		bet := bets[i]
		k := betKey{bet.UserID, bet.IdempotencyKey}
		if seen[k] || (s.Taken != nil && s.Taken(k.user, k.key)) {
			r.Err = errs.R(errs.Conflict, ReasonDuplicateBet, "a bet with key %q exists", bet.IdempotencyKey)
			continue
		}
		seen[k] = true
		bet.ID = s.BetIDs[i]
		tr := w.Stake(s.Draw, bet)
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
	flows := protection.Classify(tr)
	if len(flows) != 1 || flows[0].Kind != protection.FlowStake || flows[0].UserID != int64(u) {
		return protection.Flow{}, wallet, errs.E(errs.Internal, "tote: transfer %s is not one player's stake", tr.IdempotencyKey)
	}
	return flows[0], wallet, nil
}
