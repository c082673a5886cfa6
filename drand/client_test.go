package drand_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/drand"
)

type recording struct {
	Info   map[string]any `json:"info"`
	Rounds []struct {
		Round      uint64 `json:"round"`
		Randomness string `json:"randomness"`
		Signature  string `json:"signature"`
	} `json:"rounds"`
}

// relay serves the recorded quicknet responses as a drand relay does;
// edit may rewrite a round's answer.
func relay(t *testing.T, edit func(round map[string]any)) *httptest.Server {
	t.Helper()
	b, err := os.ReadFile("testdata/quicknet.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec recording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	prefix := "/" + beacon.Quicknet.Hash
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == prefix+"/info":
			_ = json.NewEncoder(w).Encode(rec.Info)
			return
		case strings.HasPrefix(r.URL.Path, prefix+"/public/"):
			n, _ := strconv.ParseUint(strings.TrimPrefix(r.URL.Path, prefix+"/public/"), 10, 64)
			for _, rd := range rec.Rounds {
				if rd.Round == n {
					sig, _ := hex.DecodeString(rd.Signature)
					rnd := beacon.Randomness(sig)
					out := map[string]any{"round": rd.Round, "signature": rd.Signature, "randomness": hex.EncodeToString(rnd[:])}
					if edit != nil {
						edit(out)
					}
					_ = json.NewEncoder(w).Encode(out)
					return
				}
			}
		}
		http.Error(w, "not found", http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRecordedRoundsVerify(t *testing.T) {
	c := drand.New(relay(t, nil).URL, beacon.Quicknet, nil)
	ctx := context.Background()
	if err := c.CheckInfo(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range []uint64{32281667, 32285085, 32285086} {
		b, err := c.Beacon(ctx, r)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if _, err := beacon.Verify(c.Chain(), b); err != nil {
			t.Errorf("round %d: %v", r, err)
		}
	}
	if _, err := c.Beacon(ctx, 99_999_999); errs.ReasonOf(err) != beacon.ReasonNotPublished {
		t.Errorf("a round the relay does not have: %v", err)
	}
}

func TestLyingRelay(t *testing.T) {
	ctx := context.Background()
	t.Run("flipped signature", func(t *testing.T) {
		c := drand.New(relay(t, func(r map[string]any) {
			sig := []byte(r["signature"].(string))
			sig[10] ^= 1 // one hex digit changes: 4 bits of the point
			r["signature"] = string(sig)
			delete(r, "randomness")
		}).URL, beacon.Quicknet, nil)
		b, err := c.Beacon(ctx, 32285085)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := beacon.Verify(c.Chain(), b); errs.ReasonOf(err) != "BEACON_INVALID" {
			t.Errorf("a tampered round verified: %v", err)
		}
	})
	t.Run("another round", func(t *testing.T) {
		c := drand.New(relay(t, func(r map[string]any) { r["round"] = 1 }).URL, beacon.Quicknet, nil)
		if _, err := c.Beacon(ctx, 32285085); errs.ReasonOf(err) != beacon.ReasonNotPublished {
			t.Errorf("an answer for another round was taken: %v", err)
		}
	})
	t.Run("randomness not of the signature", func(t *testing.T) {
		c := drand.New(relay(t, func(r map[string]any) { r["randomness"] = strings.Repeat("00", 32) }).URL, beacon.Quicknet, nil)
		if _, err := c.Beacon(ctx, 32285085); errs.ReasonOf(err) != beacon.ReasonNotPublished {
			t.Errorf("inconsistent randomness was taken: %v", err)
		}
	})
	t.Run("another chain", func(t *testing.T) {
		l, _ := beacon.NewLocal([]byte("0123456789abcdef0123456789abcdef"), 3e9, nil)
		other := beacon.Quicknet
		other.PublicKey = l.Chain().PublicKey
		if err := drand.New(relay(t, nil).URL, other, nil).CheckInfo(ctx); err == nil {
			t.Error("a relay serving another key passed CheckInfo")
		}
	})
	t.Run("relay down", func(t *testing.T) {
		srv := relay(t, nil)
		srv.Close()
		if _, err := drand.New(srv.URL, beacon.Quicknet, nil).Beacon(ctx, 32285085); errs.ReasonOf(err) != beacon.ReasonNotPublished {
			t.Errorf("relay down: %v", err)
		}
	})
}

// TestRelaysAskInTurn: a round is asked of each relay until one serves
// it, so one relay down delays nothing; when none has it the error names
// what each said (a beacon-missing void carries it).
func TestRelaysAskInTurn(t *testing.T) {
	ctx := context.Background()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "relay down", http.StatusBadGateway)
	}))
	t.Cleanup(down.Close)
	good := relay(t, nil)
	rs := drand.NewRelays([]string{down.URL, good.URL}, beacon.Quicknet)
	b, err := rs.Beacon(ctx, 32285085)
	if err != nil {
		t.Fatalf("the second relay has the round: %v", err)
	}
	if _, err := beacon.Verify(beacon.Quicknet, b); err != nil {
		t.Fatal(err)
	}
	if err := rs.CheckInfo(ctx); err == nil || !strings.Contains(err.Error(), down.URL) {
		t.Errorf("CheckInfo with a relay down: %v", err)
	}
	_, err = drand.NewRelays([]string{down.URL, good.URL}, beacon.Quicknet).Beacon(ctx, 99_999_999)
	if errs.ReasonOf(err) != beacon.ReasonNotPublished || !strings.Contains(err.Error(), down.URL) || !strings.Contains(err.Error(), good.URL) {
		t.Errorf("no relay has the round: %v", err)
	}
}
