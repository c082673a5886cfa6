package holdem

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/paging"
)

// Hand returns one of the user's hands; NotFound when there is no such hand
// or it is someone else's.
func (s *Service) Hand(ctx context.Context, userID ids.UserID, handID int64) (Snapshot, error) {
	r, err := s.store.Hand(ctx, handID)
	if err == nil && r.UserID != userID {
		err = HandNotFound()
	}
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(r)
}

// Page sizes of Hands.
const (
	DefaultPageSize = paging.Default
	MaxPageSize     = paging.Max
)

// SnapshotPage is one page of a user's hands, newest first.
type SnapshotPage struct {
	Items []Snapshot
	// Next is the cursor of the following page; "" on the last page.
	Next string
}

// Hands lists the user's hands newest first, limit at a time (clamped to
// 1..MaxPageSize, DefaultPageSize when 0 or less), after the cursor of the
// previous page ("" for the first).
func (s *Service) Hands(ctx context.Context, userID ids.UserID, after string, limit int) (SnapshotPage, error) {
	before, err := decodeCursor(after)
	if err != nil {
		return SnapshotPage{}, err
	}
	limit = paging.Size(limit, MaxPageSize)
	rs, err := s.store.Hands(ctx, userID, paging.IDRange{Before: before}, limit+1)
	if err != nil {
		return SnapshotPage{}, err
	}
	var p SnapshotPage
	if len(rs) > limit {
		rs = rs[:limit]
		p.Next = encodeCursor(rs[limit-1].ID)
	}
	err = p.add(rs)
	return p, err
}

// HandsBefore is the backward page of Hands: the limit hands just newer
// than the cursor before (the oldest hands without one: the end of the
// list), still newest first; Next is the cursor to read on backward
// (towards the newest), "" when no newer hand is left.
func (s *Service) HandsBefore(ctx context.Context, userID ids.UserID, before string, limit int) (SnapshotPage, error) {
	after, err := decodeCursor(before)
	if err != nil {
		return SnapshotPage{}, err
	}
	limit = paging.Size(limit, MaxPageSize)
	rs, err := s.store.Hands(ctx, userID, paging.IDRange{After: after, Ascending: true}, limit+1)
	if err != nil {
		return SnapshotPage{}, err
	}
	var p SnapshotPage
	if len(rs) > limit {
		rs = rs[:limit]
		p.Next = encodeCursor(rs[limit-1].ID)
	}
	slices.Reverse(rs) // read oldest first, listed newest first
	err = p.add(rs)
	return p, err
}

// add appends the snapshots of rs to the page.
func (p *SnapshotPage) add(rs []Record) error {
	for _, r := range rs {
		sn, err := snapshotOf(r)
		if err != nil {
			return err
		}
		p.Items = append(p.Items, sn)
	}
	return nil
}

// PreCommitment is a pending shuffle: the commitment to a server seed drawn
// for the player's next hand before they choose their cut.
type PreCommitment struct {
	Commitment [cards.SeedSize]byte
	CreatedAt  time.Time
}

// Commit returns the commitment of the user's pending seed, drawing one when
// there is none. Passing it to Start (StartRequest.Commitment) deals the
// hand from that seed: since the seed was fixed and published before the
// player chose the cut, the server cannot have picked it to suit the cut.
// Asking again before starting returns the same commitment.
func (s *Service) Commit(ctx context.Context, userID ids.UserID) (PreCommitment, error) {
	p, err := s.store.PendingSeed(ctx, userID)
	if errs.Is(err, errs.NotFound) {
		var seed cards.Seed
		if seed, err = s.seeds(); err != nil {
			return PreCommitment{}, err
		}
		p, err = s.store.AddPendingSeed(ctx, PendingSeed{UserID: userID, Seed: seed, Commitment: cards.Commitment(seed), CreatedAt: s.clock()})
	}
	if err != nil {
		return PreCommitment{}, err
	}
	return PreCommitment{Commitment: p.Commitment, CreatedAt: p.CreatedAt}, nil
}

// encodeCursor turns a hand id into an opaque page cursor.
func encodeCursor(id int64) string { return "h" + strconv.FormatInt(id, 36) }

// HandCursor is the cursor of Hands that continues after the hand with this
// id (each hand of a page is a place to continue from).
func HandCursor(id int64) string { return encodeCursor(id) }

func decodeCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	bad := errs.R(errs.Invalid, ReasonInvalidCursor, "the page cursor is not valid")
	if len(s) < 2 || len(s) > 14 || s[0] != 'h' {
		return 0, bad
	}
	id, err := strconv.ParseInt(s[1:], 36, 64)
	if err != nil || id <= 0 || encodeCursor(id) != s {
		return 0, bad
	}
	return id, nil
}
