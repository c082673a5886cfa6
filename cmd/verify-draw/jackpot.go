package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/tote/verify"
)

// runJackpot is the -jackpot mode: it checks a run of the public jackpot
// chain against the results of the draws in it (verify.JackpotChain,
// docs/fairness.md section 14).
//
//	verify-draw -jackpot run.json [-anchors SEQ:HASH,...]
//
// run.json is {"entries": [...], "results": [...], "anchors": [...]}:
// the entries as jackpotChain's entryJson gives them, consecutive; the
// results (resultJson) of every draw they name; and, optionally, hashes
// the checker recorded before (a head seen earlier), which -anchors adds
// to. A rewrite of the chain with every later hash recomputed is caught
// only against such an anchor.
func runJackpot(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify-draw -jackpot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("jackpot", "", "a run of the jackpot chain with the results of its draws, JSON (file, or - for stdin)")
	anchors := fs.String("anchors", "", "entry hashes you recorded earlier, SEQ:HASH,... (e.g. the head you saw last time)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var b []byte
	var err error
	if *path == "-" {
		b, err = io.ReadAll(os.Stdin)
	} else {
		b, err = os.ReadFile(*path)
	}
	if err != nil {
		return err
	}
	var run verify.JackpotRun
	if err := json.Unmarshal(b, &run); err != nil {
		return fmt.Errorf("%s is not a jackpot run ({\"entries\": [...], \"results\": [...]}): %w", *path, err)
	}
	if *anchors != "" {
		for _, part := range strings.Split(*anchors, ",") {
			seq, hash, ok := strings.Cut(part, ":")
			n, err := strconv.ParseInt(seq, 10, 64)
			if !ok || err != nil || n < 1 || len(hash) != 64 {
				return fmt.Errorf("-anchors %q: give SEQ:HASH (a positive seq, 64 hex digits)", part)
			}
			run.Anchors = append(run.Anchors, verify.JackpotAnchor{Seq: n, Hash: hash})
		}
	}
	w := &printer{w: stdout}
	problems := verify.JackpotChain(run)
	for _, p := range problems {
		w.printf("PROBLEM: %s", p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: the jackpot chain", errMismatch)
	}
	first, last := run.Entries[0], run.Entries[len(run.Entries)-1]
	w.printf("jackpot chain: entries %d..%d hold (%s to %s), with the results of %d draws and %d anchors", first.Seq, last.Seq, first.Before, last.After, len(run.Results), len(run.Anchors))
	w.printf("head:          seq %d hash %s (record it: a later rewrite fails against it)", last.Seq, last.Hash)
	return nil
}
