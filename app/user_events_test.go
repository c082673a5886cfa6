package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

const myEventsResume = `subscription($after: Int64) { myEvents(afterSeq: $after) {
  __typename seq
  ... on BalanceChanged { balance }
  ... on BetAccepted { bet { id } }
} }`

type userEvent struct {
	Typename string `json:"__typename"`
	Seq      int64
	Balance  string
	Bet      *struct{ ID string }
}

// TestMyEventsResume: a phone that was offline misses nothing. A player's
// events carry a seq counting 1, 2, ... per user; the client leaves after
// one, a deposit and a bet happen meanwhile, and a resubscription with
// afterSeq gets exactly the events after it, in order, then live ones,
// with no gap and no repeat, over graphql-transport-ws and SSE, on both
// backends. An afterSeq past the stream is INVALID_SEQ.
func TestMyEventsResume(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 3 })
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			tableID := createTable(t, admin, unique("resume"))
			p := newPlayer(t, c, "")
			deposit := func(amount string) {
				admin.MustDo(t, `mutation($u: ID!, $a: Money!, $k: String!) { deposit(input: {userId: $u, amount: $a, idempotencyKey: $k}) { balance } }`,
					map[string]any{"u": p.ID, "a": amount, "k": unique("dep")}, nil)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			next := func(ch <-chan gqltest.Response) userEvent {
				t.Helper()
				select {
				case r, ok := <-ch:
					if !ok || len(r.Errors) > 0 {
						t.Fatalf("stream ended or failed: %+v", r.Errors)
					}
					var out struct{ MyEvents userEvent }
					if err := json.Unmarshal(r.Data, &out); err != nil {
						t.Fatal(err)
					}
					return out.MyEvents
				case <-ctx.Done():
					t.Fatal("no event")
				}
				return userEvent{}
			}

			sock, err := p.Client.Socket(ctx, gqltest.SocketOptions{})
			if err != nil {
				t.Fatal(err)
			}
			live, err := sock.Start(ctx, myEventsResume, nil)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond) // the subscription is taken
			deposit("500.00")
			first := next(live)
			if first.Typename != "BalanceChanged" || first.Balance != "500.00" || first.Seq != 1 {
				t.Fatalf("first event %+v, want BalanceChanged 500.00 with seq 1", first)
			}
			sock.Close()

			// Offline: a deposit, then a bet (its acceptance and the balance).
			deposit("20.00")
			drawID, _ := openDraw(t, c, tableID)
			p.Client.MustDo(t, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`,
				map[string]any{"in": map[string]any{"drawId": drawID, "selection": map[string]any{"position": 2}, "stake": "100.00", "idempotencyKey": unique("bet")}}, nil)

			// until reads events with consecutive seqs from after+1 until
			// done says it has seen what it waits for.
			until := func(ch <-chan gqltest.Response, after int64, done func(e userEvent) bool) int64 {
				t.Helper()
				for {
					e := next(ch)
					if e.Seq != after+1 {
						t.Fatalf("event %+v after seq %d: a gap or a repeat", e, after)
					}
					after = e.Seq
					if done(e) {
						return after
					}
				}
			}
			sawOffline := func() func(e userEvent) bool {
				sawBet, sawDeposit := false, false
				return func(e userEvent) bool {
					sawBet = sawBet || (e.Typename == "BetAccepted" && e.Bet != nil && e.Bet.ID != "")
					sawDeposit = sawDeposit || (e.Typename == "BalanceChanged" && e.Balance == "520.00")
					return sawBet && sawDeposit
				}
			}
			sock2, err := p.Client.Socket(ctx, gqltest.SocketOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer sock2.Close()
			ch, err := sock2.Start(ctx, myEventsResume, map[string]any{"after": first.Seq})
			if err != nil {
				t.Fatal(err)
			}
			last := until(ch, first.Seq, sawOffline())
			// Then live, continuing the count (the bet may settle meanwhile).
			deposit("1.00")
			balance := p.balance(t)
			until(ch, last, func(e userEvent) bool { return e.Typename == "BalanceChanged" && e.Balance == balance })

			// SSE resumes the same way.
			st, err := p.Client.SSE(ctx, myEventsResume, map[string]any{"after": first.Seq}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			until(st.Next, first.Seq, sawOffline())

			// A seq past the stream is refused.
			bad, err := sock2.Start(ctx, myEventsResume, map[string]any{"after": 1000})
			if err != nil {
				t.Fatal(err)
			}
			if r := <-bad; len(r.Errors) == 0 || r.Errors[0].Reason() != "INVALID_SEQ" {
				t.Errorf("afterSeq 1000: %s %+v, want INVALID_SEQ", r.Data, r.Errors)
			}
		})
	}
}
