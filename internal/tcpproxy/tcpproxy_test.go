package tcpproxy

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// echoServer answers every chunk it reads with the same bytes.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(c, c); _ = c.Close() }()
		}
	}()
	return ln.Addr().String()
}

func roundTrip(c net.Conn, msg string, wait time.Duration) (string, error) {
	if _, err := c.Write([]byte(msg)); err != nil {
		return "", err
	}
	_ = c.SetReadDeadline(time.Now().Add(wait))
	buf := make([]byte, len(msg))
	_, err := io.ReadFull(c, buf)
	return string(buf), err
}

// TestBlackhole: bytes are dropped both ways without a reset, new
// connections are held unanswered, and Restore forwards again.
func TestBlackhole(t *testing.T) {
	p, err := Start("127.0.0.1:0", echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := roundTrip(c, "one", 5*time.Second); err != nil || got != "one" {
		t.Fatalf("before: %q %v", got, err)
	}
	p.Blackhole()
	var ne net.Error
	if _, err := roundTrip(c, "two", 200*time.Millisecond); err == nil || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("black-holed: %v, want a timeout (no answer, no reset)", err)
	}
	p.Restore()
	fresh, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got, err := roundTrip(fresh, "three", 5*time.Second); err != nil || got != "three" {
		t.Fatalf("after Restore: %q %v", got, err)
	}
}

// TestCutAfterReply: the matched message and its answer pass, then every
// connection is closed.
func TestCutAfterReply(t *testing.T) {
	p, err := Start("127.0.0.1:0", echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p.CutAfterReply(func(_ int64, b []byte) bool { return bytes.Contains(b, []byte("COMMIT")) },
		func(b []byte) bool { return bytes.Contains(b, []byte("COMMIT")) })
	if got, err := roundTrip(c, "INSERT", 5*time.Second); err != nil || got != "INSERT" {
		t.Fatalf("before the trigger: %q %v", got, err)
	}
	if got, err := roundTrip(c, "COMMIT", 5*time.Second); err != nil || got != "COMMIT" {
		t.Fatalf("the matched message's answer: %q %v", got, err)
	}
	if _, err := roundTrip(c, "SELECT", 5*time.Second); err == nil {
		t.Fatal("the connection still answers after the cut")
	}
}
