package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// startPprof serves net/http/pprof on PPROF_ADDR, a loopback address only
// (profiles show internals), until the app closes. It is how the fan-out
// figures of docs/fanout.md were profiled.
func (a *App) startPprof() error {
	if a.cfg.PprofAddr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(a.cfg.PprofAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("PPROF_ADDR=%q must be a loopback address", a.cfg.PprofAddr)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", a.cfg.PprofAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	a.goBackground("pprof", func(ctx context.Context) error {
		go func() {
			<-ctx.Done()
			_ = srv.Close()
		}()
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	return nil
}
