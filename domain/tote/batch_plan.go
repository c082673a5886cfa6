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
// admitted stakes in request order, the players they touch, by id, and
// what the admitted bets add to the pool totals (PoolIncrements: one per
// selection, in PoolKeyOrder, which the store writes last, just before
// its commit).
type BatchPlan struct {
	Results []BatchResult
	Stakes  []PlannedStake
	Players []PlannedPlayer
	Totals  []PoolIncrement
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
	p := batchPlanner{
		work: w, snap: s, now: w.Clock.Now(),
		balance:  map[ids.UserID]money.Amount{},
		counters: map[ids.UserID]protection.Counters{},
		sessions: map[ids.UserID]protection.Session{},
		seen:     map[BetKey]bool{},
	}
	plan := BatchPlan{Results: make([]BatchResult, n)}
	keys := make([]BetKey, n)
	took := make([]bool, n)
	for i, q := range w.Requests {
		r := &plan.Results[i]
		keys[i] = BetKey{q.UserID, q.Key}
		if r.Err = p.gate(q, keys[i], r); r.Err != nil {
			continue
		}
		p.seen[keys[i]], took[i] = true, true
		st, err := p.stake(i, q, r)
		if err != nil {
			return BatchPlan{}, err
		}
		if r.Err == nil {
			plan.Stakes = append(plan.Stakes, st)
		}
	}
	errOf := make([]*error, n)
	for i := range plan.Results {
		errOf[i] = &plan.Results[i].Err
	}
	InheritFirstFailures(keys, took, errOf)
	plan.Players = p.players(plan)
	plan.Totals = PoolIncrements(plan.Bets())
	return plan, nil
}

// Bets are the plan's admitted bets, in request order.
func (plan BatchPlan) Bets() []Bet {
	bets := make([]Bet, len(plan.Stakes))
	for i, st := range plan.Stakes {
		bets[i] = plan.Results[st.Request].Bet
	}
	return bets
}

// batchPlanner is PlanBatch's running state: the work, the snapshot, the
// batch's time, and each player of the batch as the stakes admitted so
// far left them (wallet balance, counters, session), with the keys
// already taken in the batch.
type batchPlanner struct {
	work     BatchWork
	snap     BatchSnapshot
	now      time.Time
	balance  map[ids.UserID]money.Amount
	counters map[ids.UserID]protection.Counters
	sessions map[ids.UserID]protection.Session
	seen     map[BetKey]bool
}

// gate decides what comes before the bet is made: the stake gate (a
// refusal the intake got, or the work's Judge, which sets r.GateRefused),
// CheckBet, and the key k (DUPLICATE_BET when taken before the batch or
// earlier in it).
func (p *batchPlanner) gate(q BatchRequest, k BetKey, r *BatchResult) error {
	if q.Refused != nil {
		return q.Refused
	}
	if p.work.Judge != nil {
		if err := judge(p.work.Judge, p.snap.Players, q.UserID, p.now); err != nil {
			r.GateRefused = true
			return err
		}
	}
	if err := CheckBet(p.snap.Draw, p.snap.Table, q.Stake, q.Selection, p.now); err != nil {
		return err
	}
	if p.seen[k] || (p.snap.Taken != nil && p.snap.Taken(k.User, k.Key)) {
		return errs.R(errs.Conflict, ReasonDuplicateBet, "a bet with key %q exists", q.Key)
	}
	return nil
}

// stake makes request i's bet and decides its stake: the transfer's
// Validate, the player's exclusion, the funds and the limits, as the
// earlier stakes of the batch left the player. A refusal is set in r.Err
// (the stake returned is then unused); the error returned is the store's
// (a transfer that is not a stake), which fails the batch.
func (p *batchPlanner) stake(i int, q BatchRequest, r *BatchResult) (PlannedStake, error) {
	d := p.snap.Draw
	bet := Bet{
		ID: p.snap.BetIDs[i], DrawID: d.ID, TableID: d.TableID, UserID: q.UserID, Round: d.OpenRound(), Selection: q.Selection,
		Stake: q.Stake, Status: BetAccepted, IdempotencyKey: q.Key, PlacedAt: p.now,
	}
	tr := StakeTransfer(d, bet)
	if r.Err = tr.Validate(); r.Err != nil {
		return PlannedStake{}, nil
	}
	flow, wallet, err := stakeFlow(tr, bet.UserID)
	if err != nil {
		return PlannedStake{}, err
	}
	u := bet.UserID
	p.load(u)
	st := p.snap.States[u]
	if r.Err = protection.Excluded(flow, st, p.snap.Now); r.Err != nil {
		return PlannedStake{}, nil
	}
	// The wallet as read (a player without one holds zero); the
	// escrows' balances are not part of the snapshot (their rows are
	// locked only by the write), so Apply's figures for them are unused.
	moved := ledger.Balances{wallet: p.balance[u]}
	if _, r.Err = ledger.Apply(tr, moved); r.Err != nil {
		return PlannedStake{}, nil
	}
	a, err := protection.Admit(flow, st, p.counters[u], p.sessions[u], p.snap.Now)
	if r.Err = err; err != nil {
		return PlannedStake{}, nil
	}
	p.balance[u], p.counters[u], p.sessions[u] = moved[wallet], a.Counters, a.Session
	r.Bet, r.Balance = bet, moved[wallet]
	return PlannedStake{Request: i, Transfer: tr, Balance: moved[wallet]}, nil
}

// load takes player u's wallet, counters and session from the snapshot
// the first time the batch meets u (a session not yet stored gets u's id).
func (p *batchPlanner) load(u ids.UserID) {
	if _, ok := p.balance[u]; ok {
		return
	}
	p.balance[u], p.counters[u], p.sessions[u] = p.snap.Wallets[u], p.snap.Counters[u], p.snap.Sessions[u]
	if p.sessions[u].UserID == 0 {
		ses := p.sessions[u]
		ses.UserID = int64(u)
		p.sessions[u] = ses
	}
}

// players are the players whose stakes plan admitted, by id, as the
// batch leaves them.
func (p *batchPlanner) players(plan BatchPlan) []PlannedPlayer {
	users := make([]ids.UserID, len(plan.Stakes))
	for i, st := range plan.Stakes {
		users[i] = plan.Results[st.Request].Bet.UserID
	}
	slices.Sort(users)
	var out []PlannedPlayer
	for _, u := range slices.Compact(users) {
		out = append(out, PlannedPlayer{User: u, Balance: p.balance[u], Counters: p.counters[u], Session: p.sessions[u]})
	}
	return out
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
