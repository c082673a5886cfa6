package odds

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// Chance is an exact probability: a selection is paid on Paid of Of equally
// likely outcomes (boards, or deals of flop, turn and river).
type Chance struct {
	Paid int64 `json:"paid"`
	Of   int64 `json:"of"`
}

// AtLeast reports whether the chance is at least bp basis points (9000 is
// 90 %), exactly, in integers.
func (c Chance) AtLeast(bp int64) bool { return c.Of > 0 && c.Paid*10_000 >= bp*c.Of }

// Float is the chance for display.
func (c Chance) Float() float64 { return ratio(c.Paid, c.Of) }

// Express holds, for every EXPRESS coupon of a dealt table, how many deals
// of the flop, the turn and the river (in that order, from the unseen
// cards) bring it to category 2 or better: at least two of its three
// predictions guessed (the flop leader, the turn leader, the river winner;
// a tie makes several leaders and naming any of them counts).
type Express struct {
	// Deals is how many ordered deals were enumerated: C(u,3)·(u−3)·(u−4)
	// for u unseen cards.
	Deals int64
	n     int
	// ft[a][b]: deals where a leads the flop and b the turn; fr, tr
	// likewise for flop/river and turn/river; ftr all three.
	ft, fr, tr [MaxPositions][MaxPositions]int64
	ftr        [MaxPositions][MaxPositions][MaxPositions]int64
}

// Positions is the table size the tally is for.
func (x *Express) Positions() int { return x.n }

// Paid is the chance that the coupon (flop leader f, turn leader t, river
// winner r; indexes into the pockets, 0-based) guesses at least two of
// three: |FT| + |FR| + |TR| − 2·|FTR| by inclusion and exclusion.
func (x *Express) Paid(f, t, r int) Chance {
	return Chance{Paid: x.ft[f][t] + x.fr[f][r] + x.tr[t][r] - 2*x.ftr[f][t][r], Of: x.Deals}
}

// ComputeExpress enumerates every deal of flop, turn and river from the
// cards not in the pockets (the pocket round: the burns are unknown, so
// they are enumerated like any other card) and tallies every coupon; the
// boards are shared among workers goroutines (all cores when workers <= 0).
func ComputeExpress(pockets [][2]cards.Card, workers int) (*Express, error) {
	d, err := parseDeal(pockets, nil, 0)
	if err != nil {
		return nil, err
	}
	return expressOver(d.pockets, d.unseen, workers), nil
}

// expressOver is ComputeExpress over the given unseen cards (tests pass
// fewer, to compare with a brute force).
//
// A deal is a four-card set Q (the flop and the turn) split into its turn
// card t and the flop Q\t, then a river r outside Q. The turn's leaders
// depend on Q alone and the flop's on Q\t, so every coupon's counts follow
// from, per Q, the flop and turn leaders of its four splits and how many
// rivers each position wins with Q: one walk over the five-card boards
// (each scored once) adds its winners to its five four-card subsets.
func expressOver(ps []hand.Key, unseen []cards.Card, workers int) *Express {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	keys := make([]hand.Key, len(unseen))
	for i, c := range unseen {
		keys[i] = hand.KeyOf(c)
	}
	e := newEnumeratorOf(ps, keys)
	u, n := len(keys), len(ps)
	x := &Express{n: n}
	if u < 5 {
		return x
	}
	var cb combIndex
	for i := range u {
		cb[0][i], cb[1][i], cb[2][i], cb[3][i] = i, i*(i-1)/2, i*(i-1)*(i-2)/6, i*(i-1)*(i-2)*(i-3)/24
	}
	sets := boards(u, 4)
	last := int64(u - 5) // a board's lowest card index runs 0..u-5
	workers = min(workers, int(last)+1)
	wins := make([][]int32, workers) // per worker: wins[q*n+c], rivers c wins with set q
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func(tab []int32) {
		cache := new(outcomeCache)
		for i := next.Add(1) - 1; i <= last; i = next.Add(1) - 1 {
			e.riverWins(cache, &cb, tab, n, int(i))
		}
	}
	for w := range wins {
		wins[w] = make([]int32, sets*n)
		if workers == 1 { // on the calling goroutine
			work(wins[w])
			break
		}
		wg.Go(func() { work(wins[w]) })
	}
	wg.Wait()
	for _, o := range wins[1:] {
		for q, v := range o {
			wins[0][q] += v
		}
	}
	tab := wins[0]
	rivers := int64(u - 4)
	var win [MaxPositions]int64
	for i := 0; i < u; i++ {
		for j := i + 1; j < u; j++ {
			for k := j + 1; k < u; k++ {
				for l := k + 1; l < u; l++ {
					q := cb[0][i] + cb[1][j] + cb[2][k] + cb[3][l]
					for c := range n {
						win[c] = int64(tab[q*n+c])
					}
					qk := keys[i].Add(keys[j]).Add(keys[k]).Add(keys[l])
					lt := e.leaders(qk)
					flops := [4]hand.Key{
						keys[j].Add(keys[k]).Add(keys[l]), keys[i].Add(keys[k]).Add(keys[l]),
						keys[i].Add(keys[j]).Add(keys[l]), keys[i].Add(keys[j]).Add(keys[k]),
					}
					for _, fk := range flops { // the fourth card is the turn
						x.Deals += rivers
						lf := e.leaders(fk)
						for mf := lf; mf != 0; mf &= mf - 1 {
							a := trailing(mf)
							for c := range n {
								x.fr[a][c] += win[c]
							}
							for mt := lt; mt != 0; mt &= mt - 1 {
								b := trailing(mt)
								x.ft[a][b] += rivers
								for c := range n {
									x.ftr[a][b][c] += win[c]
								}
							}
						}
						for mt := lt; mt != 0; mt &= mt - 1 {
							b := trailing(mt)
							for c := range n {
								x.tr[b][c] += win[c]
							}
						}
					}
				}
			}
		}
	}
	return x
}

// combIndex holds C(i, 1..4): the combinatorial number of ascending
// indexes i<j<k<l is cb[0][i]+cb[1][j]+cb[2][k]+cb[3][l], a dense index of
// every four-card set.
type combIndex [4][cards.NumCards]int

// riverWins walks every board whose lowest unseen card is i and adds its
// winners to each of its five four-card subsets.
func (e *enumerator) riverWins(cache *outcomeCache, cb *combIndex, tab []int32, n, i int) {
	keys := e.keys
	u := len(keys)
	for j := i + 1; j < u; j++ {
		kj := keys[i].Add(keys[j])
		for k := j + 1; k < u; k++ {
			kk := kj.Add(keys[k])
			for l := k + 1; l < u; l++ {
				kl := kk.Add(keys[l])
				for m := l + 1; m < u; m++ {
					w := e.winnersCached(cache, kl.Add(keys[m]))
					qs := [5]int{
						cb[0][j] + cb[1][k] + cb[2][l] + cb[3][m],
						cb[0][i] + cb[1][k] + cb[2][l] + cb[3][m],
						cb[0][i] + cb[1][j] + cb[2][l] + cb[3][m],
						cb[0][i] + cb[1][j] + cb[2][k] + cb[3][m],
						cb[0][i] + cb[1][j] + cb[2][k] + cb[3][l],
					}
					for mw := w; mw != 0; mw &= mw - 1 {
						c := trailing(mw)
						for _, q := range qs {
							tab[q*n+c]++
						}
					}
				}
			}
		}
	}
}

// leaders is the set of positions whose best hand with the partial board
// k (3 or 4 cards) ranks highest.
func (e *enumerator) leaders(k hand.Key) uint16 {
	var best hand.Value
	var set uint16
	for i := range e.pockets { // an index loop: see walk
		v := hand.EvalKey(k.Add(e.pockets[i]))
		switch {
		case v > best:
			best, set = v, 1<<i
		case v == best:
			set |= 1 << i
		}
	}
	return set
}

// winnersCached is the set of positions holding the best hand on the
// complete board b, cached per rank pattern when b allows no flush (see
// score).
func (e *enumerator) winnersCached(cache *outcomeCache, b hand.Key) uint16 {
	i := e.cached(cache, b)
	if !b.ReachesAny(e.flushable) {
		return cache.tags[i].won
	}
	w, _ := e.withFlushes(&cache.vals[i], b)
	return w
}

func trailing(m uint16) int { return bits.TrailingZeros16(m) }

// ExpressCanReach reports whether any EXPRESS coupon of the dealt table
// might be paid with a chance of at least bp basis points, from a bound
// cheaper than ComputeExpress: a coupon guessing two of three predictions
// guesses, on average, at least one of them twice over, so its chance is
// at most (pFlop + pTurn + pRiver)/2, the chances of its three predictions
// alone. False means no coupon reaches bp (exactly: the bound is compared
// with a margin far above float rounding); true means ComputeExpress must
// decide. r is Compute's result for the pockets before the flop.
func ExpressCanReach(pockets [][2]cards.Card, r *Result, bp int64) (bool, error) {
	d, err := parseDeal(pockets, nil, 0)
	if err != nil {
		return false, err
	}
	if r == nil || len(r.Positions) != len(pockets) || r.Boards == 0 {
		return true, nil
	}
	return canReach(newEnumerator(d), r, bp), nil
}

// canReach is ExpressCanReach over e's unseen cards.
func canReach(e *enumerator, r *Result, bp int64) bool {
	keys := e.keys
	var flop, turn [MaxPositions]int64
	var flops, turns int64
	u := len(keys)
	for i := 0; i < u; i++ {
		for j := i + 1; j < u; j++ {
			for k := j + 1; k < u; k++ {
				fk := keys[i].Add(keys[j]).Add(keys[k])
				flops++
				for m := e.leaders(fk); m != 0; m &= m - 1 {
					flop[trailing(m)]++
				}
				for l := k + 1; l < u; l++ {
					turns++
					for m := e.leaders(fk.Add(keys[l])); m != 0; m &= m - 1 {
						turn[trailing(m)]++
					}
				}
			}
		}
	}
	var best [3]float64
	for i, p := range r.Positions {
		best[0] = max(best[0], ratio(flop[i], flops))
		best[1] = max(best[1], ratio(turn[i], turns))
		best[2] = max(best[2], ratio(p.Wins+p.Ties, p.Boards))
	}
	return best[0]+best[1]+best[2] >= 2*float64(bp)/10_000-1e-9
}
