// Command gentables writes domain/hand/tables_gen.go: the rank multipliers
// and the displacements of the two perfect hashes that map a hand's rank sum
// to a slot of the evaluator's rank tables, one for seven cards and one for
// five or six.
//
// Run it through go generate in domain/hand. With -search it first
// rediscovers the multipliers by a greedy search (about ten minutes); without
// it the multipliers below are used and only checked.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"slices"
	"sort"
)

// multipliers were found by the greedy search in searchMultipliers: each is
// the smallest number above the previous one that keeps the sums of every
// multiset of up to seven cards (at most four per rank) distinct.
var multipliers = [13]uint32{1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520}

// The perfect hash of a rank sum s (see slot7 and slot56 in domain/hand):
// the evaluator adds the rank weights premultiplied by hashMul, so it holds
// h = s * hashMul modulo 2^16 in its Key's low bits and modulo 2^25 in its
// top bits. The slot is h's low tableBits bits XOR the displacement of its
// bucket, the top bucketBits of h's 25 bits. The displacements keep the
// sums apart. Seven-card sums and five- or six-card sums get
// tables of their own, so that Eval7 touches only the seven-card one, whose
// top flushSlots slots are left free: domain/hand flips the top three bits
// of every seven-card displacement, which moves those free slots to the
// start of its table hash7, where the displacements themselves go.
// hashMul is the first odd number from 0x9e3779b1 up for which both tables
// can be displaced (see findMul).
var hashMul uint32

type hashShape struct {
	name       string
	bucketBits int // log2 of the displacement table length
	tableBits  int // log2 of the rank table length
	reserved   int // slots left free at the top of the table
}

var (
	shape7  = hashShape{"7", 13, 16, 1 << 13}
	shape56 = hashShape{"56", 13, 15, 0}
)

func main() {
	out := flag.String("o", "tables_gen.go", "output file")
	search := flag.Bool("search", false, "rediscover the multipliers by greedy search (slow)")
	flag.Parse()
	mults := multipliers
	if *search {
		mults = searchMultipliers()
		log.Printf("multipliers: %v", mults)
	}
	disp7, disp56, err := findMul(mults)
	if err != nil {
		log.Fatal(err)
	}
	src, err := render(mults, disp7, disp56)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// findMul tries odd multipliers from 0x9e3779b1 up until both tables
// can be displaced, and sets hashMul.
func findMul(mults [13]uint32) (disp7, disp56 []uint16, err error) {
	keys7, keys56 := handKeys(mults, 7, 7), handKeys(mults, 5, 6)
	for m := uint32(0x9e3779b1); m < 0x9e3779b1+2000; m += 2 {
		hashMul = m
		if disp7, err = displace(keys7, shape7); err != nil {
			continue
		}
		if disp56, err = displace(keys56, shape56); err != nil {
			continue
		}
		return disp7, disp56, nil
	}
	return nil, nil, err
}

// handKeys returns the rank sum of every multiset of lo to hi ranks with at
// most four of each rank.
func handKeys(mults [13]uint32, lo, hi int) []uint32 {
	var keys []uint32
	var walk func(rank, size int, sum uint32)
	walk = func(rank, size int, sum uint32) {
		if rank == 13 {
			if size >= lo {
				keys = append(keys, sum)
			}
			return
		}
		for n := 0; n <= 4 && size+n <= hi; n++ {
			walk(rank+1, size+n, sum+uint32(n)*mults[rank])
		}
	}
	walk(0, 0, 0)
	return keys
}

// displace builds the hash-and-displace perfect hash: buckets, the fullest
// first, take the smallest displacement d whose slots (sum XOR d, low
// tableBits bits) are all free.
func displace(keys []uint32, h hashShape) ([]uint16, error) {
	buckets := make([][]uint32, 1<<h.bucketBits)
	for _, k := range keys {
		k *= hashMul
		b := k & (1<<25 - 1) >> (25 - h.bucketBits)
		buckets[b] = append(buckets[b], k&(1<<h.tableBits-1))
	}
	order := make([]int, len(buckets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(buckets[order[i]]) > len(buckets[order[j]]) })
	size := 1 << h.tableBits
	taken := make([]bool, size)
	for i := size - h.reserved; i < size; i++ {
		taken[i] = true
	}
	disp := make([]uint16, len(buckets))
	for _, b := range order {
		slots := buckets[b]
		if len(slots) == 0 {
			continue
		}
		for i, s := range slots {
			if slices.Contains(slots[:i], s) {
				return nil, fmt.Errorf("table %s: two sums of bucket %d share their low bits", h.name, b)
			}
		}
		d, ok := firstFree(taken, slots)
		if !ok {
			return nil, fmt.Errorf("table %s: no displacement places bucket %d (%d keys)", h.name, b, len(slots))
		}
		for _, s := range slots {
			taken[s^d] = true
		}
		disp[b] = uint16(d)
	}
	return disp, nil
}

// firstFree returns the smallest d for which the slots XOR d are free.
func firstFree(taken []bool, slots []uint32) (uint32, bool) {
next:
	for d := uint32(0); d < uint32(len(taken)); d++ {
		for _, s := range slots {
			if taken[s^d] {
				continue next
			}
		}
		return d, true
	}
	return 0, false
}

// searchMultipliers picks, rank by rank, the smallest multiplier that keeps
// every multiset sum of up to seven cards distinct.
func searchMultipliers() [13]uint32 {
	type partial struct {
		sum  uint32
		size int
	}
	var mults [13]uint32
	sums := []partial{{0, 0}}
	stamp := make([]uint32, 1<<26)
	gen := uint32(0)
	m := uint32(0)
	for r := range mults {
		for m++; ; m++ {
			gen++
			if distinct(sums, m, stamp, gen, func(p partial) (uint32, int) { return p.sum, p.size }) {
				break
			}
		}
		mults[r] = m
		var next []partial
		for _, p := range sums {
			for n := 0; n <= 4 && p.size+n <= 7; n++ {
				next = append(next, partial{p.sum + uint32(n)*m, p.size + n})
			}
		}
		sums = next
	}
	return mults
}

func distinct[T any](sums []T, m uint32, stamp []uint32, gen uint32, get func(T) (uint32, int)) bool {
	for _, p := range sums {
		sum, size := get(p)
		for n := 0; n <= 4 && size+n <= 7; n++ {
			s := sum + uint32(n)*m
			if stamp[s] == gen {
				return false
			}
			stamp[s] = gen
		}
	}
	return true
}

func render(mults [13]uint32, disp7, disp56 []uint16) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./internal/gentables; DO NOT EDIT.\n\n")
	b.WriteString("package hand\n\n")
	fmt.Fprintf(&b, "// rankMult is each rank's weight in a hand's rank sum.\n")
	fmt.Fprintf(&b, "var rankMult = [13]uint32{")
	for i, m := range mults {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", m)
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// The shape of the rank hashes (see slot7 and slot56).\nconst (\n\thashMul = %#x\n", uint32(hashMul))
	for _, h := range []hashShape{shape7, shape56} {
		fmt.Fprintf(&b, "\tbucket%sBits = %d\n\trank%sBits = %d\n", h.name, h.bucketBits, h.name, h.tableBits)
	}
	fmt.Fprintf(&b, "\t// flushSlots slots at the top of the seven-card table take no rank sum\n\t// (build moves them to the start of hash7, for the displacements).\n\tflushSlots = %d\n", shape7.reserved)
	b.WriteString(")\n")
	for _, t := range []struct {
		name, what string
		disp       []uint16
	}{{"7", "seven", disp7}, {"56", "five or six", disp56}} {
		fmt.Fprintf(&b, "\n// disp%s holds the displacement of each bucket of %s-card rank sums.\n", t.name, t.what)
		fmt.Fprintf(&b, "var disp%s = [%d]uint16{", t.name, len(t.disp))
		for i, d := range t.disp {
			if i%16 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%d, ", d)
		}
		b.WriteString("\n}\n")
	}
	return format.Source(b.Bytes())
}
