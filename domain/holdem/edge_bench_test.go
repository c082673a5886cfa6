package holdem

import (
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

func BenchmarkEvaluateFlop(b *testing.B) {
	b.ReportAllocs()
	flop := [3]cards.Card(cards.MustParseList("Kh 8d 3c"))
	for b.Loop() {
		EvaluateFlop(DefaultAntePaytable(), flop)
	}
}

func BenchmarkBoardCount(b *testing.B) {
	b.ReportAllocs()
	board := [5]cards.Card(cards.MustParseList("Kh 8d 3c 9s 2h"))
	used := cards.SetOf(board[:3]...)
	var rest []cards.Card
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !used.Has(c) {
			rest = append(rest, c)
		}
	}
	var k flopKernel
	odds := oddsTable(DefaultAntePaytable())
	k.deal(board, rest, &odds)
	for b.Loop() {
		k.board()
	}
}
