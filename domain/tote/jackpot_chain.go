package tote

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// The jackpot chain (SPEC 1.5, docs/fairness.md section 14): every change
// of the game's jackpot is one entry of one public, ordered, hash-chained
// sequence, written in the transaction that posts the money. Its entries
// count 1, 2, ... without a gap; each entry's balance before is the
// previous one's balance after; each entry's hash covers its fields and the
// previous hash, so rewriting an entry changes every hash after it.

// JackpotKind is what moved the jackpot in one chain entry.
type JackpotKind string

// The kinds of jackpot change. JackpotKinds says everything about each.
const (
	// JackpotOpening starts the chain with the jackpot the ledger held
	// when the chain began (seq 1 only).
	JackpotOpening JackpotKind = "OPENING"
	// JackpotContribution is a pool's J (rule 7).
	JackpotContribution JackpotKind = "CONTRIBUTION"
	// JackpotRollover is an unbacked EXPRESS category 1 fund rolled in.
	JackpotRollover JackpotKind = "ROLLOVER"
	// JackpotWin is the jackpot an EXPRESS category 1 won.
	JackpotWin JackpotKind = "WIN"
	// JackpotTopUp is an admin's top-up from the organiser's money.
	JackpotTopUp JackpotKind = "TOP_UP"
)

// JackpotKindRule is how one kind of entry moves the balance and what it
// names.
type JackpotKindRule struct {
	// Sign is +1 when the amount adds to the jackpot, -1 when it is paid
	// out of it.
	Sign int64
	// Pool says that the entry names a draw and one of its pools.
	Pool bool
}

// JackpotKinds is the closed set of jackpot entry kinds; a kind not in it
// is refused wherever an entry is read or checked.
var JackpotKinds = map[JackpotKind]JackpotKindRule{
	JackpotOpening:      {Sign: +1},
	JackpotContribution: {Sign: +1, Pool: true},
	JackpotRollover:     {Sign: +1, Pool: true},
	JackpotWin:          {Sign: -1, Pool: true},
	JackpotTopUp:        {Sign: +1},
}

// JackpotEntry is one change of the jackpot as the chain publishes it.
// Amounts are tiyn; Amount is never negative (Kind gives the direction).
type JackpotEntry struct {
	Seq    int64        `json:"seq"`
	Kind   JackpotKind  `json:"kind"`
	DrawID int64        `json:"drawId,omitempty"`
	PoolID string       `json:"poolId,omitempty"`
	Amount money.Amount `json:"amount"`
	Before money.Amount `json:"before"`
	After  money.Amount `json:"after"`
	// At is when the money moved, UTC, whole milliseconds.
	At time.Time `json:"at"`
	// PrevHash is the previous entry's Hash (64 zeros for seq 1), Hash
	// this entry's (JackpotHash), both 64 lower-case hex digits.
	PrevHash string `json:"prevHash"`
	Hash     string `json:"hash"`
}

// JackpotMove is one change of the jackpot before it takes its place in
// the chain.
type JackpotMove struct {
	Kind   JackpotKind
	DrawID int64
	PoolID string
	Amount money.Amount
}

// JackpotRange names a draw's entries in the chain: those with After <
// seq <= Last (none when Last == After). The draw's jackpotBefore is the
// balance after entry After.
type JackpotRange struct {
	After int64 `json:"after"`
	Last  int64 `json:"last"`
}

// JackpotGenesis is the PrevHash of seq 1.
var JackpotGenesis = hex.EncodeToString(make([]byte, sha256.Size))

// jackpotDomain prefixes every hashed entry (version 1 of the encoding).
const jackpotDomain = "pokertote/jackpot/v1"

// JackpotBytes is the byte encoding an entry's hash covers: the ASCII
// "pokertote/jackpot/v1", then seq (8 bytes), kind (1-byte length, ASCII),
// draw id (8 bytes, 0 for none), pool id (1-byte length, ASCII), amount,
// before and after (8 bytes each, tiyn), the time (8 bytes, Unix
// milliseconds) and the previous hash (32 bytes); integers big-endian two's
// complement.
func JackpotBytes(e JackpotEntry) ([]byte, error) {
	prev, err := hex.DecodeString(e.PrevHash)
	if err != nil || len(prev) != sha256.Size || hex.EncodeToString(prev) != e.PrevHash {
		return nil, errs.E(errs.Invalid, "jackpot entry %d: prevHash %q is not 64 lower-case hex digits", e.Seq, e.PrevHash)
	}
	if len(e.Kind) > 255 || len(e.PoolID) > 255 {
		return nil, errs.E(errs.Invalid, "jackpot entry %d: kind or pool id too long", e.Seq)
	}
	b := make([]byte, 0, len(jackpotDomain)+8+1+len(e.Kind)+8+1+len(e.PoolID)+8*5+sha256.Size)
	b = append(b, jackpotDomain...)
	b = binary.BigEndian.AppendUint64(b, uint64(e.Seq))
	b = append(b, byte(len(e.Kind)))
	b = append(b, e.Kind...)
	b = binary.BigEndian.AppendUint64(b, uint64(e.DrawID))
	b = append(b, byte(len(e.PoolID)))
	b = append(b, e.PoolID...)
	for _, n := range []int64{int64(e.Amount), int64(e.Before), int64(e.After), e.At.UnixMilli()} {
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, prev...), nil
}

// JackpotHash is the hex SHA-256 of JackpotBytes(e).
func JackpotHash(e JackpotEntry) (string, error) {
	b, err := JackpotBytes(e)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// JackpotTime is t as an entry holds it: UTC, whole milliseconds.
func JackpotTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// ChainJackpot turns moves into the entries that follow head (nil: the
// chain is empty) at time at, given the ledger's jackpot balance after
// the moves were posted. An empty chain is opened first with an OPENING
// entry holding what the ledger held before the moves. It fails when the
// chain's balance and the ledger's disagree, so that no jackpot posting
// can go unrecorded.
func ChainJackpot(head *JackpotEntry, moves []JackpotMove, ledgerAfter money.Amount, at time.Time) ([]JackpotEntry, error) {
	at = JackpotTime(at)
	var net money.Amount
	for _, m := range moves {
		rule, ok := JackpotKinds[m.Kind]
		if !ok || m.Kind == JackpotOpening {
			return nil, errs.E(errs.Internal, "jackpot move of unknown kind %q", m.Kind)
		}
		if m.Amount <= 0 || rule.Pool != (m.DrawID != 0 && m.PoolID != "") {
			return nil, errs.E(errs.Internal, "jackpot move %s of %s (draw %d, pool %q) is malformed", m.Kind, m.Amount, m.DrawID, m.PoolID)
		}
		net += money.Amount(rule.Sign) * m.Amount
	}
	var out []JackpotEntry
	var prev JackpotEntry
	if head != nil {
		prev = *head
	} else {
		opening := ledgerAfter - net
		if opening < 0 {
			return nil, errs.E(errs.Internal, "the jackpot chain cannot open at %s", opening)
		}
		prev = JackpotEntry{Seq: 1, Kind: JackpotOpening, Amount: opening, After: opening, At: at, PrevHash: JackpotGenesis}
		var err error
		if prev.Hash, err = JackpotHash(prev); err != nil {
			return nil, err
		}
		out = append(out, prev)
	}
	for _, m := range moves {
		e := JackpotEntry{Seq: prev.Seq + 1, Kind: m.Kind, DrawID: m.DrawID, PoolID: m.PoolID, Amount: m.Amount,
			Before: prev.After, At: at, PrevHash: prev.Hash}
		e.After = e.Before + money.Amount(JackpotKinds[m.Kind].Sign)*m.Amount
		if e.After < 0 {
			return nil, errs.E(errs.Internal, "jackpot entry %d would leave the jackpot at %s", e.Seq, e.After)
		}
		var err error
		if e.Hash, err = JackpotHash(e); err != nil {
			return nil, err
		}
		out = append(out, e)
		prev = e
	}
	if prev.After != ledgerAfter {
		return nil, errs.E(errs.Internal,
			"the jackpot chain ends at %s, the ledger's jackpot holds %s", prev.After, ledgerAfter)
	}
	return out, nil
}

// DrawJackpotMoves is what settling a draw with result res does to the
// jackpot, in the order it is done: pool by pool in settlement order, for
// each the jackpot won, then the contribution, then the rollover. The
// settler records these and a verifier expects them in the chain.
func DrawJackpotMoves(res *DrawResult) []JackpotMove {
	var out []JackpotMove
	if res.Void {
		return nil
	}
	for _, p := range res.Pools {
		for _, m := range []JackpotMove{
			{Kind: JackpotWin, Amount: p.JackpotPaid},
			{Kind: JackpotContribution, Amount: p.JackpotContribution},
			{Kind: JackpotRollover, Amount: p.Rollover},
		} {
			if m.Amount > 0 {
				m.DrawID, m.PoolID = res.DrawID, p.PoolID
				out = append(out, m)
			}
		}
	}
	return out
}

// RecordJackpot appends moves, already posted to the ledger in tx, to the
// jackpot chain in tx at time at and returns the range they took. It
// reads (and locks) the ledger's jackpot balance, so every posting of the
// transaction must be made before it is called.
func RecordJackpot(ctx context.Context, tx Tx, moves []JackpotMove, at time.Time) (JackpotRange, error) {
	bal, err := tx.JackpotBalance(ctx)
	if err != nil {
		return JackpotRange{}, err
	}
	head, err := tx.JackpotHead(ctx)
	if err != nil {
		return JackpotRange{}, err
	}
	entries, err := ChainJackpot(head, moves, bal, at)
	if err != nil {
		return JackpotRange{}, err
	}
	var r JackpotRange
	if head != nil {
		r = JackpotRange{After: head.Seq, Last: head.Seq}
	}
	if len(entries) > 0 {
		if err := tx.AppendJackpot(ctx, entries); err != nil {
			return JackpotRange{}, err
		}
		if head == nil {
			r.After = 1 // the opening entry holds the balance before the moves
		}
		r.Last = entries[len(entries)-1].Seq
	}
	return r, nil
}

// JackpotChainQuery reads a page of the chain: up to Limit entries with
// seq > After in ascending order, or (Backward) those with seq < Before
// (0: the head) in descending order.
type JackpotChainQuery struct {
	After    int64
	Before   int64
	Backward bool
	Limit    int
}
