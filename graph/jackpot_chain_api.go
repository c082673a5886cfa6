package graph

import (
	"context"
	"encoding/json"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// JackpotChain resolves Query.jackpotChain: public, oldest first, a
// cursor being the entry's seq. afterSeq is a forward page's after given
// as a seq.
func (a *ToteAPI) JackpotChain(ctx context.Context, afterSeq *int64, first *int, after *string, last *int, before *string) (*model.JackpotEntryConnection, error) {
	pr, cur, err := pageArgs(first, after, last, before)
	if err != nil {
		return nil, err
	}
	if afterSeq != nil {
		if pr.backward {
			return nil, errs.R(errs.Invalid, ReasonPageDirection, "afterSeq pages forward: not with last or before")
		}
		if cur != 0 || *afterSeq < 0 {
			return nil, errs.R(errs.Invalid, ReasonInvalidCursor, "pass afterSeq (0 or more) or after, not both")
		}
		cur = *afterSeq
	}
	limit := pr.size
	q := tote.JackpotChainQuery{After: cur, Limit: limit + 1} // one more tells whether a next page exists
	if pr.backward {
		q = tote.JackpotChainQuery{Backward: true, Before: cur, Limit: limit + 1}
	}
	entries, err := a.svc.JackpotChain(ctx, q)
	if err != nil {
		return nil, err
	}
	more := len(entries) > limit
	entries = entries[:min(len(entries), limit)]
	if pr.backward {
		for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
			entries[i], entries[j] = entries[j], entries[i] // read newest first, listed oldest first
		}
	}
	out := &model.JackpotEntryConnection{Edges: make([]model.JackpotEntryEdge, len(entries))}
	for i, e := range entries {
		node, err := toModelJackpotEntry(e)
		if err != nil {
			return nil, err
		}
		out.Edges[i] = model.JackpotEntryEdge{Cursor: idCursor(e.Seq), Node: node}
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.JackpotEntryEdge) string { return e.Cursor }, more)
	return out, nil
}

// toModelJackpotEntry is a chain entry as the API shows it, with the JSON
// the verifiers read.
func toModelJackpotEntry(e tote.JackpotEntry) (*model.JackpotEntry, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, errs.Wrap(err, "a jackpot entry could not be written")
	}
	out := &model.JackpotEntry{Seq: e.Seq, Kind: string(e.Kind), Amount: model.Money(e.Amount), Before: model.Money(e.Before),
		After: model.Money(e.After), At: e.At, PrevHash: e.PrevHash, Hash: e.Hash, EntryJSON: string(raw)}
	if e.DrawID != 0 {
		out.DrawID = ptrTo(id(e.DrawID))
		out.PoolID = ptrTo(e.PoolID)
	}
	return out, nil
}
