// Command verify-shuffle recomputes a draw's deck and deal from its
// revealed seeds, so that a player can check a Pokertote draw by hand.
//
//	verify-shuffle -server-seed HEX [-commitment HEX] (-public TEXT | -public-hex HEX) [-positions N | -boxes B]
//
// With -commitment it first checks that SHA-256 of the server seed is the
// commitment published when the draw opened. With -positions it prints the
// totalizator deal for N positions, with -boxes the Casino Hold'em deal for
// B boxes; with neither, only the deck.
package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pokertote/pokertote/domain/cards"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "verify-shuffle:", err)
		}
		os.Exit(2)
	}
}

// options are the command line, parsed.
type options struct {
	server     cards.Seed
	commitment *[cards.SeedSize]byte
	public     []byte
	positions  int
	boxes      int
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseArgs(args, stderr)
	if err != nil {
		return err
	}
	var deck cards.Deck
	commitment := cards.Commitment(o.server)
	check := "not checked: pass -commitment to check it"
	if o.commitment != nil {
		if deck, err = cards.Verify(o.server, *o.commitment, o.public); err != nil {
			return err
		}
		check = "matches the server seed"
	} else {
		deck = cards.Shuffle(o.server, o.public)
	}
	w := &lines{w: stdout}
	w.printf("server seed:  %s", o.server.Hex())
	w.printf("commitment:   %s (%s)", cards.FormatCommitment(commitment), check)
	w.printf("public seed:  %x (%d bytes)", o.public, len(o.public))
	w.printf("deck:         %s", deck)
	switch {
	case o.positions > 0:
		printTote(w, cards.DealTote(deck, o.positions))
	case o.boxes > 0:
		printHoldem(w, cards.DealHoldem(deck, o.boxes))
	}
	return w.err
}

func parseArgs(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("verify-shuffle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server-seed", "", "the revealed server seed, 64 hex characters (required)")
	commitment := fs.String("commitment", "", "the commitment published when the draw opened, 64 hex characters")
	public := fs.String("public", "", "the public seed as text (its UTF-8 bytes)")
	publicHex := fs.String("public-hex", "", "the public seed as hex bytes")
	positions := fs.Int("positions", 0, fmt.Sprintf("deal a totalizator draw to this many positions (%d..%d)", cards.MinPositions, cards.MaxPositions))
	boxes := fs.Int("boxes", 0, fmt.Sprintf("deal a Casino Hold'em hand to this many boxes (1..%d)", cards.MaxBoxes))
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	var o options
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *server == "" {
		return o, errors.New("-server-seed is required")
	}
	var err error
	if o.server, err = cards.ParseSeed(strings.TrimSpace(*server)); err != nil {
		return o, err
	}
	if *commitment != "" {
		c, err := cards.ParseCommitment(strings.TrimSpace(*commitment))
		if err != nil {
			return o, err
		}
		o.commitment = &c
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["public"] && set["public-hex"] {
		return o, errors.New("give the public seed once: -public or -public-hex")
	}
	o.public = []byte(*public)
	if set["public-hex"] {
		if o.public, err = hex.DecodeString(strings.TrimSpace(*publicHex)); err != nil {
			return o, fmt.Errorf("-public-hex: %w", err)
		}
	}
	if set["positions"] && set["boxes"] {
		return o, errors.New("deal either -positions or -boxes, not both")
	}
	if set["positions"] && (*positions < cards.MinPositions || *positions > cards.MaxPositions) {
		return o, fmt.Errorf("-positions must be %d..%d", cards.MinPositions, cards.MaxPositions)
	}
	if set["boxes"] && (*boxes < 1 || *boxes > cards.MaxBoxes) {
		return o, fmt.Errorf("-boxes must be 1..%d", cards.MaxBoxes)
	}
	o.positions, o.boxes = *positions, *boxes
	return o, nil
}

func printTote(w *lines, d cards.ToteDeal) {
	for i, p := range d.Pockets {
		w.printf("position %-4d %s", i+1, cards.Format(p[:]))
	}
	w.printf("burn:         %s", d.Burns[0])
	w.printf("flop:         %s", cards.Format(d.Flop[:]))
	w.printf("burn:         %s", d.Burns[1])
	w.printf("turn:         %s", d.Turn)
	w.printf("burn:         %s", d.Burns[2])
	w.printf("river:        %s", d.River)
}

func printHoldem(w *lines, d cards.HoldemDeal) {
	for i, p := range d.Boxes {
		w.printf("box %-9d %s", i+1, cards.Format(p[:]))
	}
	w.printf("dealer:       %s", cards.Format(d.Dealer[:]))
	w.printf("flop:         %s", cards.Format(d.Flop[:]))
	w.printf("turn:         %s", d.Turn)
	w.printf("river:        %s", d.River)
}

// lines writes lines and keeps the first write error.
type lines struct {
	w   io.Writer
	err error
}

func (l *lines) printf(format string, args ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format+"\n", args...)
	}
}
