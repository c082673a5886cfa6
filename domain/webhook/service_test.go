package webhook_test

import (
	"context"
	"net/netip"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/domain/webhook/webhooktest"
)

func TestCreateChecksInput(t *testing.T) {
	src := &fakeSource{tables: map[int64][]webhook.Message{}}
	src.add(4, webhook.DrawSettled, base)
	store := webhooktest.NewMemStore()
	svc := webhook.NewService(store, src, nil)
	ctx := context.Background()
	good := []webhook.Type{webhook.DrawSettled}
	for _, c := range []struct {
		name   string
		in     webhook.NewEndpoint
		reason string
	}{
		{"plain http in production", webhook.NewEndpoint{URL: "http://partner.example/h", Types: good}, webhook.ReasonInvalidURL},
		{"relative", webhook.NewEndpoint{URL: "/hook", Types: good}, webhook.ReasonInvalidURL},
		{"credentials", webhook.NewEndpoint{URL: "https://u:p@partner.example/h", Types: good}, webhook.ReasonInvalidURL},
		{"no types", webhook.NewEndpoint{URL: "https://partner.example/h"}, webhook.ReasonInvalidTypes},
		{"unknown type", webhook.NewEndpoint{URL: "https://partner.example/h", Types: []webhook.Type{"bet.placed"}}, webhook.ReasonInvalidTypes},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := svc.Create(ctx, 1, c.in)
			errstest.Is(t, err, errs.Invalid, c.reason)
		})
	}
	e, err := svc.Create(ctx, 1, webhook.NewEndpoint{URL: " https://partner.example/h ", Types: []webhook.Type{webhook.DrawSettled, webhook.DrawSettled, webhook.TableChanged}})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Types) != 2 || len(e.Secret) < len(webhook.SecretPrefix)+40 || e.URL != "https://partner.example/h" {
		t.Errorf("created %+v", e)
	}
	cs, _ := store.Cursors(ctx, e.ID)
	if len(cs) != 1 || cs[0].TableID != 4 || cs[0].Seq != 1 {
		t.Errorf("a new endpoint starts at each table's head; cursors %v", cs)
	}
	if _, err := svc.Replay(ctx, 1, e.ID, "evt_4_x"); err == nil {
		t.Error("a malformed event id was taken")
	}
}

func TestEventIDRoundTrip(t *testing.T) {
	for _, id := range []string{"evt_1_0", "evt_12_345"} {
		tb, seq, err := webhook.ParseEventID(id)
		if err != nil || webhook.EventID(tb, seq) != id {
			t.Errorf("%s: %d %d %v", id, tb, seq, err)
		}
	}
	for _, id := range []string{"", "evt_", "evt_1", "evt_0_1", "evt_1_-1", "evt_01_2", "evt_1_2_3", "ev_1_2", "evt_+1_2"} {
		if _, _, err := webhook.ParseEventID(id); err == nil {
			t.Errorf("%q parsed", id)
		}
	}
}

func FuzzParseEventID(f *testing.F) {
	f.Add("evt_1_0")
	f.Add("evt_99_12")
	f.Fuzz(func(t *testing.T, id string) {
		tb, seq, err := webhook.ParseEventID(id)
		if err == nil && webhook.EventID(tb, seq) != id {
			t.Fatalf("%q parsed to %d %d", id, tb, seq)
		}
	})
}

func TestAddressAllowed(t *testing.T) {
	allow := []netip.Prefix{netip.MustParsePrefix("10.9.0.0/16")}
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:4700::1111": true,
		"127.0.0.1": false, "::1": false, "10.0.0.1": false, "10.9.3.4": true, "192.168.1.1": false, "172.16.0.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::": false, "fe80::1": false, "fc00::1": false,
		"::ffff:127.0.0.1": false, "224.0.0.1": false,
	} {
		if got := webhook.AddressAllowed(netip.MustParseAddr(addr), allow); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
}
