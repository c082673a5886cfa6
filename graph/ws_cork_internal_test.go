package graph

import (
	"net"
	"testing"
)

// writesConn records each write that reaches the connection.
type writesConn struct {
	net.Conn
	writes []string
}

func (c *writesConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, string(p))
	return len(p), nil
}

// TestCorkConnHoldsWritesUntilTheLastUncork: corked writes reach the
// connection as one write when the last (nested) cork ends, in order;
// uncorked writes go straight through.
func TestCorkConnHoldsWritesUntilTheLastUncork(t *testing.T) {
	w := &writesConn{}
	c := &corkConn{Conn: w}
	if _, err := c.Write([]byte("a")); err != nil {
		t.Fatal(err)
	}
	c.Cork()
	c.Cork() // a second subscription of the connection
	for _, s := range []string{"b", "cd", "e"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("corked write of %q: %d, %v", s, n, err)
		}
	}
	if err := c.Uncork(); err != nil {
		t.Fatal(err)
	}
	if len(w.writes) != 1 {
		t.Fatalf("writes %q before the last uncork, want only the uncorked one", w.writes)
	}
	if err := c.Uncork(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("f")); err != nil {
		t.Fatal(err)
	}
	c.Cork()
	if err := c.Uncork(); err != nil { // nothing held: nothing written
		t.Fatal(err)
	}
	want := []string{"a", "bcde", "f"}
	if len(w.writes) != len(want) {
		t.Fatalf("writes %q, want %q", w.writes, want)
	}
	for i := range want {
		if w.writes[i] != want[i] {
			t.Fatalf("writes %q, want %q", w.writes, want)
		}
	}
}
