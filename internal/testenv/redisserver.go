package testenv

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisServer is a redis-server process of the test's own, on a free port
// of 127.0.0.1, which the test may stop and start again (an outage) without
// touching the shared Redis.
type RedisServer struct {
	t    testing.TB
	port int
	cmd  *exec.Cmd
}

// StartRedisServer starts a redis-server (no persistence) until the test
// ends; without the binary the test fails (or is skipped under
// POKERTOTE_SKIP_MISSING_SERVICES=1).
func StartRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		unavailable(t, "redis-server", "install Redis (apt-get install -y redis-server)", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	s := &RedisServer{t: t, port: port}
	s.Start()
	t.Cleanup(s.Stop)
	return s
}

// URL is the server's redis:// address.
func (s *RedisServer) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// Start runs the server (again) and waits until it answers.
func (s *RedisServer) Start() {
	s.t.Helper()
	s.cmd = exec.Command("redis-server", "--port", fmt.Sprint(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no")
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", s.port)})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on port %d does not answer: %v", s.port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (as a crash would) and waits for it to exit.
func (s *RedisServer) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}
