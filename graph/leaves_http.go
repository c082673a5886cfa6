package graph

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// leafFlush is how many leaves go out between flushes of the download.
const leafFlush = 4096

// LeafSource streams a finished draw's published leaves (tote's
// Service.Leaves).
type LeafSource interface {
	Leaves(ctx context.Context, drawID int64, round parimutuel.Round, fn func(betroot.PublicLeaf) error) error
}

// LeavesHandler serves GET /draws/{id}/leaves[?round=N]: every accepted bet
// of a finished draw as a leaf without identity (docs/fairness.md, section
// 11), one JSON object per line (application/x-ndjson), round by round in
// the order its root commits to them, streamed from the database a page at
// a time, so a round of a million bets costs the server no more memory
// than one of ten. Anyone may download it, as anyone may read the result.
// An unknown draw is 404 NOT_FOUND, one still running 409
// DRAW_NOT_FINISHED, a round outside 1..4 400 UNKNOWN_ROUND; an error
// once leaves have gone out cuts the body short (no final newline), which
// a reader sees as a truncated line.
func LeavesHandler(src LeafSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || id <= 0 {
			WriteError(w, errs.R(errs.Invalid, ReasonInvalidID, "%q is not a draw id", r.PathValue("id")))
			return
		}
		var round parimutuel.Round
		if s := r.URL.Query().Get("round"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				WriteError(w, errs.R(errs.Invalid, parimutuel.ReasonUnknownRound, "round %q is not a number from 1 to 4", s))
				return
			}
			round = parimutuel.Round(n)
		}
		var bw *bufio.Writer
		var enc *json.Encoder
		n := 0
		err = src.Leaves(r.Context(), id, round, func(l betroot.PublicLeaf) error {
			if bw == nil {
				w.Header().Set("Content-Type", "application/x-ndjson")
				w.Header().Set("Cache-Control", "public, max-age=86400, immutable")
				bw = bufio.NewWriterSize(w, 64<<10)
				enc = json.NewEncoder(bw)
			}
			if n++; n%leafFlush == 0 {
				if err := bw.Flush(); err != nil {
					return err
				}
				if f, ok := w.(http.Flusher); ok {
					f.Flush()
				}
			}
			return enc.Encode(l)
		})
		switch {
		case err != nil && bw == nil:
			WriteError(w, err)
		case err != nil:
			panic(http.ErrAbortHandler) // cut short: the reader sees a truncated line
		case bw == nil:
			w.Header().Set("Content-Type", "application/x-ndjson")
			w.WriteHeader(http.StatusOK)
		default:
			_ = bw.Flush()
		}
	})
}
