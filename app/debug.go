package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// startDebug serves the runtime profiles (net/http/pprof) on DEBUG_ADDR, a
// listener of its own, never on the public one: profiling the bet path
// under load needs CPU and mutex profiles of a running server.
func (a *App) startDebug() error {
	if a.cfg.DebugAddr == "" {
		return nil
	}
	// Profiles show internals: loopback only.
	host, _, err := net.SplitHostPort(a.cfg.DebugAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("DEBUG_ADDR=%q must be a loopback address", a.cfg.DebugAddr)
	}
	l, err := net.Listen("tcp", a.cfg.DebugAddr)
	if err != nil {
		return fmt.Errorf("listen on DEBUG_ADDR %s: %w", a.cfg.DebugAddr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	// Each recent table event's passage (at, published, received, folded,
	// delivered, first and last socket write): loadgen viewers -stages.
	mux.HandleFunc("/debug/fanout", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(a.stages.Records())
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("debug listener stopped", "err", err)
		}
	}()
	a.closers = append(a.closers, srv.Close)
	a.log.Info("debug profiles served", "addr", l.Addr().String())
	return nil
}
