package app_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
)

// TestDealerFailoverAfterCrash kills the dealing replica with SIGKILL in the
// middle of a draw (round 3 open, bets already staked in rounds 1-3). The
// other replica, sharing Postgres and Redis, takes the table's lease when it
// expires, finishes the draw from its persisted state, and every bet is paid
// exactly once: balances are checked to the tiyn against the published
// result.
func TestDealerFailoverAfterCrash(t *testing.T) {
	testenv.SkipShort(t, "kills a dealing replica mid-draw and waits out its lease: minutes of real-time draws")
	b := backends(t)[1]
	bin := filepath.Join(t.TempDir(), "pokertote")
	build := exec.Command("go", "build", "-o", bin, "../cmd/server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build server: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	crashing := exec.Command(bin)
	crashing.Env = append(os.Environ(),
		"ADDR="+addr, "DATABASE_URL="+b.databaseURL, "REDIS_URL="+b.redisURL, "REDIS_PREFIX="+b.redisPrefix,
		"JWT_SECRET=test secret of at least thirty-two bytes!", "DOCUMENT_PEPPER=test pepper of at least thirty-two bytes!",
		"ADMIN_EMAIL="+testAdminEmail, "ADMIN_PASSWORD="+testAdminPassword,
		"DEMO_TABLES=false", "TIME_SCALE="+strconv.Itoa(toteScale), "LOG_LEVEL=warn")
	var logs bytes.Buffer
	crashing.Stdout, crashing.Stderr = &logs, &logs
	if err := crashing.Start(); err != nil {
		t.Fatal(err)
	}
	var killOnce sync.Once
	kill := func() { killOnce.Do(func() { _ = crashing.Process.Kill(); _ = crashing.Wait() }) }
	t.Cleanup(kill)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("crashed replica's log:\n%s", logs.String())
		}
	})
	waitHealthy(t, addr)

	first := gqltest.New(addr)
	tableID := createTable(t, signIn(t, first, testAdminEmail, testAdminPassword), unique("failover"))
	_, survivor := startServer(t, b, fastTote) // its dealer waits for the lease
	players := []player{newPlayer(t, survivor, "100000.00"), newPlayer(t, survivor, "100000.00")}
	events := watch(t, survivor, tableID)

	killedAt := ""
	drawID, seen := playDrawWith(t, nil, events, players, 120*time.Second, func(e tableEvent) {
		if killedAt == "" && e.Type == "ROUND_OPENED" && e.Round != nil && *e.Round == "FLOP" {
			kill()
			killedAt = e.DrawID
			t.Logf("killed the dealing replica with round 3 of draw %s open", e.DrawID)
		}
	})
	if killedAt != drawID {
		t.Fatalf("the replica was killed in draw %q, the settled draw is %s", killedAt, drawID)
	}
	checkStream(t, seen, drawID)
	checkSettlement(t, survivor, drawID, players, 100000*money.KZT)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func waitHealthy(t *testing.T, addr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get("http://" + addr + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server at %s did not become ready", addr)
}
