package wstransport

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"sync"
)

// A WebSocket at rest costs what its buffers and goroutines hold. The
// hijacked connection net/http hands over carries a 4 KB read buffer and a
// 4 KB write buffer, which coder/websocket keeps for the connection's life
// although a viewer's socket reads a few small messages and writes a
// message of a few hundred bytes now and then: 8 KB a viewer, doubled by
// the garbage collector's headroom. leanWriter hands coder/websocket a
// connection with 16-byte buffers instead, and leanConn below it keeps no
// buffer at rest: it gathers each frame coder/websocket writes (header and
// payload arrive as separate small writes through the 16-byte buffer) and
// writes it to the socket in one call when it is complete, so the socket
// sees what it saw before, one write per frame.
//
// leanConn is also how a shared "next" message reaches the socket: the
// shared rendering is written as it is (writeMessage: the frame header, the
// shared bytes and the subscriber's id, one vectored write), not copied
// into a buffer per subscriber. Frames of coder/websocket and shared ones
// never interleave: each is written whole under leanConn's lock; and once
// a close frame has gone out no shared message follows it.

// leanBufSize is the size of the buffers coder/websocket gets (bufio's
// smallest reader).
const leanBufSize = 16

// leanWriter wraps the upgrade's ResponseWriter: its Hijack returns a
// leanConn with small buffers.
type leanWriter struct {
	http.ResponseWriter
	conn *leanConn // set by Hijack
}

// Unwrap lets http.ResponseController reach the wrapped writer.
func (w *leanWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack implements http.Hijacker.
func (w *leanWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	lc := &leanConn{Conn: nc}
	lc.pend = lc.hdr[:0]
	if brw != nil {
		// Whatever the client sent after the upgrade request and
		// net/http read already is read first.
		if n := brw.Reader.Buffered(); n > 0 {
			b, _ := brw.Reader.Peek(n)
			lc.left = bytes.Clone(b)
		}
		if err := brw.Writer.Flush(); err != nil {
			_ = nc.Close()
			return nil, nil, err
		}
	}
	w.conn = lc
	return lc, bufio.NewReadWriter(bufio.NewReaderSize(lc, leanBufSize), bufio.NewWriterSize(lc, leanBufSize)), nil
}

// leanConn is the hijacked connection as coder/websocket sees it.
type leanConn struct {
	net.Conn
	left []byte // read by net/http before the hijack, not yet read here

	// The frame coder/websocket is writing (Write is called by one
	// goroutine at a time: coder/websocket serialises its frames).
	hdr    [16]byte
	pend   []byte // the frame's bytes so far (in hdr while small)
	hdrLen int    // the header's length once known, else 0
	remain int64  // payload bytes still to come once the header is known

	mu        sync.Mutex // one whole frame at a time on the socket
	closeSent bool       // a close frame was written: nothing follows it
}

// Read implements net.Conn.
func (c *leanConn) Read(p []byte) (int, error) {
	if len(c.left) > 0 {
		n := copy(p, c.left)
		c.left = c.left[n:]
		if len(c.left) == 0 {
			c.left = nil
		}
		return n, nil
	}
	return c.Conn.Read(p)
}

// frameHeaderLen is the length of the frame header starting b (which holds
// at least its first two bytes).
func frameHeaderLen(b []byte) int {
	n := 2
	switch b[1] & 0x7f {
	case 126:
		n += 2
	case 127:
		n += 8
	}
	if b[1]&0x80 != 0 {
		n += 4
	}
	return n
}

// framePayloadLen is the payload length of the complete header h.
func framePayloadLen(h []byte) int64 {
	switch l := h[1] & 0x7f; l {
	case 126:
		return int64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		return int64(binary.BigEndian.Uint64(h[2:10]))
	default:
		return int64(l)
	}
}

// Write implements net.Conn for coder/websocket's frames: it gathers a
// frame and writes it whole once its last byte has come.
func (c *leanConn) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if c.hdrLen == 0 {
			need := 2
			if len(c.pend) >= 2 {
				need = frameHeaderLen(c.pend)
			}
			take := min(need-len(c.pend), len(p))
			c.pend = append(c.pend, p[:take]...)
			p = p[take:]
			if len(c.pend) < 2 || len(c.pend) < frameHeaderLen(c.pend) {
				continue
			}
			c.hdrLen = len(c.pend)
			c.remain = framePayloadLen(c.pend)
			if c.remain > 0 {
				continue
			}
		}
		take := int(min(c.remain, int64(len(p))))
		if int64(take) < c.remain {
			// Not the frame's last piece: kept (the caller may reuse p).
			c.pend = append(c.pend, p[:take]...)
			c.remain -= int64(take)
			p = p[take:]
			continue
		}
		last := p[:take]
		p = p[take:]
		if err := c.flushFrame(last); err != nil {
			return n - len(p) - len(last), err
		}
	}
	return n, nil
}

// flushFrame writes the gathered frame ending with last and starts over.
func (c *leanConn) flushFrame(last []byte) error {
	closing := c.pend[0]&0x0f == 0x8
	c.mu.Lock()
	err := c.writeParts(net.Buffers{c.pend, last})
	if closing {
		c.closeSent = true
	}
	c.mu.Unlock()
	if cap(c.pend) > len(c.hdr) {
		c.pend = c.hdr[:0] // a large frame's buffer is not kept
	} else {
		c.pend = c.pend[:0]
	}
	c.hdrLen, c.remain = 0, 0
	return err
}

var errLeanClosed = errors.New("websocket: close frame sent")

// writeMessage writes parts as one unfragmented text message (a server's
// frame: no mask), without copying them.
func (c *leanConn) writeMessage(parts ...[]byte) error {
	var hdr [10]byte
	bufs := make(net.Buffers, 0, 1+len(parts))
	bufs = append(bufs, textHeader(hdr[:0], parts...))
	bufs = append(bufs, parts...)
	return c.writeFrames(bufs)
}

// writeMessages writes, for each of heads, head and tail as one text
// message, all in one vectored write.
func (c *leanConn) writeMessages(heads [][]byte, tail []byte) error {
	hdrs := make([]byte, 0, 10*len(heads))
	bufs := make(net.Buffers, 0, 3*len(heads))
	for _, h := range heads {
		n := len(hdrs)
		hdrs = textHeader(hdrs, h, tail)
		bufs = append(bufs, hdrs[n:len(hdrs):len(hdrs)], h, tail)
	}
	return c.writeFrames(bufs)
}

// textHeader appends the header of an unfragmented text frame carrying
// parts.
func textHeader(b []byte, parts ...[]byte) []byte {
	var size int
	for _, p := range parts {
		size += len(p)
	}
	b = append(b, 0x80|0x1) // fin, text
	switch {
	case size > 0xffff:
		b = append(b, 127)
		return binary.BigEndian.AppendUint64(b, uint64(size))
	case size > 125:
		b = append(b, 126)
		return binary.BigEndian.AppendUint16(b, uint16(size))
	default:
		return append(b, byte(size))
	}
}

// writeFrames writes complete frames, unless a close frame went out.
func (c *leanConn) writeFrames(bufs net.Buffers) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closeSent {
		return errLeanClosed
	}
	return c.writeParts(bufs)
}

// writeParts writes bufs to the socket in one call: vectored on TCP,
// otherwise (TLS, tests) gathered into one buffer first. Under mu.
func (c *leanConn) writeParts(bufs net.Buffers) error {
	if _, ok := c.Conn.(*net.TCPConn); ok {
		_, err := bufs.WriteTo(c.Conn)
		return err
	}
	buf := twsBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	for _, b := range bufs {
		buf.Write(b)
	}
	_, err := c.Conn.Write(buf.Bytes())
	if buf.Cap() <= 64<<10 {
		twsBuffers.Put(buf)
	}
	return err
}
