package app_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/webhook"
)

type feedRecord struct {
	Seq          int64
	Type         string
	Person       string
	DocumentHash string
	Game         *string
	HandID       *int64
	Stake        *string
	Payout       *string
	Refund       *string
	Amount       *string
	Protection   *struct {
		Kind      string
		LimitKind *string
		Amount    *string
		Exclusion *string
		Until     *time.Time
	}
}

// TestRegulatorFeedPushedAndReconciled: a player's deposit, a Casino
// Hold'em hand and a withdrawal reach the regulator's endpoint as signed
// regulator.* events, one per wallet movement, in order, identical to the
// regulatorFeed query; the day's reconciliation sums to the player's
// balance as the wallet shows it.
func TestRegulatorFeedPushedAndReconciled(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			_, c := startServer(t, b, fastWebhooks)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			rcv := newReceiver(t)
			var ep struct {
				CreateWebhookEndpoint struct{ Secret string }
			}
			admin.MustDo(t, `mutation($u: String!) { createWebhookEndpoint(input: {url: $u, eventTypes: [REGULATOR_BET_ACCEPTED, REGULATOR_BET_SETTLED, REGULATOR_DEPOSIT, REGULATOR_WITHDRAWAL, REGULATOR_PROTECTION_CHANGED], description: "регулятор"}) { secret } }`,
				map[string]any{"u": rcv.url()}, &ep)
			rcv.set(func(r *receiver) { r.secret = ep.CreateWebhookEndpoint.Secret; r.failNext = 2 })

			p := newPlayer(t, c, "1000.00")
			h := start(t, p, startInput([]boxIn{{ante: "100.00", bonus: "100.00"}}, "", "", unique("hand")))
			decide(t, p, h.ID, 1, "CALL", unique("call"))
			admin.MustDo(t, `mutation($u: ID!, $k: String!) { withdraw(input: {userId: $u, amount: "100.00", idempotencyKey: $k}) { balance } }`,
				map[string]any{"u": p.ID, "k": unique("wd")}, nil)
			balance := amount(t, p.balance(t)) // the time-out signs the player out
			p.Client.MustDo(t, `mutation { setLimit(input: {kind: DEPOSIT, period: DAY, amount: "5000.00"}) { amount } }`, nil, nil)
			p.Client.MustDo(t, `mutation { takeTimeOut(hours: 24) { kind } }`, nil, nil)

			// The feed: read until the withdrawal is in it.
			var feed struct{ RegulatorFeed []feedRecord }
			deadline := time.Now().Add(30 * time.Second)
			for {
				admin.MustDo(t, `{ regulatorFeed(afterSeq: 0, first: 1000) { seq type person documentHash game handId stake payout refund amount protection { kind limitKind amount exclusion until } } }`, nil, &feed)
				n := len(feed.RegulatorFeed)
				if n > 0 && feed.RegulatorFeed[n-1].Protection != nil && feed.RegulatorFeed[n-1].Protection.Kind == "EXCLUSION" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the feed never caught up: %+v", feed.RegulatorFeed)
				}
				time.Sleep(100 * time.Millisecond)
			}
			recs := feed.RegulatorFeed
			var types []string
			var want []string
			for i, r := range recs {
				if r.Seq != int64(i+1) {
					t.Fatalf("record %d has seq %d", i, r.Seq)
				}
				if r.Person != "p"+p.ID || r.DocumentHash == "" {
					t.Errorf("record %d names %q (document %q); want p%s with the approved document's hash", r.Seq, r.Person, r.DocumentHash, p.ID)
				}
				types = append(types, r.Type)
				want = append(want, webhook.EventID(webhook.FeedStream, r.Seq))
				if strings.HasPrefix(r.Type, "BET_") && (r.Game == nil || *r.Game != "HOLDEM" || r.HandID == nil || *r.HandID == 0) {
					t.Errorf("bet record %d does not name its hand: %+v", r.Seq, r)
				}
			}
			// deposit, ante and bonus, the call's bet, (the payout when the
			// hand paid), withdrawal, the limit, the time-out.
			n := len(types)
			if n < 6 || types[0] != "DEPOSIT" || types[1] != "BET_ACCEPTED" || types[2] != "BET_ACCEPTED" || types[n-3] != "WITHDRAWAL" ||
				types[n-2] != "PROTECTION_CHANGED" || types[n-1] != "PROTECTION_CHANGED" {
				t.Fatalf("the feed's types are %v", types)
			}
			if l, x := recs[n-2].Protection, recs[n-1].Protection; l.Kind != "LIMIT" || *l.LimitKind != "DEPOSIT" || *l.Amount != "5000.00" ||
				x.Kind != "EXCLUSION" || *x.Exclusion != "TIME_OUT" || x.Until == nil || x.Until.Before(time.Now().Add(23*time.Hour)) {
				t.Errorf("the protection records: %+v, %+v", *l, *x)
			}
			if *recs[1].Stake != "200.00" || *recs[2].Stake != "200.00" {
				t.Errorf("stakes %s and %s; want 200.00 (ante and bonus) and 200.00 (the bet)", *recs[1].Stake, *recs[2].Stake)
			}

			// Pushed: the same records, signed, in order.
			rcv.waitFor(t, want, 30*time.Second)
			got := rcv.received()
			checkOrder(t, got)
			var first []string
			for _, g := range got {
				if !slices.Contains(first, g.ID) {
					first = append(first, g.ID)
				}
				var r struct {
					Seq    int64  `json:"seq"`
					Type   string `json:"type"`
					Person string `json:"person"`
				}
				if err := json.Unmarshal(g.Data, &r); err != nil || webhook.EventID(webhook.FeedStream, r.Seq) != g.ID || r.Person != "p"+p.ID || g.Type != r.Type {
					t.Errorf("delivery %s (%s): %s", g.ID, g.Type, g.Data)
				}
			}
			if !slices.Equal(first, want) {
				t.Errorf("deliveries %v; want %v", first, want)
			}
			rcv.mu.Lock()
			if len(rcv.bad) > 0 {
				t.Errorf("deliveries whose signature did not verify: %v", rcv.bad)
			}
			rcv.mu.Unlock()

			// The reconciliation of the days around now adds up to the
			// player's wallet.
			almaty := time.FixedZone("Almaty", 5*3600)
			now := time.Now().In(almaty)
			var rec struct {
				RegulatorReconciliation []struct {
					Day    string
					Item   string
					Game   *string
					Count  int64
					Amount string
				}
			}
			admin.MustDo(t, `query($f: Date!, $t: Date!) { regulatorReconciliation(from: $f, to: $t) { day item game count amount } }`,
				map[string]any{"f": now.AddDate(0, 0, -1).Format(time.DateOnly), "t": now.AddDate(0, 0, 1).Format(time.DateOnly)}, &rec)
			if len(rec.RegulatorReconciliation) != 3*9 {
				t.Fatalf("%d lines for 3 days; want 9 a day", len(rec.RegulatorReconciliation))
			}
			var net money.Amount
			var count int64
			for _, l := range rec.RegulatorReconciliation {
				a := amount(t, l.Amount)
				count += l.Count
				switch l.Item {
				case "DEPOSIT", "PAYOUT", "REFUND":
					net += a
				case "PROTECTION_CHANGE":
					if a != 0 {
						t.Errorf("protection changes sum to %s", a)
					}
				default:
					net -= a
				}
			}
			if count != int64(len(recs)) {
				t.Errorf("the reconciliation counts %d records; the feed has %d", count, len(recs))
			}
			if balance != net {
				t.Errorf("the reconciliation nets %s; the wallet holds %s", net, balance)
			}
			admin.MustFail(t, "BAD_USER_INPUT", "INVALID_DATE_RANGE", `{ regulatorReconciliation(from: "2026-12-05", to: "2026-12-01") { day } }`, nil)
			admin.MustFail(t, "BAD_USER_INPUT", "INVALID_DATE_RANGE", `{ regulatorReconciliation(from: "2025-01-01", to: "2026-12-01") { day } }`, nil)
			other := newPlayer(t, c, "")
			other.Client.MustFail(t, "FORBIDDEN", "ROLE_REQUIRED", `{ regulatorFeed { seq } }`, nil)
		})
	}
}
