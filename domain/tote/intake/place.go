package intake

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// PlaceBet accepts a bet on the open round of a draw (SPEC 1.1, 1.4): the
// player may stake (verified, 21+), the selection is valid for the table,
// the market is offered in the round, the stake is within the draw's
// minimum and the table's maximum, and the wallet holds it. The stake moves
// wallet → pool escrow in the transaction that stores the bet.
//
// The round-close race: the transaction takes a Shared lock on the draw
// and checks that the round is still open; the dealer's close takes an
// Exclusive lock, so it waits for every bet in flight, and every later bet
// waits for it and then finds the round closed (Conflict ROUND_CLOSED). A
// bet therefore commits before the close or not at all.
//
// Idempotency: a second request with the same key returns the first bet
// when it asks for the same thing, and is Conflict IDEMPOTENCY_KEY_REUSED
// otherwise.
//
// The bet goes through the draw's intake (intake.go), which commits the
// bets arriving together in one transaction, each with its own result.
func (in *Queue) PlaceBet(ctx context.Context, r tote.PlaceBetRequest) (tote.Bet, error) {
	sel, err := r.Parse()
	if err != nil {
		return tote.Bet{}, err
	}
	job := &betJob{ctx: ctx, req: r, sel: sel, done: make(chan struct{}), gated: make(chan struct{}), queued: time.Now()}
	in.submit(job)
	if _, inBatch := in.judgesInBatch(); !inBatch {
		job.gateErr = in.gate.EnsureCanStake(ctx, r.UserID)
	}
	close(job.gated)
	select {
	case <-job.done:
	case <-ctx.Done():
		// The batch may still commit the bet: a retry with the same key
		// finds it.
		return tote.Bet{}, errs.Wrap(ctx.Err(), "placing the bet was cancelled")
	}
	return in.answer(ctx, job)
}

// answer turns a finished job into PlaceBet's result. (The batch has
// published an accepted bet's events already.)
func (in *Queue) answer(ctx context.Context, job *betJob) (tote.Bet, error) {
	r, sel := job.req, job.sel
	if job.gateErr != nil {
		return tote.Bet{}, job.gateErr
	}
	if job.err != nil {
		// A retry of a bet that was placed earlier may now fail the checks
		// (the round closed, the wallet emptied) or find its key taken:
		// the first bet is its answer.
		if b, lookupErr := in.store.BetByKey(ctx, r.UserID, r.IdempotencyKey); lookupErr == nil {
			return replayBet(r, b, sel)
		} else if !errs.Is(lookupErr, errs.NotFound) {
			return tote.Bet{}, lookupErr
		}
		return tote.Bet{}, job.err
	}
	return job.bet, nil
}

// replayBet answers a request whose key is taken by bet b.
func replayBet(r tote.PlaceBetRequest, b tote.Bet, sel parimutuel.Selection) (tote.Bet, error) {
	if !r.SameRequest(b, sel) {
		return tote.Bet{}, errs.R(errs.Conflict, tote.ReasonIdempotencyKeyReused, "the idempotency key %q was used for another bet", r.IdempotencyKey)
	}
	return b, nil
}

// PlaceBets places several bets at once, each with its own result exactly
// as PlaceBet would give it: the requests on one draw are checked and
// stored in ONE transaction of the intake (one bad bet never fails the
// others). It is how a client (or a test) hands the intake a ready batch.
func (in *Queue) PlaceBets(ctx context.Context, reqs []tote.PlaceBetRequest) ([]tote.Bet, []error) {
	bets := make([]tote.Bet, len(reqs))
	errList := make([]error, len(reqs))
	byDraw := map[int64][]*betJob{}
	var order []int64
	jobs := make([]*betJob, len(reqs))
	for i, r := range reqs {
		sel, err := r.Parse()
		if err != nil {
			errList[i] = err
			continue
		}
		jobs[i] = &betJob{ctx: ctx, req: r, sel: sel, done: make(chan struct{}), gated: make(chan struct{}), queued: time.Now()}
		if _, inBatch := in.judgesInBatch(); !inBatch {
			jobs[i].gateErr = in.gate.EnsureCanStake(ctx, r.UserID)
		}
		close(jobs[i].gated)
		if byDraw[r.DrawID] == nil {
			order = append(order, r.DrawID)
		}
		byDraw[r.DrawID] = append(byDraw[r.DrawID], jobs[i])
	}
	for _, d := range order {
		in.placeBatch(byDraw[d], nil)
	}
	for i, j := range jobs {
		if j != nil {
			bets[i], errList[i] = in.answer(ctx, j)
		}
	}
	return bets, errList
}
