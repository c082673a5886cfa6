package ledger

import "context"

// BatchPoster is a Poster that can post many independent transfers in one
// go: the database adapter's in-transaction poster implements it to move a
// burst of bet stakes with a handful of statements instead of a handful
// per stake.
//
// PostBatch must behave exactly as posting each transfer with Post, in
// order, inside the same transaction: every transfer gets its own result
// (its Posted, or its own error such as INSUFFICIENT_FUNDS or
// IDEMPOTENCY_KEY_REUSED) and a failed one moves nothing while the others
// still post. The slices returned have len(ts) elements. An error of the
// whole call (the third result) means the batch failed as a unit and the
// caller's transaction should be abandoned.
type BatchPoster interface {
	PostBatch(ctx context.Context, ts []Transfer) ([]Posted, []error, error)
}

// PostEach posts every transfer of ts through p, as one batch when p is a
// BatchPoster and one Post after another otherwise, and returns a result
// per transfer; err is set only when the batch failed as a unit.
func PostEach(ctx context.Context, p Poster, ts []Transfer) (posted []Posted, errs []error, err error) {
	if bp, ok := p.(BatchPoster); ok {
		return bp.PostBatch(ctx, ts)
	}
	posted = make([]Posted, len(ts))
	errs = make([]error, len(ts))
	for i, t := range ts {
		posted[i], errs[i] = p.Post(ctx, t)
	}
	return posted, errs, nil
}
