package wstransport

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"
)

// recConn records each write to the socket.
type recConn struct {
	net.Conn
	writes [][]byte
}

func (r *recConn) Write(p []byte) (int, error) {
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

// frame is a server frame (fin, opcode op, unmasked) carrying p.
func frame(op byte, p []byte) []byte {
	b := []byte{0x80 | op}
	switch {
	case len(p) > 0xffff:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(len(p)))
	case len(p) > 125:
		b = append(b, 126)
		b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
	default:
		b = append(b, byte(len(p)))
	}
	return append(b, p...)
}

// TestLeanConnWritesWholeFrames: frames written through the 16-byte buffer
// coder/websocket gets (header bytes one by one, then the payload) reach
// the socket whole, one write each, whatever their size; shared messages
// are framed alike; after a close frame none follows.
func TestLeanConnWritesWholeFrames(t *testing.T) {
	rec := &recConn{}
	lc := &leanConn{Conn: rec}
	lc.pend = lc.hdr[:0]
	bw := bufio.NewWriterSize(lc, leanBufSize)
	var want [][]byte
	for _, n := range []int{0, 1, 14, 15, 16, 17, 125, 126, 600, 0xffff, 0x10000, 70000} {
		p := bytes.Repeat([]byte{'a' + byte(n%26)}, n)
		f := frame(0x1, p)
		// As coder/websocket writes a frame: the header's first two
		// bytes one at a time, the rest of it, the payload, a flush.
		_ = bw.WriteByte(f[0])
		_ = bw.WriteByte(f[1])
		hl := frameHeaderLen(f)
		_, _ = bw.Write(f[2:hl])
		_, _ = bw.Write(f[hl:])
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		want = append(want, f)
		if err := lc.writeMessage(p[:n/2], p[n/2:]); err != nil {
			t.Fatal(err)
		}
		want = append(want, f)
	}
	// A burst: several messages, one write.
	heads := [][]byte{[]byte("a"), bytes.Repeat([]byte("b"), 200), bytes.Repeat([]byte("c"), 0x10000)}
	tail := []byte(`"1","type":"next"}`)
	var burst []byte
	for _, h := range heads {
		burst = append(burst, frame(0x1, append(bytes.Clone(h), tail...))...)
	}
	if err := lc.writeMessages(heads, tail); err != nil {
		t.Fatal(err)
	}
	want = append(want, burst)
	if len(rec.writes) != len(want) {
		t.Fatalf("%d writes to the socket for %d frames", len(rec.writes), len(want))
	}
	for i := range want {
		if !bytes.Equal(rec.writes[i], want[i]) {
			t.Fatalf("write %d: %d bytes %.20q, want %d bytes %.20q", i, len(rec.writes[i]), rec.writes[i], len(want[i]), want[i])
		}
	}
	_, _ = bw.Write(frame(0x8, []byte{0x03, 0xe8}))
	_ = bw.Flush()
	if err := lc.writeMessage([]byte("late")); !errors.Is(err, errLeanClosed) {
		t.Fatalf("a shared message after the close frame: %v", err)
	}
	if got := rec.writes[len(rec.writes)-1]; !bytes.Equal(got, frame(0x8, []byte{0x03, 0xe8})) {
		t.Fatalf("last write %q, want the close frame", got)
	}
}

// TestLeanConnReadsWhatWasBuffered: bytes net/http had read past the
// upgrade request are read first.
func TestLeanConnReadsWhatWasBuffered(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	lc := &leanConn{Conn: a, left: []byte("early")}
	go func() { _, _ = b.Write([]byte(" later")) }()
	br := bufio.NewReaderSize(lc, leanBufSize)
	got := make([]byte, len("early later"))
	if _, err := io.ReadFull(br, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != "early later" {
		t.Fatalf("read %q", got)
	}
}
