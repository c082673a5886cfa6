// Package tcpproxy is a TCP forwarder that tests and the chaos run cut and
// restore, to partition a process from a database or broker without
// touching the network.
package tcpproxy

import (
	"net"
	"sync"
	"sync/atomic"
)

// Proxy forwards connections accepted on its address to a target.
type Proxy struct {
	ln     net.Listener
	target atomic.Pointer[string]

	// silent drops every byte both ways and holds new connections
	// unanswered (Blackhole).
	silent atomic.Bool
	// trigger, when set, arms a connection, and replied then says when to
	// cut (CutAfterReply).
	trigger atomic.Pointer[func(conn int64, fromClient []byte) bool]
	replied func(fromServer []byte) bool

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
	total atomic.Int64
	wg    sync.WaitGroup
}

// Start listens on listen (host:port; port 0 picks one) and forwards to
// target.
func Start(listen, target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, conns: map[net.Conn]struct{}{}}
	p.target.Store(&target)
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's listening address.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Accepted is the number of connections forwarded since Start.
func (p *Proxy) Accepted() int64 { return p.total.Load() }

// Cut closes every forwarded connection and refuses new ones (they are
// accepted and closed at once) until Restore: a partition.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		_ = c.Close()
	}
}

// Restore forwards again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.silent.Store(false)
	p.mu.Unlock()
}

// Blackhole drops every byte both ways on the open connections and
// accepts new ones without ever answering them, until Restore: a peer that
// vanished without a reset (a dead host, a firewall dropping packets), which
// clients notice only by their own deadlines.
func (p *Proxy) Blackhole() { p.silent.Store(true) }

// CutAfterReply cuts the proxy (Cut) once the server has answered the
// first client message that match accepts: match sees each chunk a client
// sends, with its connection's number; from the chunk it accepts on, the
// server's chunks on that connection are forwarded until one that replied
// accepts, and then every connection is closed. A test cuts a database
// this way between its answer to a COMMIT and the client's next statement.
// Call it once, before the traffic it watches.
func (p *Proxy) CutAfterReply(match func(conn int64, fromClient []byte) bool, replied func(fromServer []byte) bool) {
	p.replied = replied
	p.trigger.Store(&match)
}

// link is one forwarded connection: armed once its client sent the chunk
// CutAfterReply waits for.
type link struct {
	id    int64
	armed atomic.Bool
}

// Close stops listening and closes every connection.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.Cut()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			_ = c.Close()
			continue
		}
		if p.silent.Load() {
			p.conns[c] = struct{}{} // held, never answered; closed by Cut or Close
			p.mu.Unlock()
			continue
		}
		p.mu.Unlock()
		up, err := net.Dial("tcp", *p.target.Load())
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			_ = c.Close()
			_ = up.Close()
			continue
		}
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		l := &link{id: p.total.Add(1)}
		p.wg.Add(2)
		go p.pipe(c, up, l, false)
		go p.pipe(up, c, l, true)
	}
}

func (p *Proxy) pipe(dst, src net.Conn, l *link, fromClient bool) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.silent.Load() {
			if fromClient {
				if m := p.trigger.Load(); m != nil && (*m)(l.id, buf[:n]) && p.trigger.CompareAndSwap(m, nil) {
					l.armed.Store(true)
				}
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
			if !fromClient && l.armed.Load() && p.replied(buf[:n]) {
				l.armed.Store(false)
				p.Cut()
			}
		}
		if err != nil {
			break
		}
	}
	_ = dst.Close()
	_ = src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}
