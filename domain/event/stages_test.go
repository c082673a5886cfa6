package event_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/event"
)

func TestStageLogRecordsEachEventsPassage(t *testing.T) {
	l := event.NewStageLog()
	at := time.Unix(100, 0)
	l.Begin(1, 7, at, at.Add(time.Millisecond))
	l.Begin(2, 7, at, at.Add(2*time.Millisecond)) // another table, same seq
	l.Mark(1, 7, event.StageFolded, at.Add(3*time.Millisecond))
	l.Mark(1, 7, event.StageFolded, at.Add(9*time.Millisecond)) // the first mark stands
	for _, ms := range []int{8, 5, 12} {
		l.Mark(1, 7, event.StageFirstWrite, at.Add(time.Duration(ms)*time.Millisecond))
	}
	l.Mark(1, 8, event.StageFolded, at) // never begun: ignored
	var nilLog *event.StageLog
	nilLog.Mark(1, 7, event.StageFolded, at) // a nil log records nothing

	recs := map[int64]event.StageRecord{}
	for _, r := range l.Records() {
		recs[r.Table] = r
	}
	if len(recs) != 2 {
		t.Fatalf("records of tables %v, want tables 1 and 2", recs)
	}
	r := recs[1]
	ms := func(st string) int64 { return (r.At[st] - at.UnixNano()) / int64(time.Millisecond) }
	if r.Seq != 7 || ms("published") != 1 || ms("folded") != 3 || ms("first_write") != 5 || ms("last_write") != 12 || r.Writes != 3 {
		t.Errorf("table 1: seq %d, published %d, folded %d, writes %d from %d to %d ms", r.Seq, ms("published"), ms("folded"), r.Writes, ms("first_write"), ms("last_write"))
	}
	if r.At["received"] != 0 {
		t.Errorf("received %d, want 0 (not passed)", r.At["received"])
	}
	if got := recs[2].At["published"] - at.UnixNano(); got != int64(2*time.Millisecond) {
		t.Errorf("table 2 published %d ns after at, want 2 ms", got)
	}
}
