package totetest

import (
	"context"
	"slices"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/paging"
	"github.com/pokertote/pokertote/domain/tote"
)

// JackpotChain implements Store.
func (s *MemStore) JackpotChain(_ context.Context, q tote.JackpotChainQuery) ([]tote.JackpotEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	limit := paging.Size(q.Limit, paging.Max)
	var out []tote.JackpotEntry
	if q.Backward {
		end := int64(len(s.chain))
		if q.Before > 0 {
			end = min(end, q.Before-1)
		}
		for seq := end; seq >= 1 && len(out) < limit; seq-- {
			out = append(out, s.chain[seq-1])
		}
		return out, nil
	}
	for seq := max(q.After, 0) + 1; seq <= int64(len(s.chain)) && len(out) < limit; seq++ {
		out = append(out, s.chain[seq-1])
	}
	return out, nil
}

// JackpotHead implements Tx.
func (tx *memTx) JackpotHead(context.Context) (*tote.JackpotEntry, error) {
	if len(tx.s.chain) == 0 {
		return nil, nil
	}
	e := tx.s.chain[len(tx.s.chain)-1]
	return &e, nil
}

// AppendJackpot implements Tx.
func (tx *memTx) AppendJackpot(_ context.Context, entries []tote.JackpotEntry) error {
	tx.changesJackpot()
	old := tx.s.chain
	for i, e := range entries {
		if e.Seq != int64(len(old)+i+1) {
			return errs.E(errs.Conflict, "jackpot entry %d is taken", e.Seq)
		}
	}
	tx.s.chain = append(slices.Clip(old), entries...)
	tx.undo = append(tx.undo, func() { tx.s.chain = old })
	return nil
}
