package hand

import (
	"testing"
	"unsafe"

	"github.com/pokertote/pokertote/domain/cards"
)

// TestTableSize keeps the evaluator's memory within its 1 MB budget.
func TestTableSize(t *testing.T) {
	size := unsafe.Sizeof(tab) + unsafe.Sizeof(eval7Tables{}) + unsafe.Sizeof(disp7) + unsafe.Sizeof(disp56)
	if size > 1<<20 {
		t.Errorf("tables take %d bytes, more than 1 MB", size)
	}
	t.Logf("tables: %d KB", size>>10)
}

// TestBuildIsRepeatable rebuilds the tables and compares them with the ones
// built at init.
func TestBuildIsRepeatable(t *testing.T) {
	fresh, e := new(tables), new(eval7Tables)
	fresh.build(e)
	if *fresh != tab {
		t.Error("a second build differs from the first")
	}
	if e.keys != keys7 || e.hash != hash7 || e.suitRanks != suitRanks7 || e.flush != flush7 {
		t.Error("a second build of Eval7's tables differs from the first")
	}
}

// TestRankTableCoversEveryHand checks that every multiset of five to seven
// ranks has a slot of its own (build panics on a collision) holding a Value:
// 49,205 of seven ranks in hash7 after its displacements, 6,175 + 18,395 of
// five or six in rank56; and that the flush tables hold the 7,099 sets of
// five or more ranks.
func TestRankTableCoversEveryHand(t *testing.T) {
	for _, c := range []struct {
		name  string
		table []uint16
		want  int
	}{
		{"hash7 after the displacements", hash7[hash7Disp:], 49205},
		{"flush", tab.flush[:], 7099},
		{"rank56", tab.rank56[:], 6175 + 18395},
	} {
		used := 0
		for _, v := range c.table {
			if v != 0 {
				used++
			}
		}
		if used != c.want {
			t.Errorf("%d %s slots used, want %d", used, c.name, c.want)
		}
	}
}

// BenchmarkBuildTables measures the start-up cost of the tables.
func BenchmarkBuildTables(b *testing.B) {
	b.ReportAllocs()
	fresh, e := new(tables), new(eval7Tables)
	for i := 0; i < b.N; i++ {
		*fresh, *e = tables{}, eval7Tables{}
		fresh.build(e)
	}
}

// TestEval7FlushTables checks the tables of Eval7's flush path: flush7
// repeats the flush Values in the entries a rank mask reaches and is zero
// beyond them, and each card has its rank bit in exactly one row of
// suitRanks7, the one its suit's flag in Eval7's sum names.
func TestEval7FlushTables(t *testing.T) {
	for i, v := range flush7 {
		if want := Value(0); i < len(tab.flush) {
			want = Value(tab.flush[i])
			if v != want {
				t.Fatalf("flush7[%#x] = %d, want %d", i, v, want)
			}
		} else if v != 0 {
			t.Fatalf("flush7[%#x] = %d beyond the rank masks", i, v)
		}
	}
	for c := range 256 {
		rows := 0
		for k := range suitRanks7 {
			if v := suitRanks7[k][c]; v != 0 {
				rows++
				card := cards.Card(c)
				if !card.Valid() || k != 6*int(card.Suit())+5 || v != 1<<card.Rank() {
					t.Errorf("suitRanks7[%d][%d] = %#x", k, c, v)
				}
				if flags7>>k&1 != 1 {
					t.Errorf("row %d of suitRanks7 is not a flag of flags7", k)
				}
			}
		}
		if want := 0; cards.Card(c).Valid() {
			want = 1
			if rows != want {
				t.Errorf("card %d has its rank in %d rows", c, rows)
			}
		} else if rows != 0 {
			t.Errorf("invalid card %d has its rank in %d rows", c, rows)
		}
	}
}
