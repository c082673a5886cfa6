package app

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote/dealer"
)

// poolsTopic carries "the pools of a draw changed" (tote.PoolSignal) from
// the replica whose intake committed bets to the replica whose dealer holds
// the table's lease, which publishes POOL_UPDATED through the outbox to
// every replica's viewers.
const poolsTopic = "tote:pools"

// poolNotice is the intake's tote.PoolSignal on the broker: it publishes
// "table:draw" on poolsTopic, off the intake's path (PoolsChanged never
// blocks), one publish at a time, merging the draws signalled while one
// is on its way (the dealer reads the totals itself, so a merged signal
// loses nothing).
type poolNotice struct {
	pub     event.Publisher
	log     *slog.Logger
	mu      sync.Mutex
	pending map[[2]int64]bool // {table, draw}
	sending bool
}

func newPoolNotice(pub event.Publisher, log *slog.Logger) *poolNotice {
	return &poolNotice{pub: pub, log: log, pending: map[[2]int64]bool{}}
}

// PoolsChanged implements tote.PoolSignal.
func (n *poolNotice) PoolsChanged(ctx context.Context, tableID, drawID int64) {
	n.mu.Lock()
	n.pending[[2]int64{tableID, drawID}] = true
	start := !n.sending
	n.sending = true
	n.mu.Unlock()
	if start {
		go n.send(context.WithoutCancel(ctx))
	}
}

// send publishes the pending signals until none is left.
func (n *poolNotice) send(ctx context.Context) {
	for {
		n.mu.Lock()
		if len(n.pending) == 0 {
			n.sending = false
			n.mu.Unlock()
			return
		}
		keys := make([][2]int64, 0, len(n.pending))
		for k := range n.pending {
			keys = append(keys, k)
		}
		clear(n.pending)
		n.mu.Unlock()
		for _, k := range keys {
			pctx, cancel := context.WithTimeout(ctx, publishBudget)
			if err := n.pub.Publish(pctx, poolsTopic, appendPoolSignal(nil, k[0], k[1])); err != nil {
				n.log.WarnContext(ctx, "pools signal not published: the table's pools show at its next signal or close", "table", k[0], "draw", k[1], "err", err)
			}
			cancel()
		}
	}
}

// followPools hands the broker's pool signals to this replica's dealers.
func (a *App) followPools(signals *dealer.Signals) {
	a.follow("tote-pools", poolsTopic, 1024, func(msg []byte) {
		table, draw, err := parsePoolSignal(msg)
		if err != nil {
			a.log.Warn("unreadable pools signal", "msg", string(msg), "err", err)
			return
		}
		signals.PoolsChanged(context.Background(), table, draw)
	})
}

// appendPoolSignal appends the signal of a draw's pools, "table:draw" in
// decimal, to b.
func appendPoolSignal(b []byte, tableID, drawID int64) []byte {
	b = strconv.AppendInt(b, tableID, 10)
	b = append(b, ':')
	return strconv.AppendInt(b, drawID, 10)
}

// errPoolSignal is a message on poolsTopic that appendPoolSignal did not
// write.
var errPoolSignal = errors.New(`a pools signal is "table:draw", two positive decimal ids`)

// parsePoolSignal reads what appendPoolSignal wrote, exactly: two positive
// ids in canonical decimal (no sign, no leading zero, nothing around).
func parsePoolSignal(msg []byte) (tableID, drawID int64, err error) {
	t, d, ok := bytes.Cut(msg, []byte{':'})
	if !ok {
		return 0, 0, errPoolSignal
	}
	if tableID, ok = positiveID(t); !ok {
		return 0, 0, errPoolSignal
	}
	if drawID, ok = positiveID(d); !ok {
		return 0, 0, errPoolSignal
	}
	return tableID, drawID, nil
}

// positiveID reads a positive int64 written without sign or leading zero.
func positiveID(b []byte) (int64, bool) {
	if len(b) == 0 || b[0] < '1' || b[0] > '9' {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}
