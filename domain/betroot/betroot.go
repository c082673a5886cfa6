// Package betroot commits to the bets of a betting round: when
// a round closes, the server publishes the Merkle root of every bet it
// accepted in that round, before the next street's beacon round exists, so
// that no bet can be added, dropped or changed afterwards without the
// root changing. Each player can fetch an inclusion proof of their own bet
// and check it against the root they saw.
//
// The tree is RFC 6962's Merkle Tree Hash (Certificate Transparency) over
// SHA-256, hashed with github.com/transparency-dev/merkle's rfc6962 hasher:
//
//	leaf hash  = SHA-256(0x00 ‖ leaf bytes)
//	node hash  = SHA-256(0x01 ‖ left ‖ right)
//	MTH([])    = SHA-256("")
//	MTH([d])   = leaf hash of d
//	MTH(D[n])  = node hash(MTH(D[0:k]), MTH(D[k:n])), k the largest power
//	             of two smaller than n
//
// (the 0x00/0x01 prefixes separate leaves from nodes; an odd node is never
// duplicated: the split rule leaves the right subtree smaller). The leaves
// are the round's bets in ascending order of id, each encoded by Leaf.Bytes
// (docs/fairness.md, section 11). No player identity is in a leaf.
package betroot

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
)

// Domain prefixes every leaf's bytes: a leaf of another kind (or version)
// can never equal a bet's.
const Domain = "pokertote/bet/v1"

// Leaf is one accepted bet as the tree commits to it.
type Leaf struct {
	ID        int64
	Round     int    // 1..4
	Market    string // WIN, COMBINATION, EXPRESS
	Selection string // canonical, as the result writes it ("3", "PAIR", "1-2-3")
	Stake     int64  // tiyn
}

// Bytes is the leaf's encoding: Domain ‖ id (8 bytes big-endian) ‖ round
// (1 byte) ‖ len(market) (1 byte) ‖ market ‖ len(selection) (1 byte) ‖
// selection ‖ stake (8 bytes big-endian), strings in ASCII.
func (l Leaf) Bytes() []byte {
	b := make([]byte, 0, len(Domain)+8+1+1+len(l.Market)+1+len(l.Selection)+8)
	b = append(b, Domain...)
	b = binary.BigEndian.AppendUint64(b, uint64(l.ID))
	b = append(b, byte(l.Round), byte(len(l.Market)))
	b = append(b, l.Market...)
	b = append(b, byte(len(l.Selection)))
	b = append(b, l.Selection...)
	return binary.BigEndian.AppendUint64(b, uint64(l.Stake))
}

// Hash is the leaf's hash: SHA-256(0x00 ‖ Bytes).
func (l Leaf) Hash() []byte { return rfc6962.DefaultHasher.HashLeaf(l.Bytes()) }

// Root is a round's commitment as RoundClosed and the result publish it:
// the tree's root (64 lower-case hex), how many bets it covers and their
// stakes summed (tiyn).
type Root struct {
	Round   int    `json:"round"`
	Root    string `json:"root"`
	NumBets int    `json:"numBets"`
	Stakes  int64  `json:"stakes"`
	// At is when the root was published (ROUND_CLOSED; UTC, whole
	// milliseconds): before the next street's beacon round exists (fair
	// deal 4 on; nil before).
	At *time.Time `json:"at,omitempty"`
}

// Of commits to a round's bets; leaves must be in ascending order of id.
func Of(round int, leaves []Leaf) (Root, error) {
	hashes := make([][]byte, len(leaves))
	var stakes int64
	for i, l := range leaves {
		if i > 0 && l.ID <= leaves[i-1].ID {
			return Root{}, fmt.Errorf("bet %d comes after bet %d: leaves must be in ascending order of id", l.ID, leaves[i-1].ID)
		}
		if l.Round != round {
			return Root{}, fmt.Errorf("bet %d is of round %d, not %d", l.ID, l.Round, round)
		}
		hashes[i] = l.Hash()
		stakes += l.Stake
	}
	return Root{Round: round, Root: hex.EncodeToString(mth(hashes)), NumBets: len(leaves), Stakes: stakes}, nil
}

// mth is RFC 6962's Merkle Tree Hash of the leaf hashes.
func mth(h [][]byte) []byte {
	switch len(h) {
	case 0:
		return rfc6962.DefaultHasher.EmptyRoot()
	case 1:
		return h[0]
	}
	k := split(len(h))
	return rfc6962.DefaultHasher.HashChildren(mth(h[:k]), mth(h[k:]))
}

// split is the largest power of two smaller than n (n >= 2).
func split(n int) int { return 1 << (bits.Len(uint(n-1)) - 1) }

// Proof is an inclusion proof of one leaf: its index among the round's
// bets in id order, the tree's size, and RFC 6962's audit path (the
// sibling hashes from the leaf up, lower-case hex).
type Proof struct {
	Index uint64   `json:"index"`
	Size  uint64   `json:"size"`
	Path  []string `json:"path"`
}

// Prove returns the inclusion proof of the bet with id among leaves (in
// ascending order of id).
func Prove(leaves []Leaf, id int64) (Proof, error) {
	i, found := slices.BinarySearchFunc(leaves, id, func(l Leaf, id int64) int { return cmpInt(l.ID, id) })
	if !found {
		return Proof{}, fmt.Errorf("bet %d is not among the round's %d bets", id, len(leaves))
	}
	hashes := make([][]byte, len(leaves))
	for j, l := range leaves {
		hashes[j] = l.Hash()
	}
	var path []string
	for _, p := range auditPath(i, hashes) {
		path = append(path, hex.EncodeToString(p))
	}
	return Proof{Index: uint64(i), Size: uint64(len(leaves)), Path: path}, nil
}

// auditPath is RFC 6962's PATH(m, D[n]), leaf first.
func auditPath(m int, h [][]byte) [][]byte {
	if len(h) <= 1 {
		return nil
	}
	k := split(len(h))
	if m < k {
		return append(auditPath(m, h[:k]), mth(h[k:]))
	}
	return append(auditPath(m-k, h[k:]), mth(h[:k]))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ErrNotIncluded is Verify's answer to a proof that does not lead to the
// root.
var ErrNotIncluded = errors.New("the bet is not in the committed round")

// Verify checks that leaf is at p.Index of the tree of p.Size leaves whose
// root is root (hex), with transparency-dev/merkle's verifier.
func Verify(leaf Leaf, p Proof, root string) error {
	want, err := ParseHash(root)
	if err != nil {
		return err
	}
	path := make([][]byte, len(p.Path))
	for i, s := range p.Path {
		if path[i], err = ParseHash(s); err != nil {
			return fmt.Errorf("path node %d: %w", i, err)
		}
	}
	if err := proof.VerifyInclusion(rfc6962.DefaultHasher, p.Index, p.Size, leaf.Hash(), path, want); err != nil {
		return fmt.Errorf("%w: %v", ErrNotIncluded, err)
	}
	return nil
}

// ParseHash reads a 32-byte hash in canonical lower-case hex.
func ParseHash(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != sha256.Size || hex.EncodeToString(b) != s {
		return nil, fmt.Errorf("%q is not 64 lower-case hex digits", s)
	}
	return b, nil
}

// Equal reports whether two roots commit to the same bets.
func Equal(a, b Root) bool {
	return a.Round == b.Round && a.NumBets == b.NumBets && a.Stakes == b.Stakes && bytes.Equal([]byte(a.Root), []byte(b.Root))
}
