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

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
)

// Domain prefixes every leaf's bytes: a leaf of another kind (or version)
// can never equal a bet's. DomainV2 prefixes a version-2 leaf (fair deal
// 4), RefDomain a bet's reference.
const (
	Domain    = "pokertote/bet/v1"
	DomainV2  = "pokertote/bet/v2"
	RefDomain = "pokertote/bet/ref"
)

// Leaf is one accepted bet as the tree commits to it.
type Leaf struct {
	// Version is 1 (ID in the clear) or 2 (Ref(ID) and PlacedAt).
	Version   int
	ID        int64
	Round     int    // 1..4
	Market    string // WIN, COMBINATION, EXPRESS
	Selection string // canonical, as the result writes it ("3", "PAIR", "1-2-3")
	Stake     int64  // tiyn
	// PlacedAt is when the bet was accepted (version 2, whole
	// milliseconds).
	PlacedAt time.Time
}

// Ref is a bet's reference in a version-2 leaf: SHA-256(RefDomain ‖ id (8
// bytes big-endian)). Its owner, who knows the id, finds the bet by it; the
// published leaves carry no id and no player.
func Ref(id int64) [sha256.Size]byte {
	var b [len(RefDomain) + 8]byte
	copy(b[:], RefDomain)
	binary.BigEndian.PutUint64(b[len(RefDomain):], uint64(id))
	return sha256.Sum256(b[:])
}

// Bytes is the leaf's encoding. Version 1: Domain ‖ id (8 bytes
// big-endian) ‖ round (1 byte) ‖ len(market) (1 byte) ‖ market ‖
// len(selection) (1 byte) ‖ selection ‖ stake (8 bytes big-endian).
// Version 2: DomainV2 ‖ Ref(id) (32) ‖ round ‖ len(market) ‖ market ‖
// len(selection) ‖ selection ‖ stake (8) ‖ placedAt in Unix ms (8).
// Strings in ASCII.
func (l Leaf) Bytes() []byte {
	if l.Version >= 2 {
		ref := Ref(l.ID)
		return PublicLeaf{Ref: hex.EncodeToString(ref[:]), Round: l.Round, Market: l.Market, Selection: l.Selection, Stake: l.Stake, PlacedAt: l.PlacedAt}.bytesV2(ref)
	}
	b := make([]byte, 0, len(Domain)+8+1+1+len(l.Market)+1+len(l.Selection)+8)
	b = append(b, Domain...)
	b = binary.BigEndian.AppendUint64(b, uint64(l.ID))
	b = append(b, byte(l.Round), byte(len(l.Market)))
	b = append(b, l.Market...)
	b = append(b, byte(len(l.Selection)))
	b = append(b, l.Selection...)
	return binary.BigEndian.AppendUint64(b, uint64(l.Stake))
}

// PublicLeaf is a leaf as it is published with a finished draw's result:
// a version-2 leaf with its Ref (64 hex) and PlacedAt, or a version-1 leaf
// with its ID. It names no player.
type PublicLeaf struct {
	ID        int64     `json:"id,omitempty"`
	Ref       string    `json:"ref,omitempty"`
	Round     int       `json:"round"`
	Market    string    `json:"market"`
	Selection string    `json:"selection"`
	Stake     int64     `json:"stake"`
	PlacedAt  time.Time `json:"placedAt,omitzero"`
}

// Public is the leaf as it is published.
func (l Leaf) Public() PublicLeaf {
	if l.Version >= 2 {
		ref := Ref(l.ID)
		return PublicLeaf{Ref: hex.EncodeToString(ref[:]), Round: l.Round, Market: l.Market, Selection: l.Selection, Stake: l.Stake, PlacedAt: l.PlacedAt.Truncate(time.Millisecond).UTC()}
	}
	return PublicLeaf{ID: l.ID, Round: l.Round, Market: l.Market, Selection: l.Selection, Stake: l.Stake}
}

// Hash is a published leaf's hash: that of the leaf it publishes. An error
// is a leaf that cannot be one (a reference that is not 64 hex digits, a
// string longer than 255 bytes).
func (p PublicLeaf) Hash() ([]byte, error) {
	if len(p.Market) > 255 || len(p.Selection) > 255 || p.Round < 1 || p.Round > 4 {
		return nil, fmt.Errorf("leaf: round %d, market %q, selection %q cannot be a bet's", p.Round, p.Market, p.Selection)
	}
	if p.Ref == "" {
		l := Leaf{ID: p.ID, Round: p.Round, Market: p.Market, Selection: p.Selection, Stake: p.Stake}
		return l.Hash(), nil
	}
	b, err := ParseHash(p.Ref)
	if err != nil {
		return nil, fmt.Errorf("leaf ref: %w", err)
	}
	return rfc6962.DefaultHasher.HashLeaf(p.bytesV2([sha256.Size]byte(b))), nil
}

// bytesV2 is the version-2 encoding of p with its reference's bytes.
func (p PublicLeaf) bytesV2(ref [sha256.Size]byte) []byte {
	b := make([]byte, 0, len(DomainV2)+32+1+1+len(p.Market)+1+len(p.Selection)+16)
	b = append(b, DomainV2...)
	b = append(b, ref[:]...)
	b = append(b, byte(p.Round), byte(len(p.Market)))
	b = append(b, p.Market...)
	b = append(b, byte(len(p.Selection)))
	b = append(b, p.Selection...)
	b = binary.BigEndian.AppendUint64(b, uint64(p.Stake))
	return binary.BigEndian.AppendUint64(b, uint64(p.PlacedAt.UnixMilli()))
}

// Folder computes a round's root from its leaves one at a time, in
// bounded memory (a compact range: one hash per set bit of the count), for
// a verifier reading a million published leaves.
type Folder struct {
	rng    *compact.Range
	n      int
	stakes int64
}

var rangeFactory = compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}

// NewFolder starts an empty round.
func NewFolder() *Folder { return &Folder{rng: rangeFactory.NewEmptyRange(0)} }

// Add appends a leaf's hash and stake.
func (f *Folder) Add(hash []byte, stake int64) error {
	f.n++
	f.stakes += stake
	return f.rng.Append(hash, nil)
}

// Root is the round's commitment to the leaves added so far.
func (f *Folder) Root(round int) (Root, error) {
	h, err := f.rng.GetRootHash(nil)
	if err != nil {
		return Root{}, err
	}
	if h == nil {
		h = rfc6962.DefaultHasher.EmptyRoot()
	}
	return Root{Round: round, Root: hex.EncodeToString(h), NumBets: f.n, Stakes: f.stakes}, nil
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
