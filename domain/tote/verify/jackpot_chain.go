package verify

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
)

// JackpotAnchor is a chain entry's hash the checker holds from earlier (a
// head it recorded, a hash published elsewhere): a run that rewrote that
// entry, even with every later hash recomputed, does not match it.
type JackpotAnchor struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// JackpotRun is what a jackpot chain check takes: consecutive entries of
// the chain (jackpotChain), the results of the draws they name (each
// draw's resultJson), and the anchors the checker holds.
type JackpotRun struct {
	Entries []tote.JackpotEntry `json:"entries"`
	Results []tote.DrawResult   `json:"results"`
	Anchors []JackpotAnchor     `json:"anchors,omitempty"`
}

// JackpotChain checks a run of the jackpot chain (docs/fairness.md section
// 14) and returns every problem found (none: the run holds):
//   - the entries are consecutive (no seq missing or repeated), each one's
//     before is the previous one's after, its after is before plus or
//     minus its amount as its kind says, and its hash is JackpotHash over
//     its fields and the previous entry's hash;
//   - every anchor inside the run matches its entry;
//   - every result names entries inside the run; its jackpotBefore is the
//     balance after entry jackpotChain.after, its pools' jackpot wins,
//     contributions and rollovers are exactly its entries (kind, pool,
//     amount, in settlement order), each pool's jackpotBefore the balance
//     before it and its jackpotAfter the balance after its last entry;
//   - every entry naming a draw belongs to a result given.
//
// It checks the jackpot's link between draws only: each result's own
// figures are verify.Result's.
func JackpotChain(run JackpotRun) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	es := run.Entries
	if len(es) == 0 {
		return []string{"jackpot chain: no entries to check"}
	}
	first := es[0].Seq
	for i, e := range es {
		checkJackpotEntry(e, bad)
		if e.Seq != first+int64(i) {
			bad("jackpot entry %d: expected seq %d (an entry is missing or repeated)", e.Seq, first+int64(i))
			return problems // the positions below mean nothing past a gap
		}
		if i == 0 {
			continue
		}
		prev := es[i-1]
		if e.PrevHash != prev.Hash {
			bad("jackpot entry %d: prevHash %s is not entry %d's hash %s", e.Seq, e.PrevHash, prev.Seq, prev.Hash)
		}
		if e.Before != prev.After {
			bad("jackpot entry %d: before %s, entry %d left %s", e.Seq, e.Before, prev.Seq, prev.After)
		}
	}
	last := es[len(es)-1].Seq
	for _, a := range run.Anchors {
		if a.Seq < first || a.Seq > last {
			bad("jackpot anchor %d: outside the run %d..%d, so not checked", a.Seq, first, last)
			continue
		}
		if e := es[a.Seq-first]; e.Hash != a.Hash {
			bad("jackpot entry %d: hash %s, the anchor held says %s (rewritten)", a.Seq, e.Hash, a.Hash)
		}
	}
	// balanceAt is the jackpot after entry seq (first-1: before the run).
	balanceAt := func(seq int64) money.Amount {
		if seq == first-1 {
			return es[0].Before
		}
		return es[seq-first].After
	}
	claimed := map[int64]int64{} // seq -> draw whose result covers it
	for i := range run.Results {
		res := &run.Results[i]
		r := res.JackpotChain
		if r == nil {
			bad("draw %d: the result names no jackpot entries (settled before the chain)", res.DrawID)
			continue
		}
		if r.After < first-1 || r.Last < r.After || r.Last > last {
			bad("draw %d: jackpot entries %d..%d are not inside the run %d..%d", res.DrawID, r.After+1, r.Last, first, last)
			continue
		}
		if got := balanceAt(r.After); got != res.JackpotBefore {
			bad("draw %d: jackpotBefore %s, the chain holds %s after entry %d", res.DrawID, res.JackpotBefore, got, r.After)
		}
		moves := tote.DrawJackpotMoves(res)
		if int64(len(moves)) != r.Last-r.After {
			bad("draw %d: the result moves the jackpot %d times, the chain names %d entries", res.DrawID, len(moves), r.Last-r.After)
		}
		for j, m := range moves {
			seq := r.After + 1 + int64(j)
			if seq > r.Last {
				break
			}
			e := es[seq-first]
			if e.Kind != m.Kind || e.DrawID != m.DrawID || e.PoolID != m.PoolID || e.Amount != m.Amount {
				bad("draw %d: jackpot entry %d is %s %s (draw %d, pool %s), the result says %s %s (pool %s)",
					res.DrawID, seq, e.Kind, e.Amount, e.DrawID, e.PoolID, m.Kind, m.Amount, m.PoolID)
			}
		}
		for seq := r.After + 1; seq <= r.Last; seq++ {
			if d, ok := claimed[seq]; ok {
				bad("jackpot entry %d: named by the results of draws %d and %d", seq, d, res.DrawID)
			}
			claimed[seq] = res.DrawID
		}
		if got := balanceAt(r.Last); got != res.JackpotAfter {
			bad("draw %d: jackpotAfter %s, the chain holds %s after entry %d", res.DrawID, res.JackpotAfter, got, r.Last)
		}
		if !res.Void {
			bal := res.JackpotBefore
			for _, p := range res.Pools {
				if p.JackpotBefore != bal {
					bad("draw %d: pool %s settled against a jackpot of %s, the draw's moves before it leave %s", res.DrawID, p.PoolID, p.JackpotBefore, bal)
				}
				bal += p.JackpotContribution + p.Rollover - p.JackpotPaid
			}
		}
	}
	for _, e := range es {
		if e.DrawID != 0 {
			if d, ok := claimed[e.Seq]; !ok || d != e.DrawID {
				bad("jackpot entry %d: names draw %d, whose result was not given or does not name it", e.Seq, e.DrawID)
			}
		}
	}
	return problems
}

// checkJackpotEntry checks one entry on its own: a known kind, what the
// kind names, the arithmetic, the time's form and the hash.
func checkJackpotEntry(e tote.JackpotEntry, bad func(string, ...any)) {
	rule, ok := tote.JackpotKinds[e.Kind]
	if !ok {
		bad("jackpot entry %d: unknown kind %q", e.Seq, e.Kind)
		return
	}
	if rule.Pool != (e.DrawID != 0 && e.PoolID != "") || (!rule.Pool && (e.DrawID != 0 || e.PoolID != "")) {
		bad("jackpot entry %d: a %s entry with draw %d and pool %q", e.Seq, e.Kind, e.DrawID, e.PoolID)
	}
	switch {
	case e.Kind == tote.JackpotOpening:
		if e.Seq != 1 || e.Before != 0 || e.PrevHash != tote.JackpotGenesis {
			bad("jackpot entry %d: an OPENING entry only starts the chain (seq 1, before 0, prevHash of zeros)", e.Seq)
		}
	case e.Amount <= 0:
		bad("jackpot entry %d: amount %s is not positive", e.Seq, e.Amount)
	}
	if e.Seq == 1 && e.Kind != tote.JackpotOpening {
		bad("jackpot entry 1: the chain starts with OPENING, not %s", e.Kind)
	}
	if want := e.Before + money.Amount(rule.Sign)*e.Amount; e.After != want || e.After < 0 {
		bad("jackpot entry %d: after %s, %s of %s from %s leaves %s", e.Seq, e.After, e.Kind, e.Amount, e.Before, want)
	}
	if !e.At.Equal(tote.JackpotTime(e.At)) {
		bad("jackpot entry %d: time %s is not in whole milliseconds", e.Seq, e.At)
	}
	h, err := tote.JackpotHash(e)
	switch {
	case err != nil:
		bad("%v", err)
	case h != e.Hash:
		bad("jackpot entry %d: hash %s, its fields hash to %s", e.Seq, e.Hash, h)
	}
}
