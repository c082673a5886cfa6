package redisbus_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startRedis runs a private redis-server (sentinel mode when conf is a
// sentinel configuration) on port until the test ends.
func startRedis(t *testing.T, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
}

func waitRedis(t *testing.T, port int) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port)})
	t.Cleanup(func() { c.Close() })
	for i := 0; ; i++ {
		if c.Ping(context.Background()).Err() == nil {
			return c
		}
		if i > 100 {
			t.Fatalf("redis on %d does not answer", port)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSentinelFailover runs a private Redis master, a replica and a
// Sentinel, and uses them through Open with REDIS_SENTINELS: the
// broker delivers, a manual failover (SENTINEL FAILOVER) promotes the
// replica, and with no reopening the same client writes to the new master
// and the broker's subscription, made again, delivers again.
func TestSentinelFailover(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if testenv.Required() {
			t.Fatalf("redis-server is not installed (%v): `sudo apt-get install -y redis-server`, or set %s=1 to skip", err, testenv.SkipEnv)
		}
		t.Skipf("redis-server is not installed (%v); skipping (%s=1)", err, testenv.SkipEnv)
	}
	dir := t.TempDir()
	master, replica, sentinel := freePort(t), freePort(t), freePort(t)
	common := []string{"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir}
	startRedis(t, bin, append([]string{"--port", strconv.Itoa(master)}, common...)...)
	waitRedis(t, master)
	startRedis(t, bin, append([]string{"--port", strconv.Itoa(replica), "--replicaof", "127.0.0.1", strconv.Itoa(master)}, common...)...)
	waitRedis(t, replica)
	conf := filepath.Join(dir, "sentinel.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, "port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor m 127.0.0.1 %d 1\nsentinel down-after-milliseconds m 1000\nsentinel failover-timeout m 5000\n", sentinel, dir, master), 0o600); err != nil {
		t.Fatal(err)
	}
	startRedis(t, bin, conf, "--sentinel")
	sc := waitRedis(t, sentinel)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The sentinel must know the replica before it can fail over to it.
	for {
		n, err := sc.Do(ctx, "SENTINEL", "REPLICAS", "m").Slice()
		if err == nil && len(n) > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the sentinel never saw the replica")
		}
		time.Sleep(100 * time.Millisecond)
	}
	rdb, err := redisbus.Open(redisbus.Options{Sentinels: []string{"127.0.0.1:" + strconv.Itoa(sentinel)}, MasterName: "m"})
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	hub := event.NewHub()
	b := redisbus.NewBroker(rdb, hub, "t:", nil)
	go b.Run(ctx)
	<-b.Ready()
	sub := hub.Subscribe("x", 100)
	defer sub.Close()
	deliver := func(what string) {
		t.Helper()
		for i := 0; ; i++ {
			_ = b.Publish(ctx, "x", []byte(what))
			select {
			case m := <-sub.C:
				if string(m) == what {
					return
				}
			case <-time.After(200 * time.Millisecond):
			}
			if ctx.Err() != nil {
				t.Fatalf("%q was never delivered", what)
			}
		}
	}
	deliver("before")
	// A replica the sentinel knows may not be promotable yet (its INFO not
	// refreshed since the link came up: NOGOODSLAVE): ask again until it is.
	for {
		err := sc.Do(ctx, "SENTINEL", "FAILOVER", "m").Err()
		if err == nil {
			break
		}
		if !strings.HasPrefix(err.Error(), "NOGOODSLAVE") || ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for {
		addr, err := sc.Do(ctx, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "m").StringSlice()
		if err == nil && len(addr) == 2 && addr[1] == strconv.Itoa(replica) {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the failover did not happen")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Writes go to the new master (the old one, now a replica, would
	// answer READONLY).
	for rdb.Set(ctx, "t:k", "v", time.Minute).Err() != nil {
		if ctx.Err() != nil {
			t.Fatal("no write succeeded after the failover")
		}
		time.Sleep(100 * time.Millisecond)
	}
	role, err := waitRedis(t, replica).Do(ctx, "ROLE").Slice()
	if err != nil || role[0] != "master" {
		t.Fatalf("the promoted replica's role is %v (%v)", role, err)
	}
	deliver("after")
}
