package cards_test

import (
	"crypto/sha256"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

func streetRands(tag string) [][32]byte {
	var out [][32]byte
	for i := range 4 {
		out = append(out, sha256.Sum256([]byte{tag[0], byte(i)}))
	}
	return out
}

func TestDealToteStreetsUsesEachCardOnce(t *testing.T) {
	for n := cards.MinPositions; n <= cards.MaxPositions; n++ {
		for k := range 20 {
			seed := cards.Seed(sha256.Sum256([]byte{byte(n), byte(k)}))
			d := cards.DealToteStreets(seed, n, streetRands(string(rune('a'+k))))
			var seen cards.Set
			all := append(append([]cards.Card{}, d.Burns[:]...), d.Flop[0], d.Flop[1], d.Flop[2], d.Turn, d.River)
			for _, p := range d.Pockets {
				all = append(all, p[0], p[1])
			}
			for _, c := range all {
				if !c.Valid() || seen.Has(c) {
					t.Fatalf("n=%d: card %s repeated in %+v", n, c, d)
				}
				seen = seen.With(c)
			}
		}
	}
}

// A street depends on its own randomness and the streets before it, never
// on a later street's: the pockets are fixed before the flop's beacon
// exists, and so on.
func TestStreetsAreIndependentOfLaterBeacons(t *testing.T) {
	seed := cards.Seed(sha256.Sum256([]byte("seed")))
	a, b := streetRands("a"), streetRands("b")
	full := cards.DealToteStreets(seed, 6, a)
	pocketsOnly := cards.DealToteStreets(seed, 6, a[:1])
	for p := range 6 {
		if full.Pockets[p] != pocketsOnly.Pockets[p] {
			t.Fatal("the pockets changed when later streets were dealt")
		}
	}
	mixed := cards.DealToteStreets(seed, 6, [][32]byte{a[0], a[1], b[2], b[3]})
	if mixed.Flop != full.Flop || mixed.Burns[0] != full.Burns[0] {
		t.Error("the flop depends on the turn's beacon")
	}
	if mixed.Turn == full.Turn && mixed.River == full.River {
		t.Error("the turn and river ignore their beacons")
	}
	otherSeed := cards.DealToteStreets(cards.Seed(sha256.Sum256([]byte("other"))), 6, a)
	if otherSeed.Pockets[0] == full.Pockets[0] && otherSeed.Flop == full.Flop {
		t.Error("the deal ignores the server seed")
	}
}

// TestStreetKnownAnswer pins the algorithm byte for byte (docs/fairness.md
// quotes this vector for implementers in other languages).
func TestStreetKnownAnswer(t *testing.T) {
	var seed cards.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	var rands [][32]byte
	for s := 1; s <= 4; s++ {
		var r [32]byte
		for i := range r {
			r[i] = byte(s * 16)
		}
		rands = append(rands, r)
	}
	d := cards.DealToteStreets(seed, 3, rands)
	got := cards.Format([]cards.Card{d.Pockets[0][0], d.Pockets[0][1], d.Pockets[1][0], d.Pockets[1][1], d.Pockets[2][0], d.Pockets[2][1]}) +
		" | " + cards.Format(d.Burns[:]) + " | " + cards.Format(d.Flop[:]) + " " + d.Turn.String() + " " + d.River.String()
	const want = "5c 4s 3s 5d Qd 7c | Qc Tc Js | 2h Jd 3c Ac 2d"
	if got != want {
		t.Errorf("known answer:\n got %s\nwant %s", got, want)
	}
}
