package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/internal/clocktest"
)

var start = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// newTable stores a table in a fresh in-memory store.
func newTable(t *testing.T) (*totetest.MemStore, tote.Table) {
	t.Helper()
	s := totetest.NewMemStore(ledgertest.NewMemStore(nil))
	var tab tote.Table
	err := s.Within(context.Background(), func(ctx context.Context, tx tote.Tx) error {
		var err error
		tab, err = tx.InsertTable(ctx, tote.Table{Name: "T", Positions: 6, Status: tote.TableRunning, Settings: tote.DefaultTableSettings()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, tab
}

func TestAppendNumbersEvents(t *testing.T) {
	ctx := context.Background()
	s, tab := newTable(t)
	ev := func(typ tote.EventType) tote.TableEvent {
		return tote.TableEvent{TableID: tab.ID, Type: typ, At: start}
	}
	steps := []struct {
		name    string
		events  []tote.TableEvent
		fail    bool // the step's transaction fails after Append: nothing of it stays
		wantSeq []int64
	}{
		{"first step", []tote.TableEvent{ev(tote.EventDrawOpened), ev(tote.EventRoundOpened)}, false, []int64{1, 2}},
		{"empty step", nil, false, nil},
		{"rolled back", []tote.TableEvent{ev(tote.EventRoundClosed)}, true, []int64{3}},
		{"after the rollback, no gap", []tote.TableEvent{ev(tote.EventRoundClosed), ev(tote.EventCardsDealt), ev(tote.EventPoolUpdated)}, false, []int64{3, 4, 5}},
	}
	var committed []tote.EventType
	for _, st := range steps {
		step := outbox.Step{Events: slices.Clone(st.events)}
		err := s.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
			if err := outbox.Append(ctx, tx, &step); err != nil {
				return err
			}
			if st.fail {
				return errors.New("the step fails after appending")
			}
			return nil
		})
		if (err != nil) != st.fail {
			t.Fatalf("%s: %v", st.name, err)
		}
		var seqs []int64
		for i, e := range step.Events {
			seqs = append(seqs, e.Seq)
			if e.Type != st.events[i].Type || e.TableID != tab.ID {
				t.Errorf("%s: event %d came back as %+v", st.name, i, e)
			}
		}
		if !slices.Equal(seqs, st.wantSeq) {
			t.Errorf("%s: seqs %v, want %v", st.name, seqs, st.wantSeq)
		}
		if !st.fail {
			for _, e := range st.events {
				committed = append(committed, e.Type)
			}
		}
	}
	stored, err := s.EventsAfter(ctx, tab.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []tote.EventType
	for i, e := range stored {
		got = append(got, e.Type)
		if e.Seq != int64(i+1) {
			t.Errorf("stored event %d has seq %d", i, e.Seq)
		}
	}
	if !slices.Equal(got, committed) {
		t.Errorf("stored %v, committed %v", got, committed)
	}
}

func TestAppendFailsWholeStep(t *testing.T) {
	ctx := context.Background()
	s, tab := newTable(t)
	step := outbox.Step{Events: []tote.TableEvent{
		{TableID: tab.ID, Type: tote.EventDrawOpened, At: start},
		{TableID: tab.ID + 1000, Type: tote.EventRoundOpened, At: start}, // no such table
	}}
	err := s.Within(ctx, func(ctx context.Context, tx tote.Tx) error { return outbox.Append(ctx, tx, &step) })
	if errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("append to a missing table: %v, want NotFound", err)
	}
	if stored, err := s.EventsAfter(ctx, tab.ID, 0, 100); err != nil || len(stored) != 0 {
		t.Fatalf("a failed step left %d events (%v)", len(stored), err)
	}
}

// call is one publish as the publisher saw it: a batch or a single message.
type call struct {
	batch bool
	msgs  []event.Message
}

// recorder is a BatchPublisher that records its calls in order and fails
// the topics failing names.
type recorder struct {
	mu      sync.Mutex
	calls   []call
	failing func(topic string) bool
}

func (r *recorder) fails(topic string) bool { return r.failing != nil && r.failing(topic) }

func (r *recorder) Publish(_ context.Context, topic string, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call{msgs: []event.Message{{Topic: topic, Data: data}}})
	if r.fails(topic) {
		return errors.New("broker down")
	}
	return nil
}

func (r *recorder) PublishBatch(_ context.Context, msgs []event.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(msgs) == 0 {
		return nil // nothing reaches the broker
	}
	r.calls = append(r.calls, call{batch: true, msgs: slices.Clone(msgs)})
	for _, m := range msgs {
		if r.fails(m.Topic) {
			return errors.New("broker down")
		}
	}
	return nil
}

// owners is the BetOwners of a settled draw: bets per pool, in id order.
type owners struct {
	drawID int64
	pools  map[tote.PoolKey][]tote.BetOwner
	err    error
	reads  int
}

func (o *owners) PoolBetOwners(_ context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterID int64, limit int) ([]tote.BetOwner, error) {
	o.reads++
	if o.err != nil {
		return nil, o.err
	}
	var out []tote.BetOwner
	if drawID != o.drawID {
		return nil, nil
	}
	for _, b := range o.pools[tote.PoolKey{Round: round, Market: market}] {
		if b.BetID > afterID && len(out) < limit {
			out = append(out, b)
		}
	}
	return out, nil
}

// manyOwners is n bets of draw pool k, ids from first, players cycling
// over 1..7.
func manyOwners(first int64, n int) []tote.BetOwner {
	out := make([]tote.BetOwner, n)
	for i := range out {
		out[i] = tote.BetOwner{BetID: first + int64(i), UserID: ids.UserID(1 + i%7)}
	}
	return out
}

var (
	poolWin1   = tote.PoolKey{Round: parimutuel.RoundPreDeal, Market: parimutuel.MarketWin}
	poolCombo4 = tote.PoolKey{Round: parimutuel.RoundTurn, Market: parimutuel.MarketCombination}
)

// summary names each call: "batch table:3 ×2", "batch users ×2000",
// "user:7".
func summary(calls []call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		if !c.batch {
			out[i] = c.msgs[0].Topic
			continue
		}
		topic := c.msgs[0].Topic
		for _, m := range c.msgs {
			if m.Topic != topic {
				topic = "users"
			}
		}
		if topic != c.msgs[0].Topic || len(topic) > 5 && topic[:5] == "user:" {
			topic = "users"
		}
		out[i] = fmt.Sprintf("batch %s ×%d", topic, len(c.msgs))
	}
	return out
}

// stats is what a Stats counted: settled, voided, then voids by kind.
func stats(s *outbox.Stats) [7]int64 {
	return [7]int64{s.DrawsSettled.Load(), s.DrawsVoided.Load(), s.Voids[0].Load(), s.Voids[1].Load(), s.Voids[2].Load(), s.Voids[3].Load(), s.Voids[4].Load()}
}

type relayCase struct {
	name      string
	step      outbox.Step
	owners    *owners
	failing   func(topic string) bool
	wantCalls []string
	wantStats [7]int64
	// wantBets are the bets whose BET_SETTLED must go out, in order.
	wantBets  []int64
	wantReads int
}

func relayCases() []relayCase {
	const tableID, drawID = 3, 42
	settledAt := start.Add(time.Minute)
	ev := func(typ tote.EventType, seq int64) tote.TableEvent {
		return tote.TableEvent{Seq: seq, TableID: tableID, DrawID: drawID, Type: typ, At: settledAt}
	}
	voided := func(kind tote.VoidKind) tote.TableEvent {
		e := ev(tote.EventDrawVoided, 9)
		e.Result = &tote.DrawResult{Void: true, VoidDetail: &tote.VoidDetail{Kind: kind, At: settledAt}}
		return e
	}
	note := func(u int64) outbox.Note {
		return outbox.Note{UserID: ids.UserID(u), Event: event.UserEvent{Type: event.BalanceChanged, At: settledAt, Balance: u * 100}}
	}
	table := "table:3"
	cases := []relayCase{
		{name: "settled draw: table events as one batch, then notes",
			step:      outbox.Step{Events: []tote.TableEvent{ev(tote.EventPoolUpdated, 1), ev(tote.EventDrawSettled, 2)}, Notes: []outbox.Note{note(7), note(8)}},
			wantCalls: []string{"batch " + table + " ×2", "user:7", "user:8"}, wantStats: [7]int64{1, 0, 0, 0, 0, 0, 0}},
		{name: "voided without detail counts no kind",
			step:      outbox.Step{Events: []tote.TableEvent{ev(tote.EventDrawVoided, 1)}},
			wantCalls: []string{"batch " + table + " ×1"}, wantStats: [7]int64{0, 1, 0, 0, 0, 0, 0}},
		{name: "pause counts nothing",
			step:      outbox.Step{Events: []tote.TableEvent{ev(tote.EventTablePaused, 1)}},
			wantCalls: []string{"batch " + table + " ×1"}},
		{name: "notes only",
			step:      outbox.Step{Notes: []outbox.Note{note(8), note(7)}},
			wantCalls: []string{"user:8", "user:7"}},
		{name: "streamed settlement: every bet's BET_SETTLED in pages, pool by pool",
			step: outbox.Step{Events: []tote.TableEvent{ev(tote.EventDrawSettled, 5)}, Notes: []outbox.Note{note(1)}, Settled: drawID},
			owners: &owners{drawID: drawID, pools: map[tote.PoolKey][]tote.BetOwner{
				poolWin1: manyOwners(1, 2001), poolCombo4: manyOwners(5000, 3)}},
			wantCalls: []string{"batch " + table + " ×1", "batch users ×2000", "batch users ×1", "batch users ×3", "user:1"},
			wantStats: [7]int64{1, 0, 0, 0, 0, 0, 0},
			wantBets:  append(ownerIDs(manyOwners(1, 2001)), 5000, 5001, 5002),
			wantReads: len(tote.DrawPools()) + 1},
		{name: "streamed settlement with the bets it read: the same pages, nothing read back",
			step: outbox.Step{Events: []tote.TableEvent{ev(tote.EventDrawSettled, 5)}, Notes: []outbox.Note{note(1)}, Settled: drawID,
				SettledBets: append(manyOwners(1, 2001), manyOwners(5000, 3)...)},
			owners:    &owners{drawID: drawID, err: errors.New("must not be read")},
			wantCalls: []string{"batch " + table + " ×1", "batch users ×2000", "batch users ×4", "user:1"},
			wantStats: [7]int64{1, 0, 0, 0, 0, 0, 0},
			wantBets:  append(ownerIDs(manyOwners(1, 2001)), 5000, 5001, 5002)},
		{name: "a failed table publish still sends the notes",
			step:      outbox.Step{Events: []tote.TableEvent{ev(tote.EventDrawSettled, 1)}, Notes: []outbox.Note{note(7), note(8)}},
			failing:   func(topic string) bool { return topic == table || topic == "user:7" },
			wantCalls: []string{"batch " + table + " ×1", "user:7", "user:8"}, wantStats: [7]int64{1, 0, 0, 0, 0, 0, 0}},
		{name: "unreadable bets still send the notes",
			step:      outbox.Step{Events: []tote.TableEvent{ev(tote.EventDrawSettled, 1)}, Notes: []outbox.Note{note(1)}, Settled: drawID},
			owners:    &owners{drawID: drawID, err: errors.New("store down")},
			wantCalls: []string{"batch " + table + " ×1", "user:1"}, wantStats: [7]int64{1, 0, 0, 0, 0, 0, 0}, wantReads: 1},
	}
	for i, k := range tote.VoidKinds {
		want := [7]int64{0, 1, 0, 0, 0, 0, 0}
		want[2+i] = 1
		cases = append(cases, relayCase{name: "voided " + string(k),
			step:      outbox.Step{Events: []tote.TableEvent{ev(tote.EventRoundClosed, 8), voided(k)}},
			wantCalls: []string{"batch " + table + " ×2"}, wantStats: want})
	}
	return cases
}

func ownerIDs(os []tote.BetOwner) []int64 {
	out := make([]int64, len(os))
	for i, o := range os {
		out[i] = o.BetID
	}
	return out
}

func TestRelayPublish(t *testing.T) {
	for _, tc := range relayCases() {
		t.Run(tc.name, func(t *testing.T) {
			pub := &recorder{failing: tc.failing}
			st := &outbox.Stats{}
			own := tc.owners
			if own == nil {
				own = &owners{}
			}
			outbox.NewRelay(own, pub, clocktest.New(start), nil, st).Publish(context.Background(), tc.step)
			if got := summary(pub.calls); !slices.Equal(got, tc.wantCalls) {
				t.Errorf("calls\n got %q\nwant %q", got, tc.wantCalls)
			}
			if got := stats(st); got != tc.wantStats {
				t.Errorf("stats %v, want %v", got, tc.wantStats)
			}
			if own.reads != tc.wantReads {
				t.Errorf("%d reads of the bets, want %d", own.reads, tc.wantReads)
			}
			checkPublished(t, pub.calls, tc.step, tc.wantBets)
		})
	}
}

// checkPublished checks what the messages carry: the table events as
// given, each bet's BET_SETTLED once at the settlement's time, the notes.
func checkPublished(t *testing.T, calls []call, st outbox.Step, wantBets []int64) {
	t.Helper()
	var tableSeqs, bets []int64
	var notes []event.UserEvent
	for _, c := range calls {
		for _, m := range c.msgs {
			if len(m.Topic) > 6 && m.Topic[:6] == "table:" {
				e, err := tote.DecodeTableEvent(m.Data)
				if err != nil {
					t.Fatal(err)
				}
				tableSeqs = append(tableSeqs, e.Seq)
				continue
			}
			e, err := event.DecodeUserEvent(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			if e.Type != event.BetSettled {
				notes = append(notes, e)
				continue
			}
			if at := st.Events[len(st.Events)-1].At; !e.At.Equal(at) {
				t.Errorf("BET_SETTLED of bet %d at %v, the draw settled at %v", e.BetID, e.At, at)
			}
			bets = append(bets, e.BetID)
		}
	}
	var wantSeqs []int64
	for _, e := range st.Events {
		wantSeqs = append(wantSeqs, e.Seq)
	}
	if !slices.Equal(tableSeqs, wantSeqs) {
		t.Errorf("table events published %v, the step holds %v", tableSeqs, wantSeqs)
	}
	if !slices.Equal(bets, wantBets) {
		t.Errorf("BET_SETTLED for %d bets, want %d", len(bets), len(wantBets))
	}
	if len(notes) != len(st.Notes) {
		t.Fatalf("%d notes published, the step holds %d", len(notes), len(st.Notes))
	}
	for i, n := range st.Notes {
		if notes[i] != n.Event {
			t.Errorf("note %d published as %+v, want %+v", i, notes[i], n.Event)
		}
	}
}

// PublishTable, as the dealer's and the service's callers use it without a
// step: nothing for no events; otherwise one batch of the table events in
// order, the settled and voided draws counted (a void by its kind), and a
// failing broker only logged.
func TestRelayPublishTable(t *testing.T) {
	pub := &recorder{}
	st := &outbox.Stats{}
	r := outbox.NewRelay(&owners{}, pub, clocktest.New(start), nil, st)
	r.PublishTable(context.Background(), nil)
	if len(pub.calls) != 0 {
		t.Fatalf("no events published %d calls", len(pub.calls))
	}
	void := &tote.DrawResult{Void: true, VoidDetail: &tote.VoidDetail{Kind: tote.VoidBeaconMissing}}
	evs := []tote.TableEvent{
		{TableID: 3, Seq: 7, Type: tote.EventDrawSettled, At: start},
		{TableID: 3, Seq: 8, Type: tote.EventDrawOpened, At: start},
		{TableID: 3, Seq: 9, Type: tote.EventDrawVoided, At: start, Result: void},
	}
	r.PublishTable(context.Background(), evs)
	if len(pub.calls) != 1 || !pub.calls[0].batch || len(pub.calls[0].msgs) != 3 {
		t.Fatalf("calls %+v, want one batch of 3", summary(pub.calls))
	}
	for i, m := range pub.calls[0].msgs {
		e, err := tote.DecodeTableEvent(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		if m.Topic != "table:3" || e.Seq != evs[i].Seq || e.Type != evs[i].Type {
			t.Errorf("message %d on %s is %s seq %d, want %s seq %d", i, m.Topic, e.Type, e.Seq, evs[i].Type, evs[i].Seq)
		}
	}
	want := [7]int64{1, 1}
	want[2+slices.Index(tote.VoidKinds, tote.VoidBeaconMissing)] = 1
	if got := stats(st); got != want {
		t.Errorf("stats %v, want %v", got, want)
	}

	failing := &recorder{failing: func(string) bool { return true }}
	outbox.NewRelay(&owners{}, failing, clocktest.New(start), nil, &outbox.Stats{}).PublishTable(context.Background(), evs[1:2])
	if len(failing.calls) != 1 {
		t.Errorf("a failing broker got %d calls, want the one attempt", len(failing.calls))
	}
}
